package io.pfabric.cli;

import io.pfabric.common.config.Quantities;
import io.pfabric.common.topology.TopologyArgument;
import io.pfabric.testbed.PfabricJvm;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code pfabric soak}: a long run of a workload on a namespace fabric, watching every daemon for growth.
 */
@Command(
    name = "soak",
    mixinStandardHelpOptions = true,
    header = "Run a workload on a namespace fabric for a long time and say whether any daemon grew.",
    description = {
        "Builds the fabric in network namespaces (prefix pfsoak-), runs its switches in one process and hostd for " +
            "every host in its own process (each with the heap of --max-heap), the workload at the load for " +
            "--duration. Every --sample-interval it reads each process's resident memory and open descriptors " +
            "from /proc and its heap after the last collection, threads and counters from its --counters-file. " +
            "When every host's flows are done it stops the hosts, then the switches, with SIGTERM, and checks: " +
            "every process wrote its final counters; every switch's frames received = transmitted + dropped by " +
            "reason + still queued, and every link's frames sent = received + dropped by the receiving ring; " +
            "every flow of the trace completed, and every flow the hosts started was completed and delivered " +
            "exactly once (their counters); heap after GC, RSS, descriptors and threads grew by no more than " +
            "their bounds from the sample at a third of the run to the last.",
        "Writes to --out: samples.csv, summary.md, every process's log and counters file, the FCT logs. Exits " +
            "with 0 if all checks pass, 1 if one fails. Needs root." })
public final class SoakCommand implements Callable<Integer>
{
    @Option(names = "--topo", defaultValue = "leafspine:2x2x2", paramLabel = "SPEC|FILE",
        description = "star:N, leafspine:LxHxS, fattree:K (default: ${DEFAULT-VALUE}), or a topology file (YAML or " +
            "JSON, docs/topology.md) whose ports all run at one rate and keep their own disciplines.")
    String topo;

    @Option(names = "--rate", paramLabel = "RATE",
        description = "Rate of every link of a shape (default: 100m); a topology file gives its own.")
    String rate;

    @Option(names = "--workload", defaultValue = "websearch", paramLabel = "NAME|FILE",
        description = "websearch, datamining or a CDF file (default: ${DEFAULT-VALUE}).")
    String workload;

    @Option(names = "--load", defaultValue = "0.8", paramLabel = "L",
        description = "Offered load per host link (default: ${DEFAULT-VALUE}).")
    double load;

    @Option(names = "--duration", defaultValue = "30m", paramLabel = "DURATION",
        description = "How long flows start, e.g. 3m, 30m, 2h (default: ${DEFAULT-VALUE}).")
    String duration;

    @Option(names = "--sample-interval", defaultValue = "1m", paramLabel = "DURATION",
        description = "Time between samples (default: ${DEFAULT-VALUE}).")
    String sampleInterval;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "N", description = "Trace seed (default: 1).")
    long seed;

    @Option(names = "--max-heap", defaultValue = "128m", paramLabel = "SIZE",
        description = "Every daemon's heap, -Xms and -Xmx, touched at start so that RSS growth is growth outside " +
            "the heap (default: ${DEFAULT-VALUE}).")
    String maxHeap;

    @Option(names = "--grace", defaultValue = "2m", paramLabel = "DURATION",
        description = "How long a host waits for its flows in flight after its last start: at a high load, " +
            "pFabric finishes the largest flows last (default: ${DEFAULT-VALUE}).")
    String grace;

    @Option(names = "--heap-bound", defaultValue = "16MB", paramLabel = "BYTES",
        description = "Most growth of a process's heap after GC that counts as flat (default: ${DEFAULT-VALUE}).")
    String heapBound;

    @Option(names = "--rss-bound", defaultValue = "64MB", paramLabel = "BYTES",
        description = "Most growth of a process's resident memory that counts as flat (default: ${DEFAULT-VALUE}).")
    String rssBound;

    @Option(names = "--fd-bound", defaultValue = "8", paramLabel = "N",
        description = "Most growth of a process's open descriptors that counts as flat (default: ${DEFAULT-VALUE}).")
    long fdBound;

    @Option(names = "--thread-bound", defaultValue = "4", paramLabel = "N",
        description = "Most growth of a process's live threads that counts as flat (default: ${DEFAULT-VALUE}).")
    long threadBound;

    @Option(names = "--kill-switches-at", paramLabel = "DURATION",
        description = "Kill the switches' process with SIGKILL this long into the run and start a new one 1 s later.")
    String killSwitchesAt;

    @Option(names = "--live",
        description = "Show every switch port and host as 'pfabric top' does, redrawn every second on standard " +
            "output; every process then also serves --metrics on a free loopback port.")
    boolean live;

    @Option(names = "--out", defaultValue = ".pfabric/soak", paramLabel = "DIR",
        description = "Output directory (default: ${DEFAULT-VALUE}).")
    Path out;

    /**
     * {@inheritDoc}
     */
    public Integer call() throws Exception
    {
        final long durationNs = Quantities.parseNanos(duration);
        final long intervalNs = Quantities.parseNanos(sampleInterval);
        if (durationNs <= 0 || intervalNs <= 0)
        {
            throw new IllegalArgumentException("--duration and --sample-interval must be positive");
        }
        Quantities.requireLoad("--load", load);
        final TopologyArgument fabric = TopologyArgument.parse(topo, rate, "100m", "pfabric");
        final Soak.Settings settings = new Soak.Settings(topo, fabric.rateBitsPerSec(), workload, load,
            durationNs, intervalNs, seed, maxHeap, Quantities.parseNanos(grace), Quantities.parseBytes(heapBound), Quantities.parseBytes(rssBound),
            fdBound, threadBound, out.toAbsolutePath(), "pfsoak",
            null == killSwitchesAt ? 0 : Quantities.parseNanos(killSwitchesAt));
        if (!"root".equals(System.getProperty("user.name")))
        {
            throw new IllegalStateException("needs root, to make network namespaces");
        }
        final Soak.Result result = Soak.run(settings, PfabricJvm.command(), System.err, live ? System.out : null,
            TestbedCommand.pfabricDirectory());
        System.out.print(Soak.summary(result, settings));
        return result.passed() ? 0 : 1;
    }
}
