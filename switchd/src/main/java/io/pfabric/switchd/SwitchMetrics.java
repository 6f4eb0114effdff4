package io.pfabric.switchd;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.pfabric.dataplane.pacer.DepartureCounter;
import io.pfabric.dataplane.queue.DropReason;
import io.pfabric.dataplane.queue.PfabricClassQueue;
import io.pfabric.dataplane.queue.QueueCounter;
import io.pfabric.dataplane.queue.QueueDiscipline;

import java.util.Locale;
import java.util.function.ToLongBiFunction;

/**
 * Mirrors a switch's counters into Micrometer on the cold side: every meter reads the data path's counters when it is
 * scraped; the data path never calls Micrometer. Queue meters follow the port's current queue, so their counts start
 * again from zero when the port's discipline is changed. A port whose queue has traffic classes
 * ({@link PfabricClassQueue}) when the meters are bound also has per-class meters, tagged {@code class} with the
 * class's index: {@code pfabric.queue.class.departed.frames}, {@code pfabric.queue.class.departed.bytes}, {@code pfabric.queue.class.dropped.frames} and
 * {@code pfabric.queue.class.backlogged.bytes} (bytes sent while every class was backlogged), and
 * {@code pfabric.queue.backlogged.stretches}; they read 0 while the port's queue has no such class.
 */
public final class SwitchMetrics
{
    private static final double NANOS_PER_SECOND = 1e9;

    private SwitchMetrics()
    {
    }

    /**
     * Register the forwarder's counters, tagged with the switch, and every port's counters, queue counters and queue
     * occupancy, tagged with switch and port.
     *
     * @param daemon   the switch.
     * @param registry to register with.
     */
    public static void bind(final SwitchDaemon daemon, final MeterRegistry registry)
    {
        final SwitchPort[] ports = new SwitchPort[daemon.portCount()];
        for (int i = 0; i < ports.length; i++)
        {
            ports[i] = daemon.port(i);
        }
        bind(daemon.name(), daemon.forwarder(), ports, registry);
    }

    /**
     * Register a switch's counters from its parts, as {@link #bind(SwitchDaemon, MeterRegistry)} does.
     *
     * @param switchName the switch's name, the {@code switch} tag.
     * @param forwarder  the switch's forwarder.
     * @param ports      the switch's ports.
     * @param registry   to register with.
     */
    static void bind(
        final String switchName, final Forwarder forwarder, final SwitchPort[] ports, final MeterRegistry registry)
    {
        final Tags switchTags = Tags.of("switch", switchName);
        FunctionCounter.builder("pfabric.forwarder.duty.cycles", forwarder,
            f -> f.counters().get(ForwarderCounter.DUTY_CYCLES))
            .description("Duty cycles the switch's forwarder ran (one pass over every port)")
            .tags(switchTags).register(registry);
        Gauge.builder("pfabric.forwarder.longest.duty.cycle.gap", forwarder,
            f -> f.counters().get(ForwarderCounter.LONGEST_DUTY_CYCLE_GAP_NS) / NANOS_PER_SECOND)
            .baseUnit("seconds")
            .description("Longest time between two consecutive duty cycles of the forwarder since it started")
            .tags(switchTags).register(registry);
        Gauge.builder("pfabric.forwarder.longest.backlogged.gap", forwarder,
            f -> f.counters().get(ForwarderCounter.LONGEST_BACKLOGGED_GAP_NS) / NANOS_PER_SECOND)
            .baseUnit("seconds")
            .description("Longest time between two consecutive duty cycles of the forwarder while a port held " +
                "frames, since it started or since an experiment's run began")
            .tags(switchTags).register(registry);
        for (final SwitchPort port : ports)
        {
            final Tags tags = Tags.of("switch", switchName, "port", port.name());
            for (final PortCounter counter : PortCounter.values())
            {
                final Meter meter = portMeter(counter);
                FunctionCounter.builder(meter.name(), port, p -> p.counters().get(counter))
                    .description(meter.description()).tags(tags.and(meter.tags())).register(registry);
            }
            for (final QueueCounter counter : QueueCounter.values())
            {
                final Meter meter = queueMeter(counter);
                if (QueueCounter.HIGH_WATER_BYTES == counter || QueueCounter.HIGH_WATER_PACKETS == counter)
                {
                    Gauge.builder(meter.name(), port, p -> p.queue().counters().get(counter))
                        .description(meter.description()).tags(tags.and(meter.tags())).register(registry);
                }
                else
                {
                    FunctionCounter.builder(meter.name(), port, p -> p.queue().counters().get(counter))
                        .description(meter.description()).tags(tags.and(meter.tags())).register(registry);
                }
            }
            bindDepartures(port, tags, registry);
            Gauge.builder("pfabric.queue.occupancy.bytes", port, p -> p.queue().byteCount())
                .description("Bytes in the port's egress queue now").tags(tags).register(registry);
            Gauge.builder("pfabric.queue.occupancy.frames", port, p -> p.queue().packetCount())
                .description("Frames in the port's egress queue now").tags(tags).register(registry);
            if (port.queue() instanceof final PfabricClassQueue classQueue)
            {
                bindClasses(port, tags, classQueue.classes().classCount(), registry);
            }
        }
    }

    /**
     * A meter's name, the tags that tell it from the other meters of that name, and its help text.
     *
     * @param name        the Micrometer name (dots; the Prometheus registry adds {@code _total} to counters).
     * @param tags        tags of what varies under the name, such as a drop's reason.
     * @param description the help text.
     */
    record Meter(String name, Tags tags, String description)
    {
    }

    /**
     * The meter a port counter is exported as: drops as one family by reason.
     *
     * @param counter the counter.
     * @return its meter.
     */
    static Meter portMeter(final PortCounter counter)
    {
        return switch (counter)
        {
            case RECEIVED_FRAMES -> new Meter("pfabric.port.received.frames", Tags.empty(),
                "Frames the port received");
            case TRANSMITTED_FRAMES -> new Meter("pfabric.port.transmitted.frames", Tags.empty(),
                "Frames the port handed to its interface");
            case DROPPED_MALFORMED -> portDrop("malformed");
            case DROPPED_NO_ROUTE -> portDrop("no_route");
            case DROPPED_UNSUPPORTED -> portDrop("unsupported");
            case DROPPED_OVERSIZE -> portDrop("oversize");
            case DROPPED_RING_FULL -> portDrop("ring_full");
            case ARP_REPLIES -> new Meter("pfabric.port.arp.replies", Tags.empty(),
                "ARP requests the switch answered from its host table");
            case ARP_IGNORED -> new Meter("pfabric.port.arp.ignored", Tags.empty(),
                "ARP frames not answered: replies, or requests for an unknown address");
            case TRANSMIT_RETRIES -> new Meter("pfabric.port.transmit.retries", Tags.empty(),
                "Flushes that asked the kernel again for frames left in the transmit ring");
            case FLOODED_FRAMES -> new Meter("pfabric.port.flooded.frames", Tags.empty(),
                "Frames flooded to every other port (learning mode)");
            case LINK_DOWNS -> new Meter("pfabric.port.link.changes", Tags.of("state", "down"),
                "Times the port's link went down or came back up, by the state it changed to");
            case LINK_UPS -> new Meter("pfabric.port.link.changes", Tags.of("state", "up"),
                "Times the port's link went down or came back up, by the state it changed to");
            case REROUTED_AROUND_DOWN_LINK -> new Meter("pfabric.port.rerouted.frames", Tags.empty(),
                "Frames sent to another equal-cost port because the chosen one had its link down");
            case INTERFACE_LOSSES -> new Meter("pfabric.port.interface.losses", Tags.empty(),
                "Times the port's interface was deleted and the port closed");
            case REOPENS -> new Meter("pfabric.port.reopens", Tags.empty(),
                "Times the port was opened again on a new interface of the same name");
            case DROPPED_INTERFACE_GONE -> portDrop("interface_gone");
            case FORWARDED_WITHOUT_COPY -> new Meter("pfabric.port.forwarded.without.copy.frames", Tags.empty(),
                "Frames the port received and queued at another port of the switch's shared AF_XDP UMEM as they were");
            case DROPPED_NO_UMEM_FRAME -> portDrop("no_umem_frame");
        };
    }

    private static Meter portDrop(final String reason)
    {
        return new Meter("pfabric.port.dropped.frames", Tags.of("reason", reason),
            "Frames the port dropped, by reason: on receive, or while its interface was gone");
    }

    /**
     * The meter a queue counter is exported as: drops as one family of frames and one of bytes, by reason.
     *
     * @param counter the counter.
     * @return its meter.
     */
    static Meter queueMeter(final QueueCounter counter)
    {
        for (final DropReason reason : DropReason.values())
        {
            final String label = reason.name().toLowerCase(Locale.ROOT);
            if (QueueCounter.dropPackets(reason) == counter)
            {
                return new Meter("pfabric.queue.dropped.frames", Tags.of("reason", label),
                    "Frames the port's egress queue dropped, by reason");
            }
            if (QueueCounter.dropBytes(reason) == counter)
            {
                return new Meter("pfabric.queue.dropped.bytes", Tags.of("reason", label),
                    "Bytes of the frames the port's egress queue dropped, by reason");
            }
        }
        final String name = counter.name().toLowerCase(Locale.ROOT).replace("_packets", "_frames").replace('_', '.');
        return new Meter("pfabric.queue." + name, Tags.empty(), counter.label() + " at the port's egress queue");
    }

    private static void bindDepartures(final SwitchPort port, final Tags tags, final MeterRegistry registry)
    {
        FunctionCounter.builder("pfabric.port.backlogged.periods", port,
            p -> p.departures().counters().get(DepartureCounter.BACKLOGGED_PERIODS))
            .description("Periods of at most 10 ms of wire time during which the paced port had frames waiting")
            .tags(tags).register(registry);
        FunctionCounter.builder("pfabric.port.slow.periods", port,
            p -> p.departures().counters().get(DepartureCounter.SLOW_PERIODS))
            .description("Backlogged periods in which the paced port sent below 95% of its configured rate")
            .tags(tags).register(registry);
        FunctionCounter.builder("pfabric.port.backlogged.time", port,
            p -> p.departures().counters().get(DepartureCounter.BACKLOGGED_NS) / NANOS_PER_SECOND)
            .baseUnit("seconds")
            .description("Time the paced port's backlogged periods lasted")
            .tags(tags).register(registry);
        FunctionCounter.builder("pfabric.port.backlogged.wire.time", port,
            p -> p.departures().counters().get(DepartureCounter.BACKLOGGED_WIRE_NS) / NANOS_PER_SECOND)
            .baseUnit("seconds")
            .description("Wire time at the configured rate of the frames the paced port sent in its backlogged " +
                "periods; over their duration, the share of its rate it achieved while backlogged")
            .tags(tags).register(registry);
        FunctionCounter.builder("pfabric.port.slow.time", port,
            p -> p.departures().counters().get(DepartureCounter.SLOW_BACKLOGGED_NS) / NANOS_PER_SECOND)
            .baseUnit("seconds")
            .description("Time the paced port's slow backlogged periods lasted, below 95% of its configured rate")
            .tags(tags).register(registry);
    }

    private static void bindClasses(final SwitchPort port, final Tags tags, final int classCount,
        final MeterRegistry registry)
    {
        for (int k = 0; k < classCount; k++)
        {
            final Tags classTags = tags.and("class", Integer.toString(k));
            classCounter(registry, "pfabric.queue.class.departed.frames", "Frames the traffic class sent", port,
                classTags, k, PfabricClassQueue::departedFrames);
            classCounter(registry, "pfabric.queue.class.departed.bytes", "Bytes the traffic class sent", port,
                classTags, k, PfabricClassQueue::departedBytes);
            classCounter(registry, "pfabric.queue.class.dropped.frames",
                "Frames of the traffic class the port's egress queue dropped, arriving or buffered, for any reason",
                port, classTags, k, PfabricClassQueue::droppedFrames);
            classCounter(registry, "pfabric.queue.class.backlogged.bytes",
                "Bytes the traffic class sent while every class of the port was backlogged", port, classTags, k,
                PfabricClassQueue::backloggedBytes);
        }
        FunctionCounter.builder("pfabric.queue.backlogged.stretches", port,
            p -> p.queue() instanceof final PfabricClassQueue q ? q.backloggedStretches() : 0)
            .description("Stretches of time during which every traffic class of the port was backlogged")
            .tags(tags).register(registry);
    }

    private static void classCounter(final MeterRegistry registry, final String name, final String description,
        final SwitchPort port, final Tags tags, final int trafficClass,
        final ToLongBiFunction<PfabricClassQueue, Integer> value)
    {
        FunctionCounter.builder(name, port, p -> classValue(p.queue(), trafficClass, value))
            .description(description).tags(tags).register(registry);
    }

    private static long classValue(final QueueDiscipline queue, final int trafficClass,
        final ToLongBiFunction<PfabricClassQueue, Integer> value)
    {
        return queue instanceof final PfabricClassQueue classQueue &&
            trafficClass < classQueue.classes().classCount() ? value.applyAsLong(classQueue, trafficClass) : 0;
    }
}
