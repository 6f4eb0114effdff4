package io.pfabric.bench.forwarding;

import io.pfabric.common.topology.HostSpec;
import io.pfabric.common.topology.PortSpec;
import io.pfabric.common.topology.Topologies;
import io.pfabric.common.topology.Topology;
import io.pfabric.bench.netns.BenchFabric;
import io.pfabric.testbed.NetnsFabric;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The forwarding benchmark: a star of two hosts in network namespaces, veth pairs with offloads off, and each target
 * in turn forwarding between them. For each target and frame length: the frames per second delivered to the
 * receiving host's interface while trafgen floods from the other host, and the round-trip time of a UDP ping-pong on
 * the otherwise idle fabric. Then switchd alone with its egress paced at each configured rate, 1500-byte frames
 * offered above that rate, and the rate measured at the receiver.
 */
public final class ForwardingBench implements AutoCloseable
{
    /**
     * Prefix of the namespaces the benchmark makes; a killed run's leftovers are removed by it at the next start.
     */
    public static final String PREFIX = "pfbench";

    private static final int PACER_FRAME_LENGTH = 1500;
    private static final String HOST_INTERFACE = "eth0";
    private final Settings settings;
    private final PrintStream progress;
    private final Topology topology = Topologies.star(2, "", 0, PortSpec.DISCIPLINES.get(0));
    private final BenchFabric resources;

    /**
     * What to run.
     *
     * @param targets        in the order to run them.
     * @param frameLengths   Ethernet frame lengths without FCS, 60 to 1514.
     * @param warmUp         flooding before the counters are read.
     * @param measurement    flooding between the two readings.
     * @param rttWarmUps     round trips before recording.
     * @param rttSamples     round trips recorded per target and frame length.
     * @param pacerRatesBps  configured egress rates whose accuracy is measured; may be empty.
     */
    public record Settings(
        List<ForwardingTarget.Kind> targets,
        List<Integer> frameLengths,
        Duration warmUp,
        Duration measurement,
        int rttWarmUps,
        int rttSamples,
        List<Long> pacerRatesBps)
    {
    }

    /**
     * Forwarding through one target at one frame length.
     *
     * @param target      switchd, bridge or ovs.
     * @param frameLength bytes without FCS.
     * @param deliveredPps frames per second arriving at the receiving host.
     * @param offeredPps  frames per second trafgen sent.
     * @param rttP50Us    median round trip in microseconds.
     * @param rttP99Us    99th-percentile round trip in microseconds.
     * @param rttLost     round trips without a reply.
     */
    public record ForwardingResult(
        String target, int frameLength, double deliveredPps, double offeredPps, double rttP50Us, double rttP99Us,
        int rttLost)
    {
    }

    /**
     * The paced egress at one configured rate.
     *
     * @param configuredBps the port's line rate.
     * @param measuredBps   rate arriving at the receiver, each frame counted with 24 bytes of FCS, preamble and gap.
     * @param offeredBps    rate trafgen sent, counted the same way.
     */
    public record PacerResult(long configuredBps, double measuredBps, double offeredBps)
    {
        /**
         * Measured over configured.
         *
         * @return the ratio.
         */
        public double ratio()
        {
            return measuredBps / configuredBps;
        }
    }

    /**
     * All results of a run.
     *
     * @param forwarding per target and frame length.
     * @param pacer      per configured rate.
     */
    public record Report(List<ForwardingResult> forwarding, List<PacerResult> pacer)
    {
    }

    /**
     * A benchmark, not yet run.
     *
     * @param settings what to run.
     * @param progress where to report each step.
     */
    public ForwardingBench(final Settings settings, final PrintStream progress)
    {
        this.settings = settings;
        this.progress = progress;
        this.resources = new BenchFabric(progress, "bench forwarding");
    }

    /**
     * Build the fabric, run every measurement and tear everything down.
     *
     * @return the results.
     * @throws IOException if the fabric, a target or the generator fails.
     */
    public Report run() throws IOException
    {
        resources.build(topology, PREFIX);
        try
        {
            final List<ForwardingResult> forwarding = new ArrayList<>();
            for (final ForwardingTarget.Kind kind : settings.targets())
            {
                forwarding.addAll(measureTarget(kind));
            }
            final List<PacerResult> pacer = new ArrayList<>();
            for (final long rateBps : settings.pacerRatesBps())
            {
                pacer.add(measurePacer(rateBps));
            }
            return new Report(forwarding, pacer);
        }
        finally
        {
            close();
        }
    }

    private List<ForwardingResult> measureTarget(final ForwardingTarget.Kind kind) throws IOException
    {
        progress.printf("bench forwarding: starting %s%n", kind.label());
        final List<ForwardingResult> results = new ArrayList<>();
        final ForwardingTarget target = track(ForwardingTarget.start(kind, fabric(), 0));
        try
        {
            for (final int frameLength : settings.frameLengths())
            {
                final UdpPingPong.Result rtt = UdpPingPong.run(namespace(sender()), namespace(receiver()),
                    receiver().ipText(), frameLength, settings.rttWarmUps(), settings.rttSamples());
                final Flood flood = flood(frameLength);
                final ForwardingResult result = new ForwardingResult(kind.label(), frameLength,
                    flood.delivered().packetsPerSecSince(flood.deliveredBefore()),
                    flood.offered().packetsPerSecSince(flood.offeredBefore()),
                    rtt.micros(50), rtt.micros(99), rtt.lost());
                progress.printf("bench forwarding: %-7s %4d B  %,10.0f pps delivered of %,10.0f offered, " +
                    "round trip p50 %.1f us p99 %.1f us%n", kind.label(), frameLength, result.deliveredPps(),
                    result.offeredPps(), result.rttP50Us(), result.rttP99Us());
                results.add(result);
            }
        }
        finally
        {
            untrack(target);
        }
        return results;
    }

    private PacerResult measurePacer(final long rateBps) throws IOException
    {
        progress.printf("bench forwarding: switchd paced at %,d b/s%n", rateBps);
        final ForwardingTarget target =
            track(ForwardingTarget.start(ForwardingTarget.Kind.SWITCHD, fabric(), rateBps));
        try
        {
            UdpPingPong.run(namespace(sender()), namespace(receiver()), receiver().ipText(), PACER_FRAME_LENGTH,
                settings.rttWarmUps(), 0);
            final Flood flood = flood(PACER_FRAME_LENGTH);
            final PacerResult result = new PacerResult(rateBps,
                flood.delivered().wireBitsPerSecSince(flood.deliveredBefore()),
                flood.offered().wireBitsPerSecSince(flood.offeredBefore()));
            progress.printf("bench forwarding: paced at %,d b/s: %,.0f b/s measured (%.2f%%), %,.0f b/s offered%n",
                rateBps, result.measuredBps(), 100 * result.ratio(), result.offeredBps());
            return result;
        }
        finally
        {
            untrack(target);
        }
    }

    private record Flood(
        LinkCounters offeredBefore, LinkCounters offered, LinkCounters deliveredBefore, LinkCounters delivered)
    {
    }

    private Flood flood(final int frameLength) throws IOException
    {
        final HostSpec from = sender();
        final HostSpec to = receiver();
        final Trafgen.UdpFrame frame = new Trafgen.UdpFrame(from.macText(), to.macText(), from.ipText(), to.ipText(),
            frameLength);
        final String fromNamespace = namespace(from);
        final String toNamespace = namespace(to);
        final Trafgen trafgen = track(Trafgen.start(fromNamespace, HOST_INTERFACE, frame));
        try
        {
            sleep(settings.warmUp());
            final LinkCounters offeredBefore = LinkCounters.transmitted(fromNamespace, HOST_INTERFACE);
            final LinkCounters deliveredBefore = LinkCounters.received(toNamespace, HOST_INTERFACE);
            sleep(settings.measurement());
            final LinkCounters offered = LinkCounters.transmitted(fromNamespace, HOST_INTERFACE);
            final LinkCounters delivered = LinkCounters.received(toNamespace, HOST_INTERFACE);
            return new Flood(offeredBefore, offered, deliveredBefore, delivered);
        }
        finally
        {
            untrack(trafgen);
        }
    }

    private HostSpec sender()
    {
        return topology.hosts().get(0);
    }

    private HostSpec receiver()
    {
        return topology.hosts().get(1);
    }

    private static String namespace(final HostSpec host)
    {
        return PREFIX + "-" + host.name();
    }

    private static void sleep(final Duration duration) throws IOException
    {
        try
        {
            Thread.sleep(duration.toMillis());
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", ex);
        }
    }

    private NetnsFabric fabric() throws IOException
    {
        return resources.fabric();
    }

    private <T extends AutoCloseable> T track(final T resource) throws IOException
    {
        return resources.track(resource);
    }

    private void untrack(final AutoCloseable resource) throws IOException
    {
        if (!resources.untrack(resource))
        {
            return;
        }
        try
        {
            resource.close();
        }
        catch (final IOException ex)
        {
            throw ex;
        }
        catch (final Exception ex)
        {
            throw new IOException(ex.getMessage(), ex);
        }
    }

    /**
     * Stop the generator and the target and remove the namespaces; safe from another thread (a shutdown hook) and
     * more than once.
     */
    public void close()
    {
        resources.close();
    }
}
