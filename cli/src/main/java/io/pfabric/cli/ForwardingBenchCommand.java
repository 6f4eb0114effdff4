package io.pfabric.cli;

import io.pfabric.bench.forwarding.ForwardingBench;
import io.pfabric.bench.forwarding.ForwardingBench.ForwardingResult;
import io.pfabric.bench.forwarding.ForwardingBench.PacerResult;
import io.pfabric.bench.forwarding.ForwardingTarget;
import io.pfabric.common.topology.Rates;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code pfabric bench forwarding}: switchd against the Linux bridge and Open vSwitch on the same veth fabric.
 */
@Command(
    name = "forwarding",
    mixinStandardHelpOptions = true,
    header = "Benchmark switchd's forwarding against the Linux bridge and Open vSwitch.",
    description = {
        "Builds two hosts and a switch in network namespaces (prefix '" + ForwardingBench.PREFIX + "'), veth pairs " +
            "with offloads off, and runs each target in turn between the hosts, unpaced: switchd on raw-socket " +
            "ports, a kernel bridge, and Open vSwitch with its userspace (netdev) datapath; 'generator' forwards " +
            "nothing and measures trafgen into its own veth pair. For each frame length it measures the round trip of " +
            "a UDP ping-pong on the idle fabric (HdrHistogram, p50 and p99), then floods from one host with trafgen " +
            "or, with --generator xdp, the kernel's XDP live frames, pinned to CPU 0, and reports the frames per second offered and delivered, and the whole machine's CPU " +
            "time (/proc/stat) per delivered frame. The sink (--sink tc, the default) is a tc ingress BPF program that " +
            "drops every frame at the receiving interface, so no target pays for the receiving host's stack; " +
            "--sink xdp drops with an XDP program instead, and --sink host lets the receiving host take every frame " +
            "up its stack. Then it " +
            "paces switchd's egress (--pacer-targets) at each --pacer-rates rate, offers 1500-byte frames above it (trafgen as fast as " +
            "it can, the XDP generator at 1.1 times the rate), and reports the " +
            "rate measured at the sink (frames plus 24 bytes of FCS, preamble and gap) against the configured one, " +
            "with switchd's own account of a shortfall: the share of the time its port was backlogged, its " +
            "forwarder's longest stall with frames waiting, and the frames its receive ring dropped.",
        "Frame lengths are Ethernet frames without FCS (a 60-byte frame is a minimum-size, 64-byte frame on the " +
            "wire). Needs root, trafgen (Debian: netsniff-ng) or a kernel with XDP live frames (5.18 or later) and, " +
            "for ovs, openvswitch-switch. Progress goes to " +
            "stderr, the results to stdout; the namespaces are removed at the end, on Ctrl-C, and at the next start " +
            "after a crash." })
public final class ForwardingBenchCommand implements Callable<Integer>
{
    @Option(names = "--quick", description = "2 s of flooding per point and 2,000 round trips (about 1 minute).")
    boolean quick;

    @Option(names = "--format", defaultValue = "table", paramLabel = "table|csv",
        description = "table (default) or csv: run,target,frame_bytes,sink,generator,offered_pps,delivered_pps," +
            "cpu_ns_per_frame,own_cpu_ns_per_frame,forwarder_ns_per_frame,rtt_p50_us,rtt_p99_us,loadavg_1m; the pacer's figures then go to stderr.")
    String format;

    @Option(names = "--targets", split = ",", defaultValue = "generator,switchd,bridge,ovs", paramLabel = "LIST",
        description = "Comma-separated: generator, switchd, switchd-xdp (switchd on AF_XDP ports), bridge, ovs " +
            "(default: ${DEFAULT-VALUE}); 'none' for " +
            "only the pacer.")
    List<String> targets;

    @Option(names = "--frame-lengths", split = ",", defaultValue = "60,1500", paramLabel = "BYTES",
        description = "Frame lengths without FCS, 60 to 1514 (default: ${DEFAULT-VALUE}).")
    List<Integer> frameLengths;

    @Option(names = "--pacer-rates", split = ",", defaultValue = "100m,1g,10g", paramLabel = "RATES",
        description = "Rates at which to measure the paced egress of each --pacer-targets target (default: " +
            "${DEFAULT-VALUE}); 'none' to skip.")
    List<String> pacerRates;

    @Option(names = "--pacer-targets", split = ",", defaultValue = "switchd", paramLabel = "LIST",
        description = "What is paced at each --pacer-rates rate: switchd, switchd-xdp (switchd on AF_XDP ports), or " +
            "both (default: ${DEFAULT-VALUE}).")
    List<String> pacerTargets;

    @Option(names = "--seconds", paramLabel = "S",
        description = "Seconds of flooding measured per point (default: 10, or 2 with --quick), after 1 s of " +
            "warm-up and for as long after it as the JIT compiler is at work, up to 10 s (3 s with --quick).")
    Integer seconds;

    @Option(names = "--sink", defaultValue = "tc", paramLabel = "tc|xdp|host",
        description = "Where delivered frames end: tc (a tc ingress drop at the receiving interface, the default), " +
            "xdp (an XDP drop there) or host (the receiving host's stack).")
    String sink;

    @Option(names = "--generator", defaultValue = "trafgen", paramLabel = "trafgen|xdp",
        description = "What floods: trafgen (a packet socket, the default) or xdp (the kernel's XDP live-frames " +
            "mode, run by this process on CPU 0: no socket buffer or system call per frame, several times trafgen's " +
            "rate; it turns GRO on at the switch's end of the sender's veth while it runs).")
    String generator;

    @Option(names = "--runs", defaultValue = "1", paramLabel = "N",
        description = "Measure every target, frame length and pacer rate N times, in turn (default: ${DEFAULT-VALUE}).")
    int runs;

    /**
     * {@inheritDoc}
     */
    public Integer call() throws IOException
    {
        final boolean csv = OutputFormats.isCsv(format);
        final List<ForwardingTarget.Kind> kinds = new ArrayList<>();
        if (!(1 == targets.size() && "none".equals(targets.get(0))))
        {
            for (final String target : targets)
            {
                try
                {
                    kinds.add(ForwardingTarget.Kind.byLabel(target));
                }
                catch (final IllegalArgumentException ex)
                {
                    throw new IllegalArgumentException("--targets: " + ex.getMessage(), ex);
                }
            }
        }
        for (final int frameLength : frameLengths)
        {
            if (frameLength < 60 || frameLength > 1514)
            {
                throw new IllegalArgumentException("--frame-lengths must be 60 to 1514 bytes, not " + frameLength);
            }
        }
        final List<Long> rates = new ArrayList<>();
        if (!(1 == pacerRates.size() && "none".equals(pacerRates.get(0))))
        {
            for (final String rate : pacerRates)
            {
                final long bitsPerSec = Rates.parseBitsPerSec(rate);
                if (bitsPerSec <= 0)
                {
                    throw new IllegalArgumentException("--pacer-rates must be positive rates, not '" + rate + "'");
                }
                rates.add(bitsPerSec);
            }
        }
        final List<ForwardingTarget.Kind> pacedKinds = new ArrayList<>();
        for (final String target : pacerTargets)
        {
            ForwardingTarget.Kind kind;
            try
            {
                kind = ForwardingTarget.Kind.byLabel(target);
            }
            catch (final IllegalArgumentException ex)
            {
                kind = null;
            }
            if (ForwardingTarget.Kind.SWITCHD != kind && ForwardingTarget.Kind.SWITCHD_XDP != kind)
            {
                throw new IllegalArgumentException("--pacer-targets: '" + target + "' cannot be paced: use switchd " +
                    "or switchd-xdp");
            }
            pacedKinds.add(kind);
        }
        final int measuredSeconds = null != seconds ? seconds : quick ? 2 : 10;
        if (measuredSeconds < 1 || measuredSeconds > 600)
        {
            throw new IllegalArgumentException("--seconds must be 1 to 600, not " + measuredSeconds);
        }
        if (runs < 1 || runs > 100)
        {
            throw new IllegalArgumentException("--runs must be 1 to 100, not " + runs);
        }
        final ForwardingBench.Sink sinkKind;
        try
        {
            sinkKind = ForwardingBench.Sink.byLabel(sink);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("--sink: " + ex.getMessage(), ex);
        }
        final ForwardingBench.Generator generatorKind;
        try
        {
            generatorKind = ForwardingBench.Generator.byLabel(generator);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("--generator: " + ex.getMessage(), ex);
        }
        if (!"root".equals(System.getProperty("user.name")))
        {
            throw new IllegalStateException("needs root, to make network namespaces and open raw sockets");
        }
        final ForwardingBench.Settings settings = new ForwardingBench.Settings(kinds, frameLengths,
            Duration.ofSeconds(1), Duration.ofSeconds(quick ? 3 : 10), Duration.ofSeconds(measuredSeconds), 200,
            quick ? 2_000 : 20_000, rates, pacedKinds, sinkKind, generatorKind, runs);
        final ForwardingBench bench = new ForwardingBench(settings, System.err);
        final Thread onInterrupt = new Thread(bench::close, "pfabric-bench-cleanup");
        Runtime.getRuntime().addShutdownHook(onInterrupt);
        final ForwardingBench.Report report;
        try
        {
            report = bench.run();
        }
        finally
        {
            Runtime.getRuntime().removeShutdownHook(onInterrupt);
        }
        print(report, sinkKind, generatorKind, csv);
        return 0;
    }

    private static void print(
        final ForwardingBench.Report report, final ForwardingBench.Sink sink, final ForwardingBench.Generator generator,
        final boolean csv)
    {
        final PrintStream out = System.out;
        if (csv)
        {
            out.println("run,target,frame_bytes,sink,generator,offered_pps,delivered_pps,cpu_ns_per_frame,own_cpu_ns_per_frame," +
                "forwarder_ns_per_frame,rtt_p50_us," +
                "rtt_p99_us,loadavg_1m");
            for (final ForwardingResult result : report.forwarding())
            {
                out.printf(Locale.ROOT, "%d,%s,%d,%s,%s,%.0f,%.0f,%.0f,%.0f,%.0f,%.1f,%.1f,%s%n", result.run(), result.target(),
                    result.frameLength(), sink.label(), generator.label(), result.offeredPps(), result.deliveredPps(),
                    result.cpuNsPerFrame(), result.ownCpuNsPerFrame(), result.forwarderNsPerFrame(), result.rttP50Us(),
                    result.rttP99Us(), result.loadAverage().split(" ")[0]);
            }
            printPacer(System.err, report.pacer());
            return;
        }
        out.printf(Locale.ROOT, "sink: %s, generator: %s%n%3s %-11s %11s %13s %13s %9s %12s %12s %12s %10s %10s %8s  %s%n",
            sink.label(), generator.label(), "run", "target", "frame_bytes", "offered_pps", "delivered_pps", "delivered", "cpu_ns/frame",
            "own_ns/frame", "fwd_ns/frame", "rtt_p50_us", "rtt_p99_us", "rtt_lost", "loadavg");
        for (final ForwardingResult result : report.forwarding())
        {
            out.printf(Locale.ROOT, "%3d %-11s %11d %13.0f %13.0f %9.3f %12.0f %12.0f %12.0f %10.1f %10.1f %8d  %s%n",
                result.run(), result.target(), result.frameLength(), result.offeredPps(), result.deliveredPps(),
                result.deliveredPps() / result.offeredPps(), result.cpuNsPerFrame(), result.ownCpuNsPerFrame(),
                result.forwarderNsPerFrame(), result.rttP50Us(),
                result.rttP99Us(), result.rttLost(), result.loadAverage());
        }
        for (final ForwardingResult result : report.forwarding())
        {
            if ("switchd".equals(result.target()) || "switchd-xdp".equals(result.target()))
            {
                for (final ForwardingResult other : report.forwarding())
                {
                    if (!other.target().startsWith("switchd") && other.frameLength() == result.frameLength() &&
                        other.run() == result.run() ||
                        "switchd".equals(result.target()) && "switchd-xdp".equals(other.target()) &&
                        other.frameLength() == result.frameLength() && other.run() == result.run())
                    {
                        out.printf(Locale.ROOT, "run %d, %d bytes: %s delivers %.2fx the frames per second of " +
                            "%s at %.2fx its own CPU per frame%n", result.run(), result.frameLength(), result.target(),
                            result.deliveredPps() / other.deliveredPps(), other.target(),
                            result.ownCpuNsPerFrame() / other.ownCpuNsPerFrame());
                    }
                }
            }
        }
        printPacer(out, report.pacer());
    }

    private static void printPacer(final PrintStream out, final List<PacerResult> results)
    {
        if (results.isEmpty())
        {
            return;
        }
        out.printf(Locale.ROOT, "%n%3s %-11s %-16s %16s %10s %16s %10s %9s %10s  %s%n", "run", "paced",
            "configured_bps", "measured_bps", "ratio", "offered_bps", "backlogged", "stall_us", "ring_drops", "loadavg");
        for (final PacerResult result : results)
        {
            out.printf(Locale.ROOT, "%3d %-11s %-16d %16.0f %10.4f %16.0f %10.4f %9d %10d  %s%n", result.run(),
                result.target(), result.configuredBps(), result.measuredBps(), result.ratio(), result.offeredBps(),
                result.backloggedFraction(), result.longestStallNs() / 1_000, result.ringFullDrops(),
                result.loadAverage());
        }
    }
}
