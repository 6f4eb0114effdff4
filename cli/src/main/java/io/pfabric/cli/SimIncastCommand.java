package io.pfabric.cli;

import io.pfabric.sim.IncastExperiment;
import io.pfabric.sim.SimFabric;
import io.pfabric.sim.SimSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code pfabric sim incast}: the paper's Fig 6, {@link IncastExperiment}.
 */
@Command(
    name = "incast",
    mixinStandardHelpOptions = true,
    header = "Simulate a request striped over N senders; request completion time and flow FCT against N.",
    description = {
        "The pFabric paper's Fig 6 on its fabric: h1 requests a file of --size striped over N senders (--size / N " +
            "each, all at once), for each N of --senders and each of --schemes; --requests requests per point, the " +
            "next when one completes, each on an idle fabric with a seed of its own (seed + request), so that one " +
            "request's TCP windows do not carry into the next.",
        "Writes DIR/incast.csv (" + IncastExperiment.CSV_HEADER + "), DIR/incast.png and each request's FCT log " +
            "under DIR/runs/. Deterministic for a seed." })
public final class SimIncastCommand implements Callable<Integer>
{
    @Option(names = "--senders", defaultValue = "1,5,10,20,30,40,50", split = ",", paramLabel = "N[,N...]",
        description = "Numbers of senders (default: ${DEFAULT-VALUE}).")
    List<Integer> senders;

    @Option(names = "--size", defaultValue = "100MB", paramLabel = "SIZE",
        description = "The requested file (default: ${DEFAULT-VALUE}, the paper's).")
    String size;

    @Option(names = "--requests", defaultValue = "10", paramLabel = "N",
        description = "Requests per point (default: ${DEFAULT-VALUE}; the paper ran 10,000).")
    int requests;

    @Option(names = "--schemes", defaultValue = "pfabric,pdq,dctcp,tcp", split = ",", paramLabel = "S[,S...]",
        description = "Of pfabric, pdq, dctcp, tcp (default: ${DEFAULT-VALUE}).")
    List<String> schemes;

    @Mixin
    SeedAndOut run;

    /**
     * {@inheritDoc}
     */
    public Integer call() throws IOException
    {
        final SimFabric fabric = SimFabric.paper();
        final IncastExperiment.Config config = new IncastExperiment.Config(fabric, SimSettings.forFabric(fabric),
            senders, MicroOptions.bytes("--size", size), requests, schemes, run.seed);
        IncastExperiment.print(System.out, IncastExperiment.run(config, run.out, System.err));
        return 0;
    }
}
