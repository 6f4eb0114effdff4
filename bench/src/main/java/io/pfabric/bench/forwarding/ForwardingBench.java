package io.pfabric.bench.forwarding;

import io.pfabric.common.topology.HostSpec;
import io.pfabric.common.topology.PortSpec;
import io.pfabric.common.topology.Topologies;
import io.pfabric.common.topology.Topology;
import io.pfabric.bench.netns.BenchFabric;
import io.pfabric.bench.transport.ProcStat;
import io.pfabric.common.topology.SwitchSpec;
import io.pfabric.testbed.NetnsFabric;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The forwarding benchmark: a star of two hosts in network namespaces, veth pairs with offloads off, and each target in
 * turn forwarding between them. For each target and frame length: the frames per second the generator offered and the
 * frames per second delivered to the receiving host's interface, the whole machine's CPU time per delivered frame, and
 * the round-trip time of a UDP ping-pong on the otherwise idle fabric. Then switchd (on raw-socket ports, AF_XDP ports
 * or both, in turn) with its egress paced at each configured rate, 1500-byte frames offered above that rate, the rate
 * measured at the receiver, and from switchd's own counters what kept the port from its rate, if anything
 * ({@link PacerProbe}).
 * <p>
 * The sink is a tc ingress program that drops every frame at the receiving interface ({@link Sink#TC}, the default), or
 * an XDP program there ({@link Sink#XDP}), so no target pays for the receiving host's stack, or the host itself ({@link
 * Sink#HOST}); the receiving interface's receive count is the measurement. The {@code generator} target forwards
 * nothing: the generator ({@link Generator}: trafgen, or the kernel's XDP live frames) sends into its veth and the sink
 * is on the peer, which gives the generator's own ceiling.
 */
public final class ForwardingBench implements AutoCloseable
{
    /**
     * Prefix of the namespaces the benchmark makes; a killed run's leftovers are removed by it at the next start.
     */
    public static final String PREFIX = "pfbench";

    /**
     * The prefix of the benchmark's namespaces: {@link #PREFIX}, or the system property
     * {@code pfabric.testbed.prefix} with {@code b} appended, so that two users of one machine never remove each
     * other's.
     *
     * @return the prefix.
     */
    public static String namespacePrefix()
    {
        final String own = System.getProperty("pfabric.testbed.prefix");
        return null == own || own.isEmpty() ? PREFIX : own + "b";
    }

    private static final int PACER_FRAME_LENGTH = 1500;
    /**
     * What the XDP generator offers a paced port, over its rate: above it, so that the port's queue stays full, but
     * not the many times its rate the generator could send, which one ingress port of the same rate never would;
     * trafgen sends as fast as it can.
     */
    private static final double PACER_OVERLOAD = 1.1;
    private static final Duration COMPILE_QUIET = Duration.ofMillis(500);
    private static final String HOST_INTERFACE = "eth0";
    private static final String FORWARDER_THREAD = "forwarder";
    private static final Path LOAD_AVERAGE = Path.of("/proc/loadavg");
    private final Settings settings;
    private final PrintStream progress;
    private final Topology topology = Topologies.star(2, "", 0, PortSpec.DISCIPLINES.get(0));
    private final BenchFabric resources;
    private final long userHz = ProcStat.userHz();
    private List<ProcessHandle> softirqThreads;

    /**
     * Where the delivered frames end and are counted.
     */
    public enum Sink implements Labelled
    {
        /**
         * A tc ingress program drops every frame at the receiving interface, before IP.
         */
        TC("tc"),

        /**
         * An XDP program drops every frame at the receiving interface, before the kernel's stack.
         */
        XDP("xdp"),

        /**
         * The receiving host takes every frame up its stack (a UDP port nobody listens on); the interface's receive
         * count is the measurement.
         */
        HOST("host");

        private final String label;

        Sink(final String label)
        {
            this.label = label;
        }

        /**
         * The name on the command line and in the results.
         *
         * @return the name.
         */
        public String label()
        {
            return label;
        }

        /**
         * The sink of a name.
         *
         * @param label tc, xdp or host.
         * @return the sink.
         * @throws IllegalArgumentException for another name.
         */
        public static Sink byLabel(final String label)
        {
            return Labelled.byLabel(values(), label, "sink");
        }
    }

    /**
     * What sends the flood.
     */
    public enum Generator implements Labelled
    {
        /**
         * netsniff-ng's trafgen, from a packet socket: a socket buffer and a share of a system call per frame.
         */
        TRAFGEN("trafgen"),

        /**
         * The kernel's XDP live-frames mode ({@link XdpGenerator}), from a thread of the benchmark: neither.
         */
        XDP("xdp");

        private final String label;

        Generator(final String label)
        {
            this.label = label;
        }

        /**
         * The name on the command line and in the results.
         *
         * @return the name.
         */
        public String label()
        {
            return label;
        }

        /**
         * The generator of a name.
         *
         * @param label trafgen or xdp.
         * @return the generator.
         * @throws IllegalArgumentException for another name.
         */
        public static Generator byLabel(final String label)
        {
            return Labelled.byLabel(values(), label, "generator");
        }
    }

    /**
     * What to run.
     *
     * @param targets        in the order to run them.
     * @param frameLengths   Ethernet frame lengths without FCS, 60 to 1514.
     * @param warmUp         flooding before the counters are read.
     * @param compileWait    longest the flooding goes on past the warm-up while the JIT compiler is at work.
     * @param measurement    flooding between the two readings.
     * @param rttWarmUps     round trips before recording.
     * @param rttSamples     round trips recorded per target and frame length.
     * @param pacerRatesBps  configured egress rates whose accuracy is measured; may be empty.
     * @param pacerTargets   what is paced at each of those rates: switchd, switchd-xdp, or both.
     * @param sink           where delivered frames are counted.
     * @param generator      what sends the flood.
     * @param runs           times every target, frame length and pacer rate is measured, in turn.
     */
    public record Settings(
        List<ForwardingTarget.Kind> targets,
        List<Integer> frameLengths,
        Duration warmUp,
        Duration compileWait,
        Duration measurement,
        int rttWarmUps,
        int rttSamples,
        List<Long> pacerRatesBps,
        List<ForwardingTarget.Kind> pacerTargets,
        Sink sink,
        Generator generator,
        int runs)
    {
    }

    /**
     * Forwarding through one target at one frame length.
     *
     * @param target         generator, switchd, switchd-xdp, bridge or ovs.
     * @param run            which of the runs, from 1.
     * @param frameLength    bytes without FCS.
     * @param deliveredPps   frames per second counted by the sink.
     * @param offeredPps     frames per second the generator sent.
     * @param cpuNsPerFrame  the whole machine's busy CPU time (every core, every process) over the frames delivered.
     * @param ownCpuNsPerFrame the CPU time of this JVM (switchd's forwarder runs in it), the generator and the
     *                       kernel's softirq threads ({@link ProcessCpu}) over the frames delivered.
     * @param forwarderNsPerFrame switchd's forwarder thread's CPU time over the frames delivered; NaN for the others.
     * @param rttP50Us       median round trip in microseconds; NaN for the generator.
     * @param rttP99Us       99th-percentile round trip in microseconds; NaN for the generator.
     * @param rttLost        round trips without a reply.
     * @param loadAverage    the first three fields of {@code /proc/loadavg} at the end of the measurement.
     */
    public record ForwardingResult(
        String target, int run, int frameLength, double deliveredPps, double offeredPps, double cpuNsPerFrame,
        double ownCpuNsPerFrame, double forwarderNsPerFrame, double rttP50Us, double rttP99Us, int rttLost, String loadAverage)
    {
    }

    /**
     * The paced egress at one configured rate.
     *
     * @param target        switchd or switchd-xdp.
     * @param configuredBps the port's line rate.
     * @param run           which of the runs, from 1.
     * @param measuredBps   rate arriving at the receiver, each frame counted with 24 bytes of FCS, preamble and gap.
     * @param offeredBps    rate the generator sent, counted the same way.
     * @param loadAverage   the first three fields of {@code /proc/loadavg} at the end of the measurement.
     * @param backloggedFraction switchd's own view: of the measured interval, the time its departure monitor counted
     *                           the port as backlogged (frames waiting behind each departure; a stall of the
     *                           forwarder ends such a stretch).
     * @param longestStallNs     switchd's forwarder's longest time between two duty cycles while a port held frames.
     * @param ringFullDrops      frames switchd's ingress receive ring dropped, being full.
     */
    public record PacerResult(String target, long configuredBps, int run, double measuredBps, double offeredBps,
        String loadAverage, double backloggedFraction, long longestStallNs, long ringFullDrops)
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
     * @param forwarding per run, target and frame length.
     * @param pacer      per run and configured rate.
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
        resources.build(topology, namespacePrefix());
        try
        {
            softirqThreads = ProcessCpu.softirqThreads().stream().map(ProcessHandle::of)
                .flatMap(Optional::stream).toList();
            final List<ForwardingResult> forwarding = new ArrayList<>();
            final List<PacerResult> pacer = new ArrayList<>();
            for (int run = 1; run <= settings.runs(); run++)
            {
                for (final ForwardingTarget.Kind kind : settings.targets())
                {
                    forwarding.addAll(measureTarget(kind, run));
                }
                for (final long rateBps : settings.pacerRatesBps())
                {
                    for (final ForwardingTarget.Kind kind : settings.pacerTargets())
                    {
                        pacer.add(measurePacer(kind, rateBps, run));
                    }
                }
            }
            return new Report(forwarding, pacer);
        }
        finally
        {
            close();
        }
    }

    private List<ForwardingResult> measureTarget(final ForwardingTarget.Kind kind, final int run) throws IOException
    {
        progress.printf("bench forwarding: run %d, starting %s%n", run, kind.label());
        final boolean generator = ForwardingTarget.Kind.GENERATOR == kind;
        final List<ForwardingResult> results = new ArrayList<>();
        final ForwardingTarget target = track(ForwardingTarget.start(kind, fabric(), 0));
        try
        {
            for (final int frameLength : settings.frameLengths())
            {
                final UdpPingPong.Result rtt = generator ? null : UdpPingPong.run(namespace(sender()),
                    namespace(receiver()), receiver().ipText(), frameLength, settings.rttWarmUps(),
                    settings.rttSamples());
                final Flood flood = flood(frameLength, generator, 0, null);
                final double deliveredPps = flood.delivered().packetsPerSecSince(flood.deliveredBefore());
                final long deliveredFrames = flood.delivered().packets() - flood.deliveredBefore().packets();
                final ForwardingResult result = new ForwardingResult(kind.label(), run, frameLength, deliveredPps,
                    flood.offered().packetsPerSecSince(flood.offeredBefore()),
                    deliveredFrames > 0 ? flood.cpuMicros() * 1e3 / deliveredFrames : Double.NaN,
                    deliveredFrames > 0 ? flood.ownCpuMicros() * 1e3 / deliveredFrames : Double.NaN,
                    (ForwardingTarget.Kind.SWITCHD == kind || ForwardingTarget.Kind.SWITCHD_XDP == kind) &&
                        deliveredFrames > 0 ?
                        (double)flood.forwarderNanos() / deliveredFrames : Double.NaN,
                    null == rtt ? Double.NaN : rtt.micros(50), null == rtt ? Double.NaN : rtt.micros(99),
                    null == rtt ? 0 : rtt.lost(), flood.loadAverage());
                progress.printf("bench forwarding: %-11s %4d B  %,10.0f pps delivered of %,10.0f offered, " +
                    "%,.0f ns CPU per frame (%,.0f ns ours, %,.0f ns switchd's forwarder), round trip p50 %.1f us p99 %.1f us, load %s%n", kind.label(),
                    frameLength, result.deliveredPps(), result.offeredPps(), result.cpuNsPerFrame(),
                    result.ownCpuNsPerFrame(), result.forwarderNsPerFrame(), result.rttP50Us(), result.rttP99Us(), result.loadAverage());
                results.add(result);
            }
        }
        finally
        {
            untrack(target);
        }
        return results;
    }

    private PacerResult measurePacer(final ForwardingTarget.Kind kind, final long rateBps, final int run)
        throws IOException
    {
        progress.printf("bench forwarding: run %d, %s paced at %,d b/s%n", run, kind.label(), rateBps);
        final ForwardingTarget target = track(ForwardingTarget.start(kind, fabric(), rateBps));
        try
        {
            UdpPingPong.run(namespace(sender()), namespace(receiver()), receiver().ipText(), PACER_FRAME_LENGTH,
                settings.rttWarmUps(), 0);
            final PacerProbe probe = new PacerProbe(target, sender().portName(), receiver().portName());
            final Flood flood = flood(PACER_FRAME_LENGTH, false, Math.round(rateBps * PACER_OVERLOAD), probe);
            final PacerProbe.Seen seen = flood.seen();
            final PacerResult result = new PacerResult(kind.label(), rateBps, run,
                flood.delivered().wireBitsPerSecSince(flood.deliveredBefore()),
                flood.offered().wireBitsPerSecSince(flood.offeredBefore()), flood.loadAverage(),
                seen.backloggedFraction(), seen.longestStallNs(), seen.ringFullDrops());
            progress.printf("bench forwarding: %s paced at %,d b/s: %,.0f b/s measured (%.2f%%), %,.0f b/s " +
                "offered, load %s%n", kind.label(), rateBps, result.measuredBps(), 100 * result.ratio(),
                result.offeredBps(), result.loadAverage());
            progress.printf("bench forwarding: %s's port was backlogged %.1f%% of the time; its longest stall with " +
                "frames waiting %,d us; its receive ring dropped %,d frames%n", kind.label(),
                100 * seen.backloggedFraction(), seen.longestStallNs() / 1_000, seen.ringFullDrops());
            return result;
        }
        finally
        {
            untrack(target);
        }
    }

    private record Flood(
        LinkCounters offeredBefore, LinkCounters offered, LinkCounters deliveredBefore, LinkCounters delivered,
        long cpuMicros, long ownCpuMicros, long forwarderNanos, String loadAverage, PacerProbe.Seen seen)
    {
    }

    private Flood flood(
        final int frameLength, final boolean generator, final long offeredBps, final PacerProbe probe)
        throws IOException
    {
        final HostSpec from = sender();
        final HostSpec to = receiver();
        final Trafgen.UdpFrame frame = new Trafgen.UdpFrame(from.macText(), to.macText(), from.ipText(), to.ipText(),
            frameLength);
        final String fromNamespace = namespace(from);
        final String sinkNamespace = generator ? fabric().namespace(from.switchName()) : namespace(to);
        final String sinkInterface = generator ? switchInterface(from) : HOST_INTERFACE;
        final IngressDrop drop = Sink.HOST != settings.sink() ?
            track(IngressDrop.install(sinkNamespace, sinkInterface, Sink.XDP == settings.sink())) : null;
        try
        {
            final AutoCloseable flood = track(startGenerator(fromNamespace, frame, offeredBps));
            try
            {
                sleep(settings.warmUp());
                final long compilingMs = awaitCompiled(settings.compileWait());
                if (compilingMs > 0)
                {
                    progress.printf("bench forwarding: warm-up went on %,d ms longer, while the JIT compiled%n",
                        compilingMs);
                }
                final List<ProcessHandle> ours = List.of(ProcessHandle.current());
                final long ownTicksBefore = ProcessCpu.ticks(ours) + ProcessCpu.ticks(softirqThreads);
                final ProcStat cpuBefore = ProcStat.read();
                final long forwarderBefore = ProcessCpu.threadNanos(FORWARDER_THREAD);
                final long dropsBefore = null != drop && drop.countsDrops() ? drop.drops() : 0;
                final LinkCounters[] before =
                    LinkCounters.transmittedAndReceived(fromNamespace, HOST_INTERFACE, sinkNamespace, sinkInterface);
                if (null != probe)
                {
                    probe.start();
                }
                sleep(settings.measurement());
                final PacerProbe.Seen seen = null == probe ? null : probe.stop();
                final LinkCounters[] after =
                    LinkCounters.transmittedAndReceived(fromNamespace, HOST_INTERFACE, sinkNamespace, sinkInterface);
                final ProcStat cpu = ProcStat.read();
                final long forwarderNanos = ProcessCpu.threadNanos(FORWARDER_THREAD) - forwarderBefore;
                final long ownTicks = ProcessCpu.ticks(ours) + ProcessCpu.ticks(softirqThreads) - ownTicksBefore;
                final LinkCounters offeredBefore = before[0];
                final LinkCounters deliveredBefore = before[1];
                final LinkCounters offered = after[0];
                final LinkCounters delivered = after[1];
                if (flood instanceof XdpGenerator xdp && null != xdp.failure())
                {
                    throw new IOException("the XDP generator stopped: " + xdp.failure());
                }
                if (null != drop && drop.countsDrops())
                {
                    progress.printf("bench forwarding: the sink dropped %,d frames and received %,d in the " +
                        "measured interval (read at slightly different times)%n", drop.drops() - dropsBefore,
                        delivered.packets() - deliveredBefore.packets());
                }
                return new Flood(offeredBefore, offered, deliveredBefore, delivered, cpu.microsSince(cpuBefore, userHz),
                    ownTicks * 1_000_000L / userHz, forwarderNanos, loadAverage(), seen);
            }
            finally
            {
                untrack(flood);
            }
        }
        finally
        {
            if (null != drop)
            {
                untrack(drop);
            }
        }
    }

    /**
     * The configured generator, sending from the sending host's interface.
     */
    private AutoCloseable startGenerator(
        final String fromNamespace, final Trafgen.UdpFrame frame, final long offeredBps) throws IOException
    {
        if (Generator.TRAFGEN == settings.generator())
        {
            return Trafgen.start(fromNamespace, HOST_INTERFACE, frame);
        }
        return XdpGenerator.start(fromNamespace, HOST_INTERFACE, frame, offeredBps,
            fabric().namespace(sender().switchName()), switchInterface(sender()));
    }

    private String switchInterface(final HostSpec host)
    {
        final SwitchSpec sw = topology.switches().get(0);
        for (final PortSpec port : sw.ports())
        {
            if (port.name().equals(host.portName()))
            {
                return port.interfaceName();
            }
        }
        throw new IllegalStateException("no port " + host.portName() + " on " + sw.name());
    }

    /**
     * Flood on past the warm-up while the JIT compiler is still at work (its total compilation time grew in the last
     * {@link #COMPILE_QUIET} of flooding), for at most {@code longestNs}: with the forwarder holding one core and the
     * generator the other, the compiler gets little of either, and a point measured while it compiles is measured on
     * code not yet compiled (a first point in a JVM at 10 Gb/s: 0.77-0.82 of the rate, where later ones gave
     * 0.89-0.90). Where the JVM cannot tell, nothing is waited for.
     *
     * @param longest the longest to go on.
     * @return milliseconds flooded beyond the warm-up while the compiler was at work.
     */
    private static long awaitCompiled(final Duration longest) throws IOException
    {
        final CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
        if (null == compiler || !compiler.isCompilationTimeMonitoringSupported() || longest.isZero())
        {
            return 0;
        }
        final long startNs = System.nanoTime();
        long compiledMs = compiler.getTotalCompilationTime();
        long compilingMs = 0;
        while (System.nanoTime() - startNs < longest.toNanos())
        {
            sleep(COMPILE_QUIET);
            final long nowCompiledMs = compiler.getTotalCompilationTime();
            if (nowCompiledMs == compiledMs)
            {
                break;
            }
            compiledMs = nowCompiledMs;
            compilingMs += COMPILE_QUIET.toMillis();
        }
        return compilingMs;
    }

    private static String loadAverage() throws IOException
    {
        final String[] fields = Files.readString(LOAD_AVERAGE).trim().split("\\s+");
        return fields[0] + " " + fields[1] + " " + fields[2];
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
        return namespacePrefix() + "-" + host.name();
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
