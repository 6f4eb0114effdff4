package io.pfabric.cli;

import io.pfabric.sim.PdqSanityExperiment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code pfabric sim pdq-sanity}: PDQ in the PDQ paper's own deadline setting, {@link PdqSanityExperiment}.
 */
@Command(
    name = "pdq-sanity",
    mixinStandardHelpOptions = true,
    header = "Simulate PDQ's variants and TCP in the PDQ paper's deadline setting; application throughput by load.",
    description = "The PDQ paper's §5.1: a 17-node single-rooted tree at 1 Gb/s (leafspine:4x3x1, 25.1 us per " +
        "link), deadline flows of U[2 KB, 198 KB] with Exp(20 ms) deadlines of at least 3 ms, Poisson arrivals to " +
        "uniformly random hosts, the load offered to the top-of-rack uplinks (3:1 oversubscribed). Writes DIR/pdq-sanity.csv (scheme,load,flows,met,fraction_met,terminated), the " +
        "traces and the FCT logs. Deterministic for a seed.")
public final class SimPdqSanityCommand implements Callable<Integer>
{
    @Option(names = "--loads", defaultValue = "0.2,0.4,0.6,0.8", split = ",", paramLabel = "L[,L...]",
        description = "Loads on the top-of-rack uplinks, the tree's bottleneck (default: ${DEFAULT-VALUE}).")
    List<Double> loads;

    @Option(names = "--flows", defaultValue = "5000", paramLabel = "N",
        description = "Flows per load (default: ${DEFAULT-VALUE}).")
    int flows;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "N", description = "Seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--schemes", defaultValue = "pdq-basic,pdq-es,pdq-es-et,pdq-full,tcp", split = ",",
        paramLabel = "S[,S...]", description = "Of the simulator's schemes (default: ${DEFAULT-VALUE}).")
    List<String> schemes;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Results directory.")
    Path out;

    /**
     * {@inheritDoc}
     */
    public Integer call() throws IOException
    {
        for (final PdqSanityExperiment.Point point : PdqSanityExperiment.run(out, loads, flows, seed, schemes,
            System.err))
        {
            System.out.printf(java.util.Locale.ROOT, "%-10s load %.2f: %d of %d deadlines met (%.4f)%n",
                point.scheme(), point.load(), point.met(), point.flows(), point.fractionMet());
        }
        return 0;
    }
}
