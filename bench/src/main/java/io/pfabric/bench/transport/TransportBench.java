package io.pfabric.bench.transport;

import io.pfabric.common.topology.Topologies;
import io.pfabric.common.topology.Topology;
import io.pfabric.common.wire.PfabricHeaderFlyweight;
import io.pfabric.hostd.HostDaemon;
import io.pfabric.hostd.io.PacketIos;
import io.pfabric.hostd.io.UdpPacketIo;
import io.pfabric.hostd.transport.FlowRecord;
import io.pfabric.hostd.transport.TransportConfiguration;
import io.pfabric.hostd.transport.TransportListener;
import io.pfabric.switchd.SwitchDaemon;
import io.pfabric.dataplane.pacer.EgressPacer;
import io.pfabric.testbed.FabricRunner;
import io.pfabric.testbed.NetnsFabric;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One flow from h1 to h2 of a {@code star:2} fabric in network namespaces, through switchd with every port paced at
 * the rate under test, hostd's transport over kernel UDP on both hosts: its goodput against the most the line rate
 * allows once every packet's headers are paid for, and the CPU the two transport threads spent per packet.
 */
public final class TransportBench
{
    /**
     * Prefix of the benchmark's namespaces.
     */
    public static final String PREFIX = "pfbench";

    /**
     * pFabric's buffer per switch port, which also caps the window (in packets, less one).
     */
    public static final long DEFAULT_BUFFER_LENGTH = 36_000;
    private static final int MEASUREMENT_SAMPLES = 5;

    /**
     * One rate's result.
     *
     * @param rateBitsPerSec     the emulated line rate.
     * @param sizeBytes          the flow's size.
     * @param baseRttNs          the measured base RTT.
     * @param goodputBitsPerSec  payload bits over the flow completion time.
     * @param maxGoodputBitsPerSec the line rate less every full packet's headers, preamble and gap.
     * @param cpuNanosPerPacket  CPU of both transport threads per data packet sent.
     * @param timeouts           timeouts the flow took.
     */
    public record Result(
        long rateBitsPerSec,
        long sizeBytes,
        long baseRttNs,
        double goodputBitsPerSec,
        double maxGoodputBitsPerSec,
        double cpuNanosPerPacket,
        int timeouts)
    {
        /**
         * Goodput over its maximum.
         *
         * @return the ratio.
         */
        public double ratioToMax()
        {
            return goodputBitsPerSec / maxGoodputBitsPerSec;
        }
    }

    private TransportBench()
    {
    }

    /**
     * The largest goodput a line rate allows: each full segment (1,440 bytes, so that a 1500-byte MTU carries it
     * unfragmented over UDP) costs its payload, the pFabric header, UDP, IPv4 and Ethernet headers, and the 24 bytes
     * of FCS, preamble and gap.
     *
     * @param rateBitsPerSec the line rate.
     * @return bits per second of payload.
     */
    public static double maxGoodputBitsPerSec(final long rateBitsPerSec)
    {
        final int segment = UdpPacketIo.MAX_PACKET_LENGTH - PfabricHeaderFlyweight.HEADER_LENGTH;
        final int wire = PacketIos.wireOverheadLength(PacketIos.UDP) + PfabricHeaderFlyweight.HEADER_LENGTH + segment +
            EgressPacer.WIRE_OVERHEAD_LENGTH;
        return rateBitsPerSec * (double)segment / wire;
    }

    /**
     * Run the benchmark at each rate.
     *
     * @param ratesBitsPerSec line rates.
     * @param sizeBytes       bytes of the measured flow.
     * @param bufferLength    switch buffer per port in bytes; the window cap follows from it.
     * @param progress        where to report each step.
     * @return a result per rate.
     * @throws IOException if the fabric or a host fails.
     */
    public static List<Result> run(
        final List<Long> ratesBitsPerSec, final long sizeBytes, final long bufferLength, final PrintStream progress)
        throws IOException
    {
        final List<String> leftovers = NetnsFabric.removeLeftovers(PREFIX);
        if (!leftovers.isEmpty())
        {
            progress.println("bench transport: removed leftovers of an earlier run " + leftovers);
        }
        final List<Result> results = new ArrayList<>();
        for (final long rate : ratesBitsPerSec)
        {
            results.add(runOne(rate, sizeBytes, bufferLength, progress));
        }
        return results;
    }

    private static Result runOne(
        final long rateBitsPerSec, final long sizeBytes, final long bufferLength, final PrintStream progress)
        throws IOException
    {
        final Topology topology = Topologies.star(2, "", rateBitsPerSec, "pfabric");
        try (NetnsFabric fabric = NetnsFabric.build(topology, PREFIX))
        {
            final FabricRunner switches;
            try
            {
                switches = FabricRunner.start(fabric, new SwitchDaemon.Overrides(-1, null, bufferLength));
            }
            catch (final io.pfabric.common.packet.PacketSocketException ex)
            {
                throw new IOException("switchd: " + ex.getMessage(), ex);
            }
            final List<HostDaemon> hosts = new ArrayList<>();
            try
            {
                final TransportConfiguration initial =
                    TransportConfiguration.forFabric(rateBitsPerSec, 1_000_000, bufferLength);
                for (final String name : List.of("h1", "h2"))
                {
                    hosts.add(HostDaemon.start(topology, name,
                        new HostDaemon.Options(initial, rateBitsPerSec, PacketIos.wireOverheadLength("udp"),
                            fabric.namespace(name), false),
                        PacketIos.factory("udp"), new TransportListener()
                        {
                        }));
                }
                final HostDaemon sender = hosts.get(0);
                final long baseRttNs = sender.measureBaseRttNs("h2", MEASUREMENT_SAMPLES, 1_000_000_000L);
                final TransportConfiguration configuration =
                    TransportConfiguration.forFabric(rateBitsPerSec, baseRttNs, bufferLength);
                sender.reconfigure(configuration);
                progress.printf("bench transport: %,d b/s, base RTT %.1f us, window %d..%d, timeout %.1f us; " +
                    "sending %,d bytes%n", rateBitsPerSec, baseRttNs / 1e3, configuration.initialWindowPackets(),
                    configuration.maxWindowPackets(), configuration.timeoutNs() / 1e3, sizeBytes);
                final long cpuBefore = hosts.get(0).threadCpuNanos() + hosts.get(1).threadCpuNanos();
                final long packetsBefore = sender.counters().packetsSent();
                final FlowRecord record = sender.send("h2", sizeBytes).get(600, TimeUnit.SECONDS);
                final long cpu = hosts.get(0).threadCpuNanos() + hosts.get(1).threadCpuNanos() - cpuBefore;
                final long packets = sender.counters().packetsSent() - packetsBefore;
                final Result result = new Result(rateBitsPerSec, sizeBytes, baseRttNs,
                    sizeBytes * 8e9 / record.fctNs(), maxGoodputBitsPerSec(rateBitsPerSec),
                    (double)cpu / Math.max(1, packets), record.timeouts());
                progress.printf("bench transport: %,d b/s: goodput %,.0f b/s = %.3f of the %,.0f b/s possible, " +
                    "%d timeouts, %.0f ns of CPU per packet%n", rateBitsPerSec, result.goodputBitsPerSec(),
                    result.ratioToMax(), result.maxGoodputBitsPerSec(), result.timeouts(), result.cpuNanosPerPacket());
                return result;
            }
            catch (final ExecutionException ex)
            {
                throw new IOException("the flow failed: " + ex.getCause().getMessage(), ex.getCause());
            }
            catch (final TimeoutException ex)
            {
                throw new IOException("the flow did not finish in 10 minutes", ex);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", ex);
            }
            finally
            {
                hosts.forEach(HostDaemon::close);
                switches.close();
            }
        }
    }
}
