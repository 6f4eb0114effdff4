package io.pfabric.bench.transport;

import io.pfabric.common.os.Commands;
import io.pfabric.common.topology.Topologies;
import io.pfabric.common.topology.Topology;
import io.pfabric.hostd.HostDaemon;
import io.pfabric.hostd.io.PacketIos;
import io.pfabric.hostd.transport.FlowRecord;
import io.pfabric.hostd.transport.TransportConfiguration;
import io.pfabric.hostd.transport.TransportListener;
import io.pfabric.testbed.CongestionControlAllowance;
import io.pfabric.bench.netns.BenchFabric;
import io.pfabric.testbed.NetnsFabric;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * hostd beside the kernel's TCP on one path: a {@code star:2} fabric in network namespaces, switchd with every port
 * paced at the rate under test (or unpaced), and one flow from h1 to h2 carried in turn by each
 * {@link TransportTarget}, and kernel TCP also through the kernel's bridge in place of switchd if
 * {@link Settings#switches()} asks for it ({@link TransportSwitch}). Per target and rate it measures the flow's goodput against the most the line rate allows
 * once every full packet's headers are paid for, the median round trip of one full segment and its answer on the
 * idle path, and the whole machine's CPU time during the flow (from {@code /proc/stat}) per megabyte delivered.
 * <p>
 * Every target gets a fresh switchd with its discipline and the same buffer, and unmeasured warm-up flows of a
 * quarter of the size (for {@link Settings#warmUp()}, at least one) before its round trips and its measured flow, so
 * that the JIT has compiled the hot paths of the first target as well as of the later ones. hostd's window and
 * timeout for the measured flow follow from the measured round trip as the paper derives them (the warm-up flows
 * assume 1 ms). Kernel TCP is the kernel's, with the namespaces' congestion control (the kernel's default unless
 * {@link Settings#tcpCongestionControl()} names one) and no metrics cached between connections, driven from Java NIO
 * blocking socket channels with TCP_NODELAY.
 */
public final class TransportBench implements AutoCloseable
{
    /**
     * Prefix of the benchmark's namespaces; a killed run's leftovers are removed at the next start.
     */
    public static final String PREFIX = "pftbench";

    /**
     * The prefix of the benchmark's namespaces: {@link #PREFIX}, or the system property
     * {@code pfabric.testbed.prefix} with {@code t} appended, so that two users of one machine never remove each
     * other's.
     *
     * @return the prefix.
     */
    public static String namespacePrefix()
    {
        final String own = System.getProperty("pfabric.testbed.prefix");
        return null == own || own.isEmpty() ? PREFIX : own + "t";
    }

    /**
     * pFabric's buffer per switch port, which also caps hostd's window (in 1500-byte packets, less one).
     */
    public static final long DEFAULT_BUFFER_LENGTH = 36_000;

    /**
     * Round trips whose median is reported.
     */
    public static final int DEFAULT_RTT_SAMPLES = 50;

    /**
     * Bytes in the megabyte of {@link Result#cpuMicrosPerMegabyte()}.
     */
    public static final long BYTES_PER_MEGABYTE = 1_000_000;

    private static final int RTT_WARM_UPS = 20;
    private static final long RTT_PATIENCE_NS = TimeUnit.SECONDS.toNanos(1);
    private static final long FLOW_PATIENCE_SECONDS = 600;
    private static final long CLOSED_CHECK_MS = 100;
    private static final long WARM_UP_DIVISOR = 4;
    private static final long HOSTD_PROBE_RTT_NS = 1_000_000;

    private final Settings settings;
    private final PrintStream progress;
    private final Topology topology = Topologies.star(2, "", 0, "droptail");
    private final BenchFabric resources;
    private volatile String kernelTcpCongestionControl;

    /**
     * What to run.
     *
     * @param targets         in the order of the rows, for each rate.
     * @param ratesBitsPerSec line rates of every switch port and hostd's pacer; 0 for unpaced.
     * @param sizeBytes       bytes of the measured flow.
     * @param bufferLength    switch buffer per port in bytes, every discipline; hostd's window cap follows from it.
     * @param rttSamples      round trips measured per target and rate, after 20 unrecorded ones.
     * @param warmUp          how long each target sends unmeasured flows of a quarter of the size first (at least
     *                        one), so that the JIT has compiled its hot paths.
     * @param tcpCongestionControl kernel TCP's congestion control in the hosts' namespaces, such as {@code cubic};
     *                        null for the kernel's default.
     * @param sharedHostThread whether hostd's two hosts run on one thread ({@link HostDaemon#startShared}), as
     *                        {@code pfabric experiment} runs them, rather than on a thread each.
     * @param segmentsPerAck   hostd's {@link TransportConfiguration#segmentsPerAck()}: 1 is pFabric's rule.
     * @param switches         what joins the hosts, each in turn for every target and rate; the bridge carries
     *                         kernel TCP only, hostd's targets run through switchd alone.
     */
    public record Settings(
        List<TransportTarget> targets,
        List<Long> ratesBitsPerSec,
        long sizeBytes,
        long bufferLength,
        int rttSamples,
        Duration warmUp,
        String tcpCongestionControl,
        boolean sharedHostThread,
        int segmentsPerAck,
        List<TransportSwitch> switches)
    {
        /**
         * Warm-up per target: on the development VM it narrowed, though not always closed, the gap between the first
         * hostd row of a run and the later ones (bench/README.md).
         */
        public static final Duration DEFAULT_WARM_UP = Duration.ofSeconds(5);

        /**
         * Validate.
         */
        public Settings
        {
            if (targets.isEmpty() || ratesBitsPerSec.isEmpty() || switches.isEmpty())
            {
                throw new IllegalArgumentException("need at least one target, one rate and one switch");
            }
            if (sizeBytes < 1 || rttSamples < 1 || bufferLength < 2L * TransportConfiguration.FULL_PACKET_WIRE_LENGTH)
            {
                throw new IllegalArgumentException("need a flow of at least a byte, a round trip to measure and a " +
                    "buffer of two 1500-byte packets");
            }
            if (null != tcpCongestionControl && !CongestionControlAllowance.isName(tcpCongestionControl))
            {
                throw new IllegalArgumentException("not a congestion control name: " + tcpCongestionControl);
            }
            if (segmentsPerAck < 1 || segmentsPerAck > TransportConfiguration.MAX_SEGMENTS_PER_ACK)
            {
                throw new IllegalArgumentException("segments per ACK must be 1 to " +
                    TransportConfiguration.MAX_SEGMENTS_PER_ACK + ": " + segmentsPerAck);
            }
            if (warmUp.isNegative())
            {
                throw new IllegalArgumentException("negative warm-up: " + warmUp);
            }
            targets = List.copyOf(targets);
            ratesBitsPerSec = List.copyOf(ratesBitsPerSec);
            switches = List.copyOf(switches);
        }
    }

    /**
     * One target at one rate.
     *
     * @param target               what carried the flow.
     * @param through              what joined the hosts.
     * @param rateBitsPerSec       the line rate; 0 for unpaced.
     * @param sizeBytes            the flow's size.
     * @param goodputBitsPerSec    payload bits over the time from the flow's start until its last byte was
     *                             acknowledged (hostd) or answered (kernel TCP).
     * @param maxGoodputBitsPerSec the line rate less every full packet's headers, preamble and gap; NaN unpaced.
     * @param rttNs                median round trip of one full segment and its answer on the idle path.
     * @param cpuMicrosPerMegabyte the whole machine's busy CPU time during the flow per 10<sup>6</sup> bytes.
     * @param timeouts             timeouts the flow took; 0 for kernel TCP, whose retransmissions are not counted.
     */
    public record Result(
        TransportTarget target,
        TransportSwitch through,
        long rateBitsPerSec,
        long sizeBytes,
        double goodputBitsPerSec,
        double maxGoodputBitsPerSec,
        double rttNs,
        double cpuMicrosPerMegabyte,
        int timeouts)
    {
        /**
         * The row's name: the target's label, with {@code @bridge} appended when the bridge joined the hosts.
         *
         * @return such as {@code kernel-tcp@bridge}.
         */
        public String label()
        {
            return TransportSwitch.SWITCHD == through ? target.label() : target.label() + "@" + through.label();
        }

        /**
         * Goodput over its maximum.
         *
         * @return the ratio; NaN unpaced.
         */
        public double ratioToMax()
        {
            return goodputBitsPerSec / maxGoodputBitsPerSec;
        }
    }

    /**
     * A benchmark, not yet run.
     *
     * @param settings what to run.
     * @param progress where to report each step.
     */
    public TransportBench(final Settings settings, final PrintStream progress)
    {
        this.settings = settings;
        this.progress = progress;
        this.resources = new BenchFabric(progress, "bench transport");
    }

    /**
     * Build the fabric, measure every target at every rate and tear everything down.
     *
     * @return a result per rate and target, rates outermost.
     * @throws IOException if the fabric, a switch, a host or a flow fails.
     */
    public List<Result> run() throws IOException
    {
        resources.build(topology, namespacePrefix());
        try
        {
            if (null != settings.tcpCongestionControl())
            {
                final CongestionControlAllowance allowance =
                    track(CongestionControlAllowance.allow(settings.tcpCongestionControl()));
                if (allowance.changed())
                {
                    progress.printf("bench transport: allowed %s in network namespaces for this run " +
                        "(net.ipv4.tcp_allowed_congestion_control was '%s'; put back at the end)%n",
                        settings.tcpCongestionControl(), allowance.previous());
                }
            }
            for (final String host : List.of("h1", "h2"))
            {
                Commands.inNamespace(fabric().namespace(host), "sysctl", "-qw", "net.ipv4.tcp_no_metrics_save=1");
                if (null != settings.tcpCongestionControl())
                {
                    setCongestionControl(host);
                }
            }
            final long userHz = ProcStat.userHz();
            final List<Result> results = new ArrayList<>();
            for (final long rate : settings.ratesBitsPerSec())
            {
                for (final TransportTarget target : settings.targets())
                {
                    for (final TransportSwitch through : settings.switches())
                    {
                        if (TransportSwitch.SWITCHD == through || !target.isHostd())
                        {
                            results.add(measure(target, through, rate, userHz));
                        }
                    }
                }
            }
            return results;
        }
        finally
        {
            close();
        }
    }

    private Result measure(
        final TransportTarget target, final TransportSwitch through, final long rateBitsPerSec, final long userHz)
        throws IOException
    {
        final String label = TransportSwitch.SWITCHD == through ? target.label() : target.label() + "@" +
            through.label();
        final String ports = String.format("%s ports of %,d bytes", TransportSwitch.SWITCHD == through ?
            target.discipline() : "tbf", settings.bufferLength());
        progress.printf("bench transport: %s at %s, %s%n", label, rateText(rateBitsPerSec),
            TransportSwitch.BRIDGE == through && 0 == rateBitsPerSec ? "bridge ports without a shaper" : ports);
        final AutoCloseable switches = track(through.start(fabric(), rateBitsPerSec, target.discipline(),
            settings.bufferLength()));
        try
        {
            final Result result = target.isHostd() ? measureHostd(target, rateBitsPerSec, userHz) :
                measureKernelTcp(through, rateBitsPerSec, userHz);
            final String ofMax = 0 == rateBitsPerSec ? "" : String.format(" = %.3f of the %,.0f b/s possible",
                result.ratioToMax(), result.maxGoodputBitsPerSec());
            progress.printf("bench transport: %s at %s: goodput %,.0f b/s%s, round trip %.1f us, %.0f us of " +
                "machine CPU per MB, %d timeouts%n", label, rateText(rateBitsPerSec),
                result.goodputBitsPerSec(), ofMax, result.rttNs() / 1e3, result.cpuMicrosPerMegabyte(),
                result.timeouts());
            return result;
        }
        finally
        {
            untrack(switches);
        }
    }

    private Result measureHostd(final TransportTarget target, final long rateBitsPerSec, final long userHz)
        throws IOException
    {
        final List<HostDaemon> hosts = new ArrayList<>();
        try
        {
            final TransportConfiguration initial = configuration(rateBitsPerSec, HOSTD_PROBE_RTT_NS);
            final NetnsFabric fabric = fabric();
            final Function<String, HostDaemon.Options> options = name -> new HostDaemon.Options(initial,
                rateBitsPerSec, PacketIos.wireOverheadLength(target.io()), fabric.namespace(name), false);
            final TransportListener quiet = new TransportListener()
            {
            };
            for (final HostDaemon host : HostDaemon.startAll(topology, List.of("h1", "h2"), options, target.io(),
                name -> quiet, settings.sharedHostThread()))
            {
                hosts.add(track(host));
            }
            progress.printf("bench transport: %s: the two hosts on %s%n", target.label(),
                hosts.get(0).threadId() == hosts.get(1).threadId() ? "one thread" : "a thread each");
            final HostDaemon sender = hosts.get(0);
            final long warmUpEndNs = System.nanoTime() + settings.warmUp().toNanos();
            do
            {
                await(sender.send("h2", warmUpBytes()));
            }
            while (System.nanoTime() - warmUpEndNs < 0);
            final long[] rttsNs = sender.oneSegmentRttsNs("h2", settings.rttSamples(), RTT_PATIENCE_NS);
            final double rttNs = median(rttsNs);
            final TransportConfiguration configuration = configuration(rateBitsPerSec, (long)Math.ceil(rttNs));
            sender.reconfigure(configuration);
            progress.printf("bench transport: %s: round trip median %.1f us of %d (min %.1f), window %d..%d, " +
                "timeout %.1f us%n", target.label(), rttNs / 1e3, rttsNs.length, Arrays.stream(rttsNs).min()
                .orElseThrow() / 1e3, configuration.initialWindowPackets(), configuration.maxWindowPackets(),
                configuration.timeoutNs() / 1e3);
            final long threadCpuBeforeNs = threadCpuNanos(hosts);
            final long packetsBefore = sender.counters().packetsSent();
            final ProcStat before = ProcStat.read();
            final FlowRecord record = await(sender.send("h2", settings.sizeBytes()));
            final ProcStat after = ProcStat.read();
            final long threadCpuNs = threadCpuNanos(hosts) - threadCpuBeforeNs;
            final long packets = sender.counters().packetsSent() - packetsBefore;
            progress.printf("bench transport: %s: %,d data packets, %,d bytes retransmitted; the hosts' " +
                "threads used %.1f us of CPU per data packet, %.0f us per MB%n", target.label(), packets,
                record.retransmittedBytes(), threadCpuNs / 1e3 / Math.max(1, packets),
                threadCpuNs / 1e3 / ((double)settings.sizeBytes() / BYTES_PER_MEGABYTE));
            return result(target, TransportSwitch.SWITCHD, rateBitsPerSec, record.fctNs(), rttNs, after.microsSince(before, userHz),
                record.timeouts());
        }
        finally
        {
            for (final HostDaemon host : hosts)
            {
                untrack(host);
            }
        }
    }

    private static long threadCpuNanos(final List<HostDaemon> hosts)
    {
        final long first = hosts.get(0).threadCpuNanos();
        return hosts.get(0).threadId() == hosts.get(1).threadId() ? first : first + hosts.get(1).threadCpuNanos();
    }

    private Result measureKernelTcp(final TransportSwitch through, final long rateBitsPerSec, final long userHz)
        throws IOException
    {
        final KernelTcpPair pair = track(KernelTcpPair.open(fabric().namespace("h2"),
            topology.host("h2").ipText(), fabric().namespace("h1")));
        try
        {
            final long warmUpEndNs = System.nanoTime() + settings.warmUp().toNanos();
            do
            {
                pair.exchange(warmUpBytes());
            }
            while (System.nanoTime() - warmUpEndNs < 0);
            final long[] rttsNs = pair.roundTripsNs(TransportTarget.Limits.TCP_SEGMENT_LENGTH, RTT_WARM_UPS,
                settings.rttSamples());
            final double rttNs = median(rttsNs);
            kernelTcpCongestionControl = congestionControl();
            progress.printf("bench transport: kernel-tcp%s (Java NIO, TCP_NODELAY, %s): round trip median %.1f " +
                "us of %d (min %.1f)%n", TransportSwitch.SWITCHD == through ? "" : "@" + through.label(),
                kernelTcpCongestionControl, rttNs / 1e3, rttsNs.length,
                Arrays.stream(rttsNs).min().orElseThrow() / 1e3);
            final ProcStat before = ProcStat.read();
            final long elapsedNs = pair.exchange(settings.sizeBytes());
            final ProcStat after = ProcStat.read();
            return result(TransportTarget.KERNEL_TCP, through, rateBitsPerSec, elapsedNs, rttNs,
                after.microsSince(before, userHz), 0);
        }
        finally
        {
            untrack(pair);
        }
    }

    private Result result(
        final TransportTarget target, final TransportSwitch through, final long rateBitsPerSec, final long elapsedNs, final double rttNs,
        final long cpuMicros, final int timeouts)
    {
        final long sizeBytes = settings.sizeBytes();
        return new Result(target, through, rateBitsPerSec, sizeBytes, sizeBytes * 8e9 / elapsedNs,
            target.maxGoodputBitsPerSec(rateBitsPerSec), rttNs,
            cpuMicros / ((double)sizeBytes / BYTES_PER_MEGABYTE), timeouts);
    }

    /**
     * The congestion control kernel TCP used in the hosts' namespaces, as the kernel named it during the run.
     *
     * @return such as {@code bbr}; null if no kernel-tcp row was measured.
     */
    public String kernelTcpCongestionControl()
    {
        return kernelTcpCongestionControl;
    }

    private void setCongestionControl(final String host) throws IOException
    {
        try
        {
            Commands.inNamespace(fabric().namespace(host), "sysctl", "-qw",
                "net.ipv4.tcp_congestion_control=" + settings.tcpCongestionControl());
        }
        catch (final IOException ex)
        {
            throw new IOException("cannot use " + settings.tcpCongestionControl() + " in a namespace: the kernel " +
                "must have it (net.ipv4.tcp_available_congestion_control) (" + ex.getMessage() + ")", ex);
        }
    }

    private String congestionControl()
    {
        try
        {
            return Commands.inNamespace(fabric().namespace("h1"), "sysctl", "-n", "net.ipv4.tcp_congestion_control")
                .trim();
        }
        catch (final IOException ex)
        {
            return "unknown";
        }
    }

    private TransportConfiguration configuration(final long rateBitsPerSec, final long rttNs)
    {
        if (rateBitsPerSec > 0)
        {
            return TransportConfiguration.forFabric(rateBitsPerSec, rttNs, settings.bufferLength())
                .withSegmentsPerAck(settings.segmentsPerAck());
        }
        final int cap = (int)Math.max(1, settings.bufferLength() / TransportConfiguration.FULL_PACKET_WIRE_LENGTH - 1);
        final TransportConfiguration paper = TransportConfiguration.PAPER;
        return new TransportConfiguration(TransportConfiguration.DEFAULT_SEGMENT_LENGTH, cap, cap, 3 * rttNs,
            paper.probeAfterTimeouts(), false, paper.priorityPolicy(), settings.segmentsPerAck());
    }

    private long warmUpBytes()
    {
        return Math.max(1, settings.sizeBytes() / WARM_UP_DIVISOR);
    }

    private FlowRecord await(final CompletableFuture<FlowRecord> flow) throws IOException
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(FLOW_PATIENCE_SECONDS);
        while (true)
        {
            try
            {
                return flow.get(CLOSED_CHECK_MS, TimeUnit.MILLISECONDS);
            }
            catch (final ExecutionException ex)
            {
                throw new IOException("the flow failed: " + ex.getCause().getMessage(), ex.getCause());
            }
            catch (final TimeoutException ex)
            {
                requireOpen();
                if (System.nanoTime() - deadlineNs > 0)
                {
                    throw new IOException("the flow did not finish in " + FLOW_PATIENCE_SECONDS + " s", ex);
                }
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", ex);
            }
        }
    }

    /**
     * The median of some samples: the middle one, or the mean of the two middle ones.
     *
     * @param samples at least one; not changed.
     * @return the median.
     */
    public static double median(final long[] samples)
    {
        final long[] sorted = samples.clone();
        Arrays.sort(sorted);
        final int middle = sorted.length / 2;
        return 1 == sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2.0;
    }

    private static String rateText(final long rateBitsPerSec)
    {
        return 0 == rateBitsPerSec ? "unpaced" : String.format("%,d b/s", rateBitsPerSec);
    }

    private NetnsFabric fabric() throws IOException
    {
        return resources.fabric();
    }

    private <T extends AutoCloseable> T track(final T resource) throws IOException
    {
        return resources.track(resource);
    }

    private void requireOpen() throws IOException
    {
        resources.requireOpen();
    }

    private void untrack(final AutoCloseable resource)
    {
        if (resources.untrack(resource))
        {
            resources.closeQuietly(resource);
        }
    }

    /**
     * Stop every host, connection and switch and remove the namespaces; safe from another thread (a shutdown hook)
     * and more than once.
     */
    public void close()
    {
        resources.close();
    }
}
