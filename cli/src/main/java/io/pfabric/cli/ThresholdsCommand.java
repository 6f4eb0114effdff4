package io.pfabric.cli;

import io.pfabric.analysis.StrictQueueModelReport;
import io.pfabric.hostd.workload.FlowSizeDistribution;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code pfabric thresholds}: the thresholds of pFabric on strict-priority queues from the paper's §6.1 model.
 */
@Command(
    name = "thresholds",
    mixinStandardHelpOptions = true,
    header = "Compute strict-priority thresholds and their predicted FCT from the pFabric paper's M/G/1 model.",
    description = "Models one link as an M/G/1 queue with preemptive priority classes (Pollaczek-Khintchine), flows " +
        "arriving as a Poisson process with the workload's exact size distribution, a packet's queue chosen by its " +
        "flow's remaining size against the thresholds; prints the thresholds that minimize the mean normalized FCT " +
        "(or an equal split of the flow-size range) and the FCT the model predicts. These are the thresholds " +
        "'strict:N' takes in the simulator. With --figures, writes the paper's Figs 15 and 16 from the model instead.")
public final class ThresholdsCommand implements Callable<Integer>
{
    @Option(names = "--workload", defaultValue = "websearch", paramLabel = "W",
        description = "websearch, datamining or a CDF file (default: ${DEFAULT-VALUE}).")
    String workload;

    @Option(names = "--load", defaultValue = "0.6", paramLabel = "L",
        description = "Offered load, at least 0 and below 1 (default: ${DEFAULT-VALUE}).")
    double load;

    @Option(names = "--queues", defaultValue = "2", paramLabel = "N",
        description = "Strict-priority queues, 1 to 8 (default: ${DEFAULT-VALUE}).")
    int queues;

    @Option(names = "--split", defaultValue = "model", paramLabel = "model|equal",
        description = "model (the thresholds that minimize the predicted FCT) or equal (the flow-size range split " +
            "equally) (default: ${DEFAULT-VALUE}).")
    String split;

    @Option(names = "--format", defaultValue = "table", paramLabel = "table|csv",
        description = "table (default) or csv.")
    String format;

    @Option(names = "--figures", paramLabel = "DIR",
        description = "Write Figs 15 and 16 of the model (CSV and PNG) for the workload into DIR.")
    Path figures;

    /**
     * {@inheritDoc}
     */
    public Integer call() throws IOException
    {
        if (!(load >= 0 && load < 1))
        {
            throw new IllegalArgumentException("--load must be at least 0 and below 1, not " + load);
        }
        if (queues < 1 || queues > 8)
        {
            throw new IllegalArgumentException("--queues must be 1 to 8, not " + queues);
        }
        if (!"model".equals(split) && !"equal".equals(split))
        {
            throw new IllegalArgumentException("--split must be model or equal, not '" + split + "'");
        }
        final boolean csv = OutputFormats.isCsv(format);
        final FlowSizeDistribution sizes;
        try
        {
            sizes = FlowSizeDistribution.load(workload);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("--workload: " + ex.getMessage());
        }
        if (null != figures)
        {
            StrictQueueModelReport.writeFigures(sizes, figures);
            System.err.println("pfabric thresholds: Figs 15 and 16 of the model for " + sizes.name() + " in " +
                figures);
            return 0;
        }
        System.out.print(StrictQueueModelReport.describe(sizes, load, queues, "equal".equals(split), csv));
        return 0;
    }
}
