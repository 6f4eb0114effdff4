package io.pfabric.cli;

import io.pfabric.analysis.DeadlineReport;
import io.pfabric.common.config.Quantities;
import io.pfabric.hostd.workload.DeadlineSpec;
import io.pfabric.hostd.workload.FlowSizeDistribution;
import io.pfabric.sim.DeadlineExperiment;
import io.pfabric.sim.SimFabric;
import io.pfabric.sim.SimSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code pfabric sim deadlines}: the paper's deadline experiment (Figs 10 and 11), {@link DeadlineExperiment}.
 */
@Command(
    name = "deadlines",
    mixinStandardHelpOptions = true,
    header = "Simulate the paper's deadline runs: deadlines met and the other flows' FCT against the mean deadline.",
    description = {
        "The pFabric paper's §5.4.2: one trace of --workload at --load; for each mean of --means, every flow " +
            "smaller than --below gets a deadline drawn from an exponential distribution of that mean, at least " +
            "1.25 x its minimum FCT on the idle fabric, and every scheme runs the trace: pfabric (deadline-" +
            "agnostic), pfabric-edf (deadlines as priorities, a deadline queue first), tcp, dctcp.",
        "Writes DIR/mean-Nus/ (the trace and each scheme's FCT log, with deadline_ns,deadline_met) per mean, " +
            "DIR/deadlines.csv (" + DeadlineReport.CSV_HEADER + "), DIR/deadlines-other-fct.csv (the flows " +
            "without deadlines: " + DeadlineReport.OTHER_CSV_HEADER + ") and DIR/deadlines.png (Fig 10's and Fig " +
            "11's layout). Deterministic for a seed." })
public final class SimDeadlinesCommand implements Callable<Integer>
{
    @Mixin
    SimOptions options;

    @Option(names = "--means", defaultValue = "100us,300us,1ms,3ms,10ms", split = ",", paramLabel = "D[,D...]",
        description = "Mean deadlines, one run of every scheme each (default: ${DEFAULT-VALUE}).")
    List<String> means;

    @Option(names = "--below", defaultValue = "200KB", paramLabel = "SIZE",
        description = "Flows smaller than this get deadlines (default: ${DEFAULT-VALUE}, the paper's).")
    String below;

    @Option(names = "--load", defaultValue = "0.6", paramLabel = "L",
        description = "Offered load on the host links (default: ${DEFAULT-VALUE}, the paper's).")
    double load;

    @Option(names = "--schemes", defaultValue = "pfabric,pfabric-edf,tcp,dctcp", split = ",", paramLabel = "S[,S...]",
        description = "Of the simulator's schemes (default: ${DEFAULT-VALUE}).")
    List<String> schemes;

    /**
     * {@inheritDoc}
     */
    public Integer call() throws IOException
    {
        if (null == options.out)
        {
            throw new IllegalArgumentException("give --out DIR");
        }
        if (!options.deadlines.isEmpty())
        {
            throw new IllegalArgumentException("--deadlines: sim deadlines draws its own; give --means and --below");
        }
        if (options.isMix())
        {
            throw new IllegalArgumentException("--app: sim deadlines runs one --workload");
        }
        final List<Long> meansNs = new ArrayList<>();
        for (final String mean : means)
        {
            final long meanNs;
            try
            {
                meanNs = Quantities.parseNanos(mean);
            }
            catch (final IllegalArgumentException ex)
            {
                throw new IllegalArgumentException("--means takes durations such as 100us,1ms, not '" + mean + "'", ex);
            }
            if (meanNs <= 0)
            {
                throw new IllegalArgumentException("--means must be positive, not '" + mean + "'");
            }
            meansNs.add(meanNs);
        }
        final long belowBytes;
        try
        {
            belowBytes = Quantities.parseBytes(below);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("--below must be a size such as 200KB, not '" + below + "'", ex);
        }
        if (belowBytes <= 0)
        {
            throw new IllegalArgumentException("--below must be positive");
        }
        final FlowSizeDistribution workload = FlowSizeDistribution.load(options.workload);
        try
        {
            new DeadlineSpec(meansNs.get(0), belowBytes).requireSelectsFrom(workload);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("--below " + below + " selects no flow of " + workload.name() +
                ": none is smaller", ex);
        }
        final SimFabric fabric = options.fabric();
        final SimSettings settings = options.settings(fabric);
        final DeadlineExperiment.Config config = new DeadlineExperiment.Config(fabric, settings,
            workload, load, options.flows, options.seed, belowBytes, meansNs,
            schemes);
        System.err.printf(Locale.ROOT, "sim deadlines: %s%n", settings.describe());
        final List<DeadlineReport.Row> rows = DeadlineExperiment.run(config, options.out, System.err);
        DeadlineReport.print(System.out, rows);
        return 0;
    }
}
