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
            "ports, a kernel bridge, and Open vSwitch with its userspace (netdev) datapath. For each frame length " +
            "it measures the round trip of a UDP ping-pong on the idle fabric (HdrHistogram, p50 and p99) and the " +
            "frames per second delivered to the receiving host's interface while trafgen floods from the other " +
            "host, pinned to CPU 0. Then it paces switchd's egress at each --pacer-rates rate, offers 1500-byte " +
            "frames above it, and reports the rate measured at the receiver (frames plus 24 bytes of FCS, preamble " +
            "and gap) against the configured one.",
        "Frame lengths are Ethernet frames without FCS (a 60-byte frame is a minimum-size, 64-byte frame on the " +
            "wire). Needs root, trafgen (Debian: netsniff-ng) and, for ovs, openvswitch-switch. Progress goes to " +
            "stderr, the results to stdout; the namespaces are removed at the end, on Ctrl-C, and at the next start " +
            "after a crash." })
public final class ForwardingBenchCommand implements Callable<Integer>
{
    @Option(names = "--quick", description = "2 s of flooding per point and 2,000 round trips (about 1 minute).")
    boolean quick;

    @Option(names = "--format", defaultValue = "table", paramLabel = "table|csv",
        description = "table (default) or csv: target,frame_bytes,pps,rtt_p50_us,rtt_p99_us; the pacer's figures " +
            "then go to stderr.")
    String format;

    @Option(names = "--targets", split = ",", defaultValue = "switchd,bridge,ovs", paramLabel = "LIST",
        description = "Comma-separated: switchd, bridge, ovs (default: ${DEFAULT-VALUE}); 'none' for only the pacer.")
    List<String> targets;

    @Option(names = "--frame-lengths", split = ",", defaultValue = "60,1500", paramLabel = "BYTES",
        description = "Frame lengths without FCS, 60 to 1514 (default: ${DEFAULT-VALUE}).")
    List<Integer> frameLengths;

    @Option(names = "--pacer-rates", split = ",", defaultValue = "100m,1g,10g", paramLabel = "RATES",
        description = "Rates at which to measure switchd's paced egress (default: ${DEFAULT-VALUE}); 'none' to skip.")
    List<String> pacerRates;

    @Option(names = "--seconds", paramLabel = "S",
        description = "Seconds of flooding measured per point, after 1 s of warm-up (default: 10, or 2 with --quick).")
    Integer seconds;

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
                kinds.add(ForwardingTarget.Kind.byLabel(target));
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
        final int measuredSeconds = null != seconds ? seconds : quick ? 2 : 10;
        if (measuredSeconds < 1 || measuredSeconds > 600)
        {
            throw new IllegalArgumentException("--seconds must be 1 to 600, not " + measuredSeconds);
        }
        if (!"root".equals(System.getProperty("user.name")))
        {
            throw new IllegalStateException("needs root, to make network namespaces and open raw sockets");
        }
        final ForwardingBench.Settings settings = new ForwardingBench.Settings(kinds, frameLengths,
            Duration.ofSeconds(1), Duration.ofSeconds(measuredSeconds), 200, quick ? 2_000 : 20_000, rates);
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
        print(report, csv);
        return 0;
    }

    private static void print(final ForwardingBench.Report report, final boolean csv)
    {
        final PrintStream out = System.out;
        if (csv)
        {
            out.println("target,frame_bytes,pps,rtt_p50_us,rtt_p99_us");
            for (final ForwardingResult result : report.forwarding())
            {
                out.printf(Locale.ROOT, "%s,%d,%.0f,%.1f,%.1f%n", result.target(), result.frameLength(),
                    result.deliveredPps(), result.rttP50Us(), result.rttP99Us());
            }
            printPacer(System.err, report.pacer());
            return;
        }
        out.printf(Locale.ROOT, "%-8s %11s %14s %14s %12s %12s %9s%n", "target", "frame_bytes", "delivered_pps",
            "offered_pps", "rtt_p50_us", "rtt_p99_us", "rtt_lost");
        for (final ForwardingResult result : report.forwarding())
        {
            out.printf(Locale.ROOT, "%-8s %11d %14.0f %14.0f %12.1f %12.1f %9d%n", result.target(),
                result.frameLength(), result.deliveredPps(), result.offeredPps(), result.rttP50Us(),
                result.rttP99Us(), result.rttLost());
        }
        for (final ForwardingResult result : report.forwarding())
        {
            if ("switchd".equals(result.target()))
            {
                for (final ForwardingResult other : report.forwarding())
                {
                    if (!"switchd".equals(other.target()) && other.frameLength() == result.frameLength())
                    {
                        out.printf(Locale.ROOT, "switchd delivers %.2fx the pps of %s at %d bytes%n",
                            result.deliveredPps() / other.deliveredPps(), other.target(), result.frameLength());
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
        out.printf(Locale.ROOT, "%n%-16s %16s %10s %16s%n", "configured_bps", "measured_bps", "ratio", "offered_bps");
        for (final PacerResult result : results)
        {
            out.printf(Locale.ROOT, "%-16d %16.0f %10.4f %16.0f%n", result.configuredBps(), result.measuredBps(),
                result.ratio(), result.offeredBps());
        }
    }
}
