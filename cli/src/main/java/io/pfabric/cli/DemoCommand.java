package io.pfabric.cli;

import io.pfabric.experiment.EgressDemo;
import io.pfabric.cli.OutputFormats;
import io.pfabric.experiment.Experiment;
import io.pfabric.experiment.ExperimentSettings;
import io.pfabric.analysis.ResultsTable;
import io.pfabric.common.topology.Rates;
import io.pfabric.common.topology.Topologies;
import io.pfabric.dataplane.queue.DisciplineKind;
import io.pfabric.dataplane.queue.DropReason;
import io.pfabric.dataplane.queue.QueueCounter;
import io.pfabric.dataplane.queue.QueueCounters;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code pfabric demo}: the web-search workload at 60% load on a four-host fabric in network namespaces, through
 * pFabric (switchd and hostd) and through kernel TCP on drop-tail queues, with Ideal for the same trace; without root,
 * on loopback with hostd's transport over drop-tail queues as the baseline.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    header = "pFabric against kernel TCP and Ideal on a real emulated fabric, in about 90 s on 2 cores.",
    description = {
        "As root: builds star:4 in network namespaces with every link paced at 100 Mb/s by switchd, replays the " +
            "same web-search trace at 60%% load once with hostd's pFabric transport on pFabric queues (36,000 B) " +
            "and once with kernel TCP (cubic, minimum RTO lowered to a few base RTTs, pooled connections) on " +
            "drop-tail queues (225,000 B), computes Ideal for the trace, and prints normalized FCT (FCT over the " +
            "best possible on the idle fabric) per size bin. The FCT logs, summary.csv, fct-vs-load.png and " +
            "README.md go to --out. This is 'pfabric experiment' with a small fixed setting.",
        "Without root (no namespaces) it says so and runs on loopback instead: switch ports are VXLAN tunnels on " +
            "127.0.0.1 (UDP ports from " + Experiment.LOOPBACK_FIRST_UDP_PORT + "), kernel TCP cannot be routed " +
            "through the switch, and the baseline becomes hostd's transport over drop-tail queues (scheme " +
            "droptail).",
        "--virtual runs the virtual-time demo instead: the real switch queue classes on one 1 Gb/s egress port, " +
            "one long and several short flows, pfabric against droptail." })
public final class DemoCommand implements Callable<Integer>
{
    private static final long MS = 1_000_000;
    private static final long LIMIT_NS = 10_000 * MS;
    private static final String TOPOLOGY = "star:4";
    private static final long RATE_BITS_PER_SEC = 100_000_000L;

    @Option(names = "--flows", defaultValue = "400", paramLabel = "N",
        description = "Flows in the trace (default: ${DEFAULT-VALUE}).")
    long flows;

    @Option(names = "--load", defaultValue = "0.6", paramLabel = "L",
        description = "Offered load on the access links (default: ${DEFAULT-VALUE}).")
    double load;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "N", description = "Seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--out", paramLabel = "DIR",
        description = "Results directory (default: .pfabric/demo under the project).")
    Path out;

    @Option(names = "--format", defaultValue = "table", paramLabel = "table|csv",
        description = "table (default) or csv: scheme,bin,count,mean,p99 (schemes pfabric, pfabric-sim, tcp or, " +
            "without root, droptail, and ideal).")
    String format;

    @Option(names = "--virtual", description = "Run the virtual-time queue demo instead.")
    boolean virtual;

    @Option(names = "--long-flow", defaultValue = "4000000", paramLabel = "BYTES",
        description = "Virtual-time demo: size of the long flow in bytes (default: ${DEFAULT-VALUE}).")
    long longFlowBytes;

    @Option(names = "--live",
        description = "Show the fabric's switch ports and hosts as 'pfabric top' shows a testbed's, redrawn every " +
            "second on standard output while the demo runs.")
    boolean live;

    /**
     * {@inheritDoc}
     */
    public Integer call() throws IOException
    {
        final boolean csv = OutputFormats.isCsv(format);
        if (virtual)
        {
            return virtualTime();
        }
        final boolean root = "root".equals(System.getProperty("user.name"));
        if (!root)
        {
            System.err.println("pfabric demo: not root, so no network namespaces: the fabric runs on loopback " +
                "(switch ports are VXLAN tunnels on 127.0.0.1), where kernel TCP cannot be routed through the " +
                "switch; the baseline is therefore hostd's transport over drop-tail queues (scheme 'droptail'), " +
                "not kernel TCP. Run as root for kernel TCP.");
        }
        final Path directory = null != out ? out :
            Path.of(System.getProperty("pfabric.home", "."), ".pfabric", "demo");
        final ExperimentSettings settings = new ExperimentSettings(root ? "netns" : "loopback", TOPOLOGY,
            root ? Topologies.star(4, "", RATE_BITS_PER_SEC, "pfabric") :
                Experiment.loopbackStar(4, RATE_BITS_PER_SEC), RATE_BITS_PER_SEC, "websearch", List.of(load),
            List.of("pfabric", root ? "tcp" : "droptail"), flows, seed, directory, "cubic", 0,
            TimeUnit.SECONDS.toNanos(30),
            String.format(Locale.ROOT, "./pfabric demo --flows %d --load %s --seed %d", flows,
                ExperimentSettings.loadLabel(load), seed));
        final Experiment experiment = new Experiment(settings, System.err, TestbedCommand.experimentPrefix())
            .publish(TestbedCommand.pfabricDirectory(), "demo");
        final Experiment.Outcome outcome;
        try (LiveView view = live ? new LiveView(System.out, "demo") : null)
        {
            if (null != view)
            {
                experiment.observe(view);
            }
            outcome = experiment.runStoppingOnSignal("pfabric demo");
        }
        printFabric(System.out, settings, outcome, csv);
        System.err.println("pfabric demo: FCT logs, summary.csv, fct-vs-load.png and README.md in " + directory);
        return 0;
    }

    private static void printFabric(final PrintStream out, final ExperimentSettings settings,
        final Experiment.Outcome outcome, final boolean csv)
    {
        final List<String> order = List.of("pfabric", Experiment.SIMULATED_SCHEME, "tcp", "droptail", "ideal");
        final List<ResultsTable.Line> lines = outcome.lines().stream()
            .sorted(Comparator.comparingInt((ResultsTable.Line line) -> order.indexOf(line.scheme()))
                .thenComparing(line -> line.summary().bin()))
            .toList();
        if (csv)
        {
            ResultsTable.printCsv(out, lines, false);
            return;
        }
        out.printf(Locale.ROOT, "pfabric demo: %s at load %s on %s, every link %s, %,d flows, through switchd %s%n",
            settings.workload(), ExperimentSettings.loadLabel(settings.loads().get(0)),
            settings.topologySpec(), Rates.format(settings.rateBitsPerSec()), settings.flows(),
            "loopback".equals(settings.testbed()) ? "on loopback (VXLAN tunnels)" : "in network namespaces");
        out.println("  pfabric: hostd's transport on pFabric queues; " + outcome.transportSettings());
        out.println("  pfabric-sim: the same transport and queues in the simulator, on the same trace, rates, " +
            "buffers and settings, its links' delays set to the base RTT measured here");
        if (null != outcome.tcpSettings())
        {
            out.println("  tcp:     " + outcome.tcpSettings() + ", on drop-tail queues");
        }
        else
        {
            out.println("  droptail: hostd's transport on drop-tail queues (the switch ignores its priorities): the " +
                "baseline without root, in place of kernel TCP");
        }
        out.println("  ideal:   Algorithm 1 of the paper on the same trace");
        out.printf(Locale.ROOT, "  normalized FCT = FCT / (base RTT %.0f us + (segments - 1) packet times)%n%n",
            outcome.rtts().maxNs() / 1e3);
        out.printf(Locale.ROOT, "%-11s %-7s %6s %8s %8s  %s%n", "scheme", "bin", "count", "mean", "p99", "fidelity");
        for (final ResultsTable.Line line : lines)
        {
            out.printf(Locale.ROOT, "%-11s %-7s %6d %8.2f %8.2f  %s%n", line.scheme(), line.bin(),
                line.summary().count(), line.summary().mean(), line.summary().p99(), outcome.fidelityOf(line));
        }
        out.println();
        out.println("  bins: small (0,100KB], medium (100KB,10MB], large (10MB,inf)");
    }

    private int virtualTime()
    {
        if (longFlowBytes < 1 || longFlowBytes > 1_000_000_000L)
        {
            throw new IllegalArgumentException("--long-flow must be between 1 and 1000000000 bytes");
        }
        final List<EgressDemo.FlowSpec> demoFlows = List.of(
            new EgressDemo.FlowSpec("long", longFlowBytes, 0),
            new EgressDemo.FlowSpec("short-1", 15_000, 2 * MS),
            new EgressDemo.FlowSpec("short-2", 30_000, 4 * MS),
            new EgressDemo.FlowSpec("short-3", 15_000, 6 * MS),
            new EgressDemo.FlowSpec("short-4", 15_000, 6 * MS),
            new EgressDemo.FlowSpec("short-5", 15_000, 6 * MS),
            new EgressDemo.FlowSpec("short-6", 60_000, 8 * MS),
            new EgressDemo.FlowSpec("short-7", 100_000, 10 * MS));

        final EgressDemo.Outcome pfabric = new EgressDemo(DisciplineKind.PFABRIC,
            DisciplineKind.PFABRIC.defaultCapacityLength()).run(demoFlows, LIMIT_NS);
        final EgressDemo.Outcome droptail = new EgressDemo(DisciplineKind.DROPTAIL,
            DisciplineKind.DROPTAIL.defaultCapacityLength()).run(demoFlows, LIMIT_NS);
        final long[] aloneNs = new long[demoFlows.size()];
        for (int i = 0; i < demoFlows.size(); i++)
        {
            final EgressDemo.FlowSpec spec = demoFlows.get(i);
            aloneNs[i] = new EgressDemo(DisciplineKind.PFABRIC, DisciplineKind.PFABRIC.defaultCapacityLength())
                .run(List.of(new EgressDemo.FlowSpec(spec.name(), spec.sizeBytes(), 0)), LIMIT_NS)
                .flows().get(0).fctNs();
        }
        print(System.out, demoFlows, aloneNs, pfabric, droptail);
        return 0;
    }

    private static void print(
        final PrintStream out,
        final List<EgressDemo.FlowSpec> flows,
        final long[] aloneNs,
        final EgressDemo.Outcome pfabric,
        final EgressDemo.Outcome droptail)
    {
        out.println("pfabric demo: the real switch queue classes on one 1 Gb/s egress port, virtual time");
        out.printf(Locale.ROOT, "  senders on 10 Gb/s links, base RTT %.1f us, window %d packets, timeout %.1f us;%n",
            EgressDemo.BASE_RTT_NS / 1e3, EgressDemo.WINDOW_PACKETS, EgressDemo.TIMEOUT_NS / 1e3);
        out.println("  priority = remaining unacknowledged bytes; 'alone' = the flow by itself on the idle port.");
        out.println("  Not a network run: as root, 'pfabric demo' runs switchd and hostd on an emulated fabric.");
        out.println();
        out.printf(Locale.ROOT, "%-8s %10s %9s %11s | %11s %7s %4s | %11s %7s %4s%n",
            "flow", "bytes", "start_ms", "alone_us", "pfabric_us", "x_alone", "rto", "droptail_us", "x_alone", "rto");
        for (int i = 0; i < flows.size(); i++)
        {
            final EgressDemo.FlowSpec spec = flows.get(i);
            final EgressDemo.FlowResult p = pfabric.flows().get(i);
            final EgressDemo.FlowResult d = droptail.flows().get(i);
            out.printf(Locale.ROOT, "%-8s %10d %9.1f %11.1f | %11.1f %7.2f %4d | %11.1f %7.2f %4d%n",
                spec.name(), spec.sizeBytes(), spec.startNs() / 1e6, aloneNs[i] / 1e3,
                p.fctNs() / 1e3, (double)p.fctNs() / aloneNs[i], p.timeouts(),
                d.fctNs() / 1e3, (double)d.fctNs() / aloneNs[i], d.timeouts());
        }
        out.println();
        describeQueue(out, "pfabric ", pfabric);
        describeQueue(out, "droptail", droptail);
    }

    private static void describeQueue(final PrintStream out, final String label, final EgressDemo.Outcome outcome)
    {
        final QueueCounters counters = outcome.queue().counters();
        out.printf(Locale.ROOT,
            "%s buffer %,d B: %,d frames sent, high-water %,d B; dropped: %d arrivals, %d evicted, %d tail%n",
            label, outcome.queue().capacityLength(), counters.get(QueueCounter.DEQUEUED_PACKETS),
            counters.get(QueueCounter.HIGH_WATER_BYTES),
            counters.droppedPackets(DropReason.PRIORITY_DROP_ARRIVAL),
            counters.droppedPackets(DropReason.PRIORITY_EVICTION),
            counters.droppedPackets(DropReason.TAIL_DROP));
    }
}
