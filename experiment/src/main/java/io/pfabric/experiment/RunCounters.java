package io.pfabric.experiment;

import io.pfabric.common.os.Commands;
import io.pfabric.common.topology.HostSpec;
import io.pfabric.common.topology.SwitchSpec;
import io.pfabric.common.topology.Topology;
import io.pfabric.common.topology.TrafficClasses;
import io.pfabric.dataplane.pacer.DepartureCounter;
import io.pfabric.dataplane.queue.DropReason;
import io.pfabric.dataplane.queue.PfabricClassQueue;
import io.pfabric.switchd.PortCounter;
import io.pfabric.switchd.SwitchDaemon;
import io.pfabric.switchd.SwitchPort;
import io.pfabric.testbed.FabricRunner;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where packets went during one run: every switch port's frames received and sent (in all, and per DSCP sent with
 * bytes and pFabric payload bytes), its queue's drops (in all and per reason), per-class counters (a queue with traffic classes) and its
 * receive ring's overflows and its departures against its rate ({@code backlogged_periods}, {@code slow_periods},
 * {@code backlogged_ns}, {@code slow_backlogged_ns}: {@code DepartureRateMonitor}) (when the switches run in this
 * process), and each host namespace's kernel UDP buffer overflows and TCP retransmissions, as the
 * difference of two snapshots. Written as {@code counters-SCHEME-LOAD.csv} ({@code element,counter,value}).
 */
final class RunCounters
{
    private static final List<String> KERNEL_COUNTERS =
        List.of("Udp:RcvbufErrors", "Udp:SndbufErrors", "Tcp:RetransSegs");

    private final Map<String, Long> values;
    private final boolean switchesRead;

    private RunCounters(final Map<String, Long> values, final boolean switchesRead)
    {
        this.values = values;
        this.switchesRead = switchesRead;
    }

    /**
     * Read the counters now.
     *
     * @param topology the fabric.
     * @param fabric   its namespaces and, when they run in this process, its switches.
     * @return the snapshot.
     * @throws IOException if a host's kernel counters cannot be read.
     */
    static RunCounters snapshot(final Topology topology, final EmulatedFabric fabric) throws IOException
    {
        final Map<String, Long> values = new LinkedHashMap<>();
        final FabricRunner switches = fabric.switches();
        for (final SwitchSpec spec : null == switches ? List.<SwitchSpec>of() : topology.switches())
        {
            final SwitchDaemon daemon = switches.daemon(spec.name());
            for (int i = 0; i < daemon.portCount(); i++)
            {
                final SwitchPort port = daemon.port(i);
                final String element = spec.name() + "/" + port.name();
                values.put(element + ",received_frames", port.counters().get(PortCounter.RECEIVED_FRAMES));
                values.put(element + ",transmitted_frames", port.counters().get(PortCounter.TRANSMITTED_FRAMES));
                values.put(element + ",queue_drops", port.queue().counters().droppedPackets());
                for (final DropReason reason : DropReason.values())
                {
                    final long dropped = port.queue().counters().droppedPackets(reason);
                    if (0 != dropped)
                    {
                        values.put(element + ",drops_" + reason.name().toLowerCase(Locale.ROOT), dropped);
                    }
                }
                values.put(element + ",ring_full_drops", port.counters().get(PortCounter.DROPPED_RING_FULL));
                for (final DepartureCounter counter : DepartureCounter.values())
                {
                    values.put(element + "," + counter.name().toLowerCase(Locale.ROOT),
                        port.departures().counters().get(counter));
                }
                putClasses(values, element, port);
            }
        }
        for (final HostSpec host : topology.hosts())
        {
            final String namespace = fabric.namespace(host.name());
            if (null == namespace)
            {
                continue;
            }
            final Map<String, Long> kernel = parseSnmp(Commands.inNamespace(namespace, "cat", "/proc/net/snmp"));
            for (final String counter : KERNEL_COUNTERS)
            {
                values.put(host.name() + "," + counter, kernel.getOrDefault(counter, 0L));
            }
        }
        return new RunCounters(values, null != switches);
    }

    /**
     * A port's frames, bytes and payload bytes per DSCP it sent any of, and its queue's per-class counters if it has
     * traffic classes.
     */
    private static void putClasses(final Map<String, Long> values, final String element, final SwitchPort port)
    {
        for (int dscp = 0; dscp < TrafficClasses.DSCP_COUNT; dscp++)
        {
            if (0 != port.transmittedFrames(dscp))
            {
                values.put(element + ",dscp" + dscp + "_transmitted_frames", port.transmittedFrames(dscp));
                values.put(element + ",dscp" + dscp + "_transmitted_bytes", port.transmittedBytes(dscp));
                values.put(element + ",dscp" + dscp + "_transmitted_payload_bytes",
                    port.transmittedPayloadBytes(dscp));
            }
        }
        if (port.queue() instanceof final PfabricClassQueue queue)
        {
            for (int k = 0; k < queue.classes().classCount(); k++)
            {
                values.put(element + ",class" + k + "_departed_frames", queue.departedFrames(k));
                values.put(element + ",class" + k + "_departed_bytes", queue.departedBytes(k));
                values.put(element + ",class" + k + "_backlogged_bytes", queue.backloggedBytes(k));
            }
            values.put(element + ",backlogged_stretches", queue.backloggedStretches());
        }
    }

    /**
     * The counters of {@code /proc/net/snmp}, as {@code Proto:Name}.
     *
     * @param text the file.
     * @return the values.
     */
    static Map<String, Long> parseSnmp(final String text)
    {
        final Map<String, Long> values = new LinkedHashMap<>();
        final String[] lines = text.split("\n");
        for (int i = 0; i + 1 < lines.length; i += 2)
        {
            final String[] names = lines[i].trim().split("\\s+");
            final String[] numbers = lines[i + 1].trim().split("\\s+");
            if (names.length != numbers.length || !names[0].equals(numbers[0]))
            {
                continue;
            }
            for (int f = 1; f < names.length; f++)
            {
                if (numbers[f].matches("-?[0-9]{1,19}"))
                {
                    values.put(names[0] + names[f], Long.parseLong(numbers[f]));
                }
            }
        }
        return values;
    }

    /**
     * What happened since an earlier snapshot.
     *
     * @param before the earlier snapshot.
     * @return the differences.
     */
    RunCounters since(final RunCounters before)
    {
        final Map<String, Long> delta = new LinkedHashMap<>();
        values.forEach((key, value) -> delta.put(key, value - before.values.getOrDefault(key, 0L)));
        return new RunCounters(delta, switchesRead && before.switchesRead);
    }

    /**
     * The sum of one counter over every element.
     *
     * @param counter such as {@code queue_drops}.
     * @return the total.
     */
    long total(final String counter)
    {
        return values.entrySet().stream().filter(entry -> entry.getKey().endsWith("," + counter))
            .mapToLong(Map.Entry::getValue).sum();
    }

    /**
     * One line for the progress output.
     *
     * @return the text.
     */
    String summary()
    {
        final String switches = switchesRead ?
            String.format(Locale.ROOT, "switch queue drops %,d, receive-ring drops %,d", total("queue_drops"),
                total("ring_full_drops")) :
            "switch counters in each switchd's log (its own process)";
        return String.format(Locale.ROOT, "%s; hosts' UDP buffer drops %,d, TCP retransmitted segments %,d", switches,
            total("Udp:RcvbufErrors") + total("Udp:SndbufErrors"), total("Tcp:RetransSegs"));
    }

    /**
     * Write {@code element,counter,value}.
     *
     * @param file where.
     * @throws IOException if it cannot be written.
     */
    void write(final Path file) throws IOException
    {
        try (BufferedWriter writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8))
        {
            writer.write("element,counter,value");
            writer.newLine();
            for (final Map.Entry<String, Long> entry : values.entrySet())
            {
                writer.write(entry.getKey() + "," + entry.getValue());
                writer.newLine();
            }
        }
    }
}
