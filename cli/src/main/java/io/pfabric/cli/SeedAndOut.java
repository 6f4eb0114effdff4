package io.pfabric.cli;

import picocli.CommandLine.Option;

import java.nio.file.Path;

/**
 * The options every micro-experiment on the paper's fabric takes: the seed of its spraying and its results directory.
 */
final class SeedAndOut
{
    @Option(names = "--seed", defaultValue = "1", paramLabel = "N", description = "Seed of the spraying (default: " +
        "${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Results directory.")
    Path out;
}
