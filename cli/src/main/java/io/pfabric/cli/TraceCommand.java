package io.pfabric.cli;

import io.pfabric.common.config.Quantities;
import io.pfabric.common.topology.Rates;
import io.pfabric.hostd.workload.DeadlineSpec;
import io.pfabric.hostd.workload.FlowSizeDistribution;
import io.pfabric.hostd.workload.TraceFile;
import io.pfabric.hostd.workload.WorkloadTrace;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code pfabric trace}: write a workload's flow trace to a file.
 */
@Command(
    name = "trace",
    mixinStandardHelpOptions = true,
    header = "Write a workload's flow trace (the flows every scheme and Ideal replay).",
    description = "Draws the flows of a workload among hosts h1..hN as 'pfabric hostd --workload' does (Poisson " +
        "arrivals per host at load x rate / (mean packets x 1500 x 8), uniformly random other hosts, sizes from " +
        "the CDF in 1460-byte packets) and writes flow_id,src,dst,size_bytes,start_ns, in order of start; with " +
        "--deadlines, a last column deadline_ns.")
public final class TraceCommand implements Callable<Integer>
{
    @Option(names = "--workload", required = true, paramLabel = "NAME|FILE",
        description = "websearch, datamining or a CDF file.")
    String workload;

    @Option(names = "--hosts", required = true, paramLabel = "N", description = "Hosts h1..hN, at least 2.")
    int hosts;

    @Option(names = "--rate", required = true, paramLabel = "RATE", description = "Access link rate, e.g. 1g.")
    String rate;

    @Option(names = "--load", defaultValue = "0.6", paramLabel = "L", description = "Load (default: ${DEFAULT-VALUE}).")
    double load;

    @Option(names = "--flows", defaultValue = "0", paramLabel = "N", description = "The first N flows.")
    long flows;

    @Option(names = "--duration", paramLabel = "DURATION", description = "Or: flows starting within this, e.g. 10s.")
    String duration;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "N", description = "Seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--deadlines", paramLabel = "exp:MEAN[,below=SIZE]",
        description = "Give every flow smaller than SIZE (default 200KB) a deadline drawn from an exponential " +
            "distribution of mean MEAN, at least 1.25 x its minimum FCT on the idle fabric (--base-rtt, then its " +
            "further segments at --rate); written as a deadline_ns column.")
    String deadlines;

    @Option(names = "--base-rtt", defaultValue = "14.68us", paramLabel = "DURATION",
        description = "With --deadlines: the fabric's base RTT, of one full segment and its ACK (default: " +
            "${DEFAULT-VALUE}, across the paper's fabric).")
    String baseRtt;

    @Option(names = "--out", defaultValue = "trace.csv", paramLabel = "FILE",
        description = "Where to write it (default: ${DEFAULT-VALUE}).")
    Path out;

    /**
     * {@inheritDoc}
     */
    public Integer call() throws IOException
    {
        if (hosts < 2)
        {
            throw new IllegalArgumentException("--hosts must be at least 2");
        }
        final long rateBitsPerSec = Rates.parseBitsPerSec(rate);
        if (rateBitsPerSec <= 0)
        {
            throw new IllegalArgumentException("--rate must be positive");
        }
        final long durationNs = null == duration ? 0 : Quantities.parseNanos(duration);
        if (flows <= 0 && durationNs <= 0)
        {
            throw new IllegalArgumentException("give --flows or --duration");
        }
        final FlowSizeDistribution distribution = FlowSizeDistribution.load(workload);
        final DeadlineSpec spec = null == deadlines ? null : DeadlineSpec.parse(deadlines)
            .requireSelectsFrom(distribution);
        final long baseRttNs = Quantities.parseNanos(baseRtt);
        if (baseRttNs <= 0)
        {
            throw new IllegalArgumentException("--base-rtt must be positive");
        }
        final List<WorkloadTrace.FlowSpec> generated = WorkloadTrace.generate(hosts, load, rateBitsPerSec,
            distribution, seed, flows, durationNs);
        final List<WorkloadTrace.FlowSpec> trace = null == spec ? generated : spec.apply(generated,
            (source, destination) -> baseRttNs, rateBitsPerSec, FlowSizeDistribution.SEGMENT_WIRE_BYTES, seed);
        final List<String> names = new ArrayList<>();
        for (int i = 1; i <= hosts; i++)
        {
            names.add("h" + i);
        }
        TraceFile.write(out, trace, names);
        final double lastStartS = trace.isEmpty() ? 0 : trace.get(trace.size() - 1).startNs() / 1e9;
        System.err.printf(Locale.ROOT, "pfabric trace: %,d flows of %s among %d hosts at load %.2f over %.3f s " +
            "written to %s%n", trace.size(), workload, hosts, load, lastStartS, out);
        return 0;
    }
}
