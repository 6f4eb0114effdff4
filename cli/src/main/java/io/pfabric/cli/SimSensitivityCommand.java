package io.pfabric.cli;

import io.pfabric.hostd.workload.FlowSizeDistribution;
import io.pfabric.sim.SensitivityExperiment;
import io.pfabric.sim.SimFabric;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code pfabric sim sensitivity}: the paper's Fig 12, {@link SensitivityExperiment}.
 */
@Command(
    name = "sensitivity",
    mixinStandardHelpOptions = true,
    header = "Simulate pFabric with buffers of 0.5-5 BDP against timeouts of 2-20 RTT on one trace.",
    description = {
        "The pFabric paper's Fig 12: one trace of --workload at --load (web search at 0.8 by default, the paper's) " +
            "run by pfabric with every queue's buffer each of --buffers bandwidth-delay products against its fixed " +
            "timeout each of --timeouts round trips (R: the fabric's longest base RTT; BDP: the host rate times R); " +
            "the window's cap is the buffer in full packets less one, or the initial window if larger. The overall " +
            "mean and the small flows' 99th percentile of normalized FCT, as one line per timeout against the buffer.",
        "Writes DIR/trace-LOAD.csv, DIR/sensitivity.csv (" + SensitivityExperiment.CSV_HEADER + "), " +
            "DIR/sensitivity.png and each run's FCT log under DIR/runs/. Deterministic for a seed." })
public final class SimSensitivityCommand implements Callable<Integer>
{
    @Mixin
    SimOptions options;

    @Option(names = "--load", defaultValue = "0.8", paramLabel = "L",
        description = "Offered load on the host links (default: ${DEFAULT-VALUE}, the paper's).")
    double load;

    @Option(names = "--buffers", defaultValue = "0.5,1,2,3,5", split = ",", paramLabel = "BDP[,BDP...]",
        description = "Buffers in bandwidth-delay products (default: ${DEFAULT-VALUE}).")
    List<Double> buffers;

    @Option(names = "--timeouts", defaultValue = "2,3,5,10,20", split = ",", paramLabel = "RTT[,RTT...]",
        description = "pFabric's timeouts in round trips (default: ${DEFAULT-VALUE}).")
    List<Double> timeouts;

    /**
     * {@inheritDoc}
     */
    public Integer call() throws IOException
    {
        MicroOptions.requireSingleWorkload(options, "sim sensitivity");
        if (!options.buffer.isEmpty() || !options.timeout.isEmpty() || 0 != options.windowCap)
        {
            throw new IllegalArgumentException("--buffer, --timeout, --window-cap: sim sensitivity sets them from " +
                "--buffers and --timeouts");
        }
        final SimFabric fabric = options.fabric();
        final SensitivityExperiment.Config config = new SensitivityExperiment.Config(fabric, options.settings(fabric),
            FlowSizeDistribution.load(options.workload), load, options.flows, options.seed, buffers, timeouts);
        SensitivityExperiment.print(System.out, SensitivityExperiment.run(config, options.out, System.err));
        return 0;
    }
}
