package io.pfabric.cli;

import io.pfabric.sim.FlowSwitchingExperiment;
import io.pfabric.sim.SimFabric;
import io.pfabric.sim.SimSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.util.concurrent.Callable;

/**
 * {@code pfabric sim flow-switching}: the paper's Fig 5a, {@link FlowSwitchingExperiment}.
 */
@Command(
    name = "flow-switching",
    mixinStandardHelpOptions = true,
    header = "Simulate a few large flows starting together towards one host; each flow's throughput over time.",
    description = {
        "The pFabric paper's Fig 5a on its fabric (144 hosts, 10 Gb/s host links): --flows flows of --size start " +
            "at once from hosts spread over the fabric towards h1. Each flow's throughput into h1 (payload its " +
            "last-hop port sends per --interval) over time, and the last completion against the ideal, every byte " +
            "back to back at 10 Gb/s.",
        "Writes DIR/trace.csv, DIR/fct-SCHEME.csv, DIR/flow-switching.csv (" + FlowSwitchingExperiment.CSV_HEADER +
            "), DIR/flow-switching-summary.csv (" + FlowSwitchingExperiment.SUMMARY_HEADER + ") and " +
            "DIR/flow-switching.png. Deterministic for a seed." })
public final class SimFlowSwitchingCommand implements Callable<Integer>
{
    @Option(names = "--flows", defaultValue = "5", paramLabel = "N",
        description = "Flows, one source host each (default: ${DEFAULT-VALUE}, the paper's).")
    int flows;

    @Option(names = "--size", defaultValue = "20MB", paramLabel = "SIZE",
        description = "Each flow's size (default: ${DEFAULT-VALUE}, the paper's).")
    String size;

    @Option(names = "--interval", defaultValue = "500us", paramLabel = "DURATION",
        description = "The throughput's interval (default: ${DEFAULT-VALUE}).")
    String interval;

    @Option(names = "--scheme", defaultValue = "pfabric", paramLabel = "pfabric|linerate",
        description = "hostd's transport with its window or without (default: ${DEFAULT-VALUE}).")
    String scheme;

    @Mixin
    SeedAndOut run;

    /**
     * {@inheritDoc}
     */
    public Integer call() throws IOException
    {
        final SimFabric fabric = SimFabric.paper();
        final FlowSwitchingExperiment.Config config = new FlowSwitchingExperiment.Config(fabric,
            SimSettings.forFabric(fabric), flows, MicroOptions.bytes("--size", size),
            MicroOptions.nanos("--interval", interval), run.seed, scheme);
        FlowSwitchingExperiment.print(System.out, config, FlowSwitchingExperiment.run(config, run.out, System.err));
        return 0;
    }
}
