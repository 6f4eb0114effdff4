package io.pfabric.cli;

import io.pfabric.hostd.transport.PriorityPolicy;
import io.pfabric.hostd.workload.FlowSizeDistribution;
import io.pfabric.sim.PriorityExperiment;
import io.pfabric.sim.SimFabric;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code pfabric sim priority}: what pFabric's priority number should say (the paper's Fig 14),
 * {@link PriorityExperiment}.
 */
@Command(
    name = "priority",
    mixinStandardHelpOptions = true,
    header = "Simulate pFabric with priority = bytes sent, flow size or remaining size, beside PDQ and Ideal.",
    description = {
        "The pFabric paper's Fig 14: at each of --loads one trace of --workload, run by pfabric with each priority " +
            "of --priorities (bytes-sent: the bytes the flow has sent; size: the flow's size; remaining: its " +
            "remaining size, the default policy) and by each of --baselines; the overall mean normalized FCT " +
            "against load.",
        "Writes DIR/trace-LOAD.csv, DIR/fct-SCHEME-LOAD.csv (pfabric's runs named pfabric-POLICY), " +
            "DIR/summary.csv (every bin), DIR/priority.csv (" + PriorityExperiment.CSV_HEADER + ") and " +
            "DIR/priority.png. Deterministic for a seed." })
public final class SimPriorityCommand implements Callable<Integer>
{
    @Mixin
    SimOptions options;

    @Option(names = "--loads", defaultValue = "0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8", split = ",", paramLabel = "L[,L...]",
        description = "Loads (default: ${DEFAULT-VALUE}).")
    List<Double> loads;

    @Option(names = "--priorities", defaultValue = "bytes-sent,size,remaining", split = ",",
        paramLabel = "P[,P...]", description = "pfabric's priorities, each a run (default: ${DEFAULT-VALUE}).")
    List<String> priorities;

    @Option(names = "--baselines", defaultValue = "pdq,ideal", split = ",", paramLabel = "S[,S...]",
        description = "pdq, ideal, both, or 'none' (default: ${DEFAULT-VALUE}).")
    List<String> baselines;

    /**
     * {@inheritDoc}
     */
    public Integer call() throws IOException
    {
        MicroOptions.requireSingleWorkload(options, "sim priority");
        if (!"remaining".equals(options.priority))
        {
            throw new IllegalArgumentException("--priority: sim priority runs each of --priorities");
        }
        final List<PriorityPolicy> policies = new ArrayList<>();
        for (final String priority : priorities)
        {
            policies.add(PriorityPolicy.byName("--priorities", priority));
        }
        final List<String> others = List.of("none").equals(baselines) ? List.of() : baselines;
        final SimFabric fabric = options.fabric();
        final PriorityExperiment.Config config = new PriorityExperiment.Config(fabric, options.settings(fabric),
            FlowSizeDistribution.load(options.workload), loads, options.flows, options.seed, policies, others);
        PriorityExperiment.print(System.out, PriorityExperiment.run(config, options.out, System.err));
        return 0;
    }
}
