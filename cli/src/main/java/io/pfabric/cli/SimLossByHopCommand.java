package io.pfabric.cli;

import io.pfabric.hostd.workload.FlowSizeDistribution;
import io.pfabric.sim.LossByHopExperiment;
import io.pfabric.sim.SimFabric;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code pfabric sim loss-by-hop}: where packets are lost (the paper's Fig 13), {@link LossByHopExperiment}.
 */
@Command(
    name = "loss-by-hop",
    mixinStandardHelpOptions = true,
    header = "Simulate one load and count the data packets lost at the source NIC, the core and the last hop.",
    description = {
        "The pFabric paper's Fig 13: one trace of --workload at --load (web search at 0.8 by default, the paper's), " +
            "run by --scheme; each data packet the hosts send (retransmissions too) is counted in its flow's size " +
            "bin, and each one a queue drops by that queue's place: the source host's NIC, a switch-to-switch port " +
            "(the core) or a switch's port down to a host (the last hop). The loss rate is dropped over sent.",
        "Writes DIR/trace-LOAD.csv, DIR/fct-SCHEME-LOAD.csv, DIR/loss-by-hop.csv (" +
            LossByHopExperiment.CSV_HEADER + ") and DIR/loss-by-hop.png. Deterministic for a seed." })
public final class SimLossByHopCommand implements Callable<Integer>
{
    @Mixin
    SimOptions options;

    @Option(names = "--load", defaultValue = "0.8", paramLabel = "L",
        description = "Offered load on the host links (default: ${DEFAULT-VALUE}, the paper's).")
    double load;

    @Option(names = "--scheme", defaultValue = "pfabric", paramLabel = "pfabric|linerate",
        description = "hostd's transport with its window (pfabric) or without (linerate) (default: ${DEFAULT-VALUE}).")
    String scheme;

    @Option(names = "--bins", defaultValue = "10KB,100KB,1MB,10MB", split = ",", paramLabel = "SIZE[,SIZE...]",
        description = "Upper edges of the flow-size bins but the last, increasing (default: ${DEFAULT-VALUE}).")
    List<String> bins;

    /**
     * {@inheritDoc}
     */
    public Integer call() throws IOException
    {
        MicroOptions.requireSingleWorkload(options, "sim loss-by-hop");
        final List<Long> edges = new ArrayList<>();
        for (final String bin : bins)
        {
            edges.add(MicroOptions.bytes("--bins", bin));
        }
        final SimFabric fabric = options.fabric();
        final LossByHopExperiment.Config config = new LossByHopExperiment.Config(fabric, options.settings(fabric),
            FlowSizeDistribution.load(options.workload), load, options.flows, options.seed, scheme, edges);
        LossByHopExperiment.print(System.out, LossByHopExperiment.run(config, options.out, System.err));
        return 0;
    }
}
