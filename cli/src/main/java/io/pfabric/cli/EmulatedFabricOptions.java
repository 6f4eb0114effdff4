package io.pfabric.cli;

import picocli.CommandLine.Option;

/**
 * The shape and link rate of an emulated fabric, shared by {@code pfabric experiment} and
 * {@code pfabric experiment classes}.
 */
final class EmulatedFabricOptions
{
    @Option(names = "--topo", defaultValue = "star:4", paramLabel = "SPEC",
        description = "star:N, leafspine:LxHxS or fattree:K (default: ${DEFAULT-VALUE}).")
    String topo;

    @Option(names = "--rate", defaultValue = "100m", paramLabel = "RATE",
        description = "Rate of every link (default: ${DEFAULT-VALUE}); a 2-core machine keeps up with 100m, not " +
            "with 1g.")
    String rate;
}
