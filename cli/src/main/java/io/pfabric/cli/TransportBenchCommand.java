package io.pfabric.cli;

import io.pfabric.bench.transport.TransportBench;
import io.pfabric.bench.transport.TransportBench.Result;
import io.pfabric.bench.transport.TransportSwitch;
import io.pfabric.bench.transport.TransportTarget;
import io.pfabric.common.config.Quantities;
import io.pfabric.common.topology.Rates;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code pfabric bench transport}: hostd and kernel TCP side by side, one flow each through the same switchd path.
 */
@Command(
    name = "transport",
    mixinStandardHelpOptions = true,
    header = "Benchmark hostd beside kernel TCP through the same switchd path.",
    description = {
        "Builds star:2 in network namespaces (prefix '" + TransportBench.PREFIX + "', or the system property " +
            "pfabric.testbed.prefix followed by 't') and, for each rate and " +
            "target, runs switchd with every port paced at that rate (0: unpaced) and one flow from h1 to h2. " +
            "Targets: hostd (hostd over kernel UDP, drop-tail ports), hostd-pfabric (hostd over kernel UDP, pFabric " +
            "ports), hostd-raw (hostd --io raw: IPv4 protocol 253 on packet sockets, drop-tail ports), kernel-tcp " +
            "(the kernel's TCP with cubic or --tcp-cc, driven by a Java NIO sender and " +
            "receiver in the namespaces, TCP_NODELAY, drop-tail ports). Every port has the same --buffer; hostd " +
            "paces at the rate and sets its window and timeout from the measured round trip as the paper derives " +
            "them (unpaced: the window starts at its cap). With --switch switchd,bridge, kernel-tcp also runs " +
            "through the kernel's bridge in place of switchd (row kernel-tcp@bridge), each bridge port shaped " +
            "by tc tbf at the rate (24 B per frame for FCS, preamble and gap, a bucket of two full frames as " +
            "switchd's pacer allows, a queue of --buffer bytes; unpaced: no shaper).",
        "Per row: goodput (payload over the time until the last byte is acknowledged, or for TCP answered), its " +
            "ratio to the most the rate allows once each full packet's headers, preamble and gap are paid for " +
            "(hostd over UDP 1440 B of payload in 1538 B on the wire, raw and TCP 1448 in 1538), the median round " +
            "trip of one full segment and its answer on the idle path (50 after 20 unrecorded), and the whole " +
            "machine's CPU time during the flow from /proc/stat (user, nice, system, irq, softirq, steal) in " +
            "microseconds per 10^6 bytes delivered. Each target first sends unmeasured warm-up flows of a " +
            "quarter of the size for 5 s (at least one), then measures the round trip, then the flow.",
        "Needs root. Progress goes to stderr, results to stdout; the namespaces are removed at the end, on failure, " +
            "on Ctrl-C, and at the next start after a crash." })
public final class TransportBenchCommand implements Callable<Integer>
{
    private static final String DEFAULT_RATES = "100m,1g,10g,0";
    private static final String DEFAULT_SIZE = "200MB";
    private static final String QUICK_RATES = "1g";
    private static final String QUICK_SIZE = "100MB";

    @Option(names = "--quick", description = "Only " + QUICK_RATES + " and a " + QUICK_SIZE + " flow, unless " +
        "--rates or --size say otherwise (the whole run well under 2 minutes).")
    boolean quick;

    @Option(names = "--targets", split = ",", paramLabel = "LIST",
        description = "Comma-separated rows, in order: hostd, hostd-pfabric, hostd-raw, kernel-tcp (default: all).")
    List<String> targets;

    @Option(names = "--rates", split = ",", paramLabel = "RATES",
        description = "Line rates such as 100m or 1g; 0 for unpaced (default: " + DEFAULT_RATES + ", or " +
            QUICK_RATES + " with --quick).")
    List<String> rates;

    @Option(names = "--size", paramLabel = "SIZE",
        description = "The measured flow's size (default: " + DEFAULT_SIZE + ", or " + QUICK_SIZE +
            " with --quick).")
    String size;

    @Option(names = "--buffer", defaultValue = "36000", paramLabel = "BYTES",
        description = "Switch buffer per port, every discipline; hostd's window cap is this in 1500-byte packets " +
            "less one, or the bandwidth-delay product if larger (default: ${DEFAULT-VALUE}, pFabric's).")
    long bufferLength;

    @Option(names = "--tcp-cc", defaultValue = "cubic", paramLabel = "NAME",
        description = "kernel-tcp's congestion control in the hosts' namespaces, added to the host's " +
            "net.ipv4.tcp_allowed_congestion_control for the run if it is not there (default: ${DEFAULT-VALUE}).")
    String tcpCongestionControl;

    @Option(names = "--host-threads", defaultValue = "shared", paramLabel = "shared|per-host",
        description = "shared (default): hostd's two hosts on one thread, as pfabric experiment runs them; " +
            "per-host: a thread each.")
    String hostThreads;

    @Option(names = "--segments-per-ack", defaultValue = "1", paramLabel = "N",
        description = "hostd's ACK rule: 1 (default, pFabric's) acknowledges every data packet at once; N > 1 (an " +
            "option, measured separately) lets an in-order packet's ACK wait until N are owed or the receive batch " +
            "is handled.")
    int segmentsPerAck;

    @Option(names = "--switch", split = ",", defaultValue = "switchd", paramLabel = "LIST",
        description = "What joins the hosts, each in turn: switchd (default), bridge (the kernel's, for kernel-tcp " +
            "only; hostd's targets run through switchd alone), or switchd,bridge for both in one run with their " +
            "ratios.")
    List<String> switches;

    @Option(names = "--format", defaultValue = "table", paramLabel = "table|csv",
        description = "table (default: the columns, then hostd/kernel-tcp ratios) or csv: " +
            "target,rate_bps,goodput_bps,ratio_to_max,rtt_us,cpu_us_per_mb (ratio_to_max empty unpaced; the " +
            "bridge's rows are kernel-tcp@bridge).")
    String format;

    /**
     * {@inheritDoc}
     */
    public Integer call() throws IOException
    {
        final boolean csv = OutputFormats.isCsv(format);
        final List<TransportTarget> rows = new ArrayList<>();
        for (final String target : null == targets ? TransportTarget.labels() : targets)
        {
            rows.add(TransportTarget.byLabel(target.trim()));
        }
        final List<TransportSwitch> throughs = new ArrayList<>();
        for (final String through : switches)
        {
            try
            {
                throughs.add(TransportSwitch.byLabel(through.trim()));
            }
            catch (final IllegalArgumentException ex)
            {
                throw new IllegalArgumentException("--switch: " + ex.getMessage(), ex);
            }
        }
        if (!throughs.contains(TransportSwitch.SWITCHD) && !rows.contains(TransportTarget.KERNEL_TCP))
        {
            throw new IllegalArgumentException("--switch bridge carries kernel-tcp only: add it to --targets");
        }
        final List<Long> bitsPerSec = new ArrayList<>();
        for (final String rate : null != rates ? rates : List.of((quick ? QUICK_RATES : DEFAULT_RATES).split(",")))
        {
            bitsPerSec.add(Rates.parseBitsPerSec(rate.trim()));
        }
        final long sizeBytes = Quantities.parseBytes(null != size ? size : quick ? QUICK_SIZE : DEFAULT_SIZE);
        if (sizeBytes < 1 || sizeBytes > 0xFFFF_FFFFL)
        {
            throw new IllegalArgumentException("--size must be 1 byte to 4 GB");
        }
        if (bufferLength < 3_000)
        {
            throw new IllegalArgumentException("--buffer must hold at least two 1500-byte packets");
        }
        if (!"shared".equals(hostThreads) && !"per-host".equals(hostThreads))
        {
            throw new IllegalArgumentException("--host-threads must be shared or per-host, not '" + hostThreads + "'");
        }
        if (!"root".equals(System.getProperty("user.name")))
        {
            throw new IllegalStateException("needs root, to make network namespaces and open raw sockets");
        }
        final TransportBench bench = new TransportBench(new TransportBench.Settings(rows, bitsPerSec, sizeBytes,
            bufferLength, TransportBench.DEFAULT_RTT_SAMPLES, TransportBench.Settings.DEFAULT_WARM_UP,
            tcpCongestionControl, "shared".equals(hostThreads), segmentsPerAck, throughs), System.err);
        final Thread onInterrupt = new Thread(bench::close, "pfabric-bench-cleanup");
        Runtime.getRuntime().addShutdownHook(onInterrupt);
        final List<Result> results;
        try
        {
            results = bench.run();
        }
        finally
        {
            Runtime.getRuntime().removeShutdownHook(onInterrupt);
        }
        if (csv)
        {
            printCsv(System.out, results);
        }
        else
        {
            printTable(System.out, results, bench.kernelTcpCongestionControl());
        }
        return 0;
    }

    private static void printCsv(final PrintStream out, final List<Result> results)
    {
        out.println("target,rate_bps,goodput_bps,ratio_to_max,rtt_us,cpu_us_per_mb");
        for (final Result result : results)
        {
            out.printf(Locale.ROOT, "%s,%d,%.0f,%s,%.1f,%.0f%n", result.label(), result.rateBitsPerSec(),
                result.goodputBitsPerSec(), 0 == result.rateBitsPerSec() ? "" :
                    String.format(Locale.ROOT, "%.4f", result.ratioToMax()), result.rttNs() / 1e3,
                result.cpuMicrosPerMegabyte());
        }
    }

    private static void printTable(
        final PrintStream out, final List<Result> results, final String tcpCongestionControl)
    {
        out.printf(Locale.ROOT, "%-17s %12s %14s %13s %10s %14s%n", "target", "rate_bps", "goodput_bps",
            "ratio_to_max", "rtt_us", "cpu_us_per_mb");
        for (final Result result : results)
        {
            out.printf(Locale.ROOT, "%-17s %12d %14.0f %13s %10.1f %14.0f%n", result.label(),
                result.rateBitsPerSec(), result.goodputBitsPerSec(), 0 == result.rateBitsPerSec() ? "-" :
                    String.format(Locale.ROOT, "%.4f", result.ratioToMax()), result.rttNs() / 1e3,
                result.cpuMicrosPerMegabyte());
        }
        for (final Result tcp : results)
        {
            if (TransportTarget.KERNEL_TCP != tcp.target() || TransportSwitch.SWITCHD != tcp.through())
            {
                continue;
            }
            for (final Result bridge : results)
            {
                if (TransportSwitch.BRIDGE == bridge.through() && bridge.rateBitsPerSec() == tcp.rateBitsPerSec())
                {
                    out.printf(Locale.ROOT, "kernel-tcp (%s) switchd/bridge at %s: goodput %.2fx, rtt %.2fx, " +
                        "cpu per MB %.2fx%n", tcpCongestionControl, rateText(tcp.rateBitsPerSec()),
                        tcp.goodputBitsPerSec() / bridge.goodputBitsPerSec(), tcp.rttNs() / bridge.rttNs(),
                        tcp.cpuMicrosPerMegabyte() / bridge.cpuMicrosPerMegabyte());
                }
            }
            for (final Result hostd : results)
            {
                if (hostd.target().isHostd() && hostd.rateBitsPerSec() == tcp.rateBitsPerSec())
                {
                    out.printf(Locale.ROOT, "%s/kernel-tcp (%s) at %s: goodput %.2fx, rtt %.2fx, cpu per MB %.2fx%n",
                        hostd.target().label(), tcpCongestionControl, rateText(tcp.rateBitsPerSec()),
                        hostd.goodputBitsPerSec() / tcp.goodputBitsPerSec(), hostd.rttNs() / tcp.rttNs(),
                        hostd.cpuMicrosPerMegabyte() / tcp.cpuMicrosPerMegabyte());
                }
            }
        }
    }

    private static String rateText(final long rateBitsPerSec)
    {
        return 0 == rateBitsPerSec ? "unpaced" : Rates.format(rateBitsPerSec) + "b/s";
    }
}
