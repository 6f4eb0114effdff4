package io.pfabric.bench.cli;

import picocli.CommandLine.Command;

/**
 * {@code pfabric bench}: the micro-benchmarks.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = "Run a benchmark.",
    subcommands = { QueueBenchCommand.class })
public final class BenchCommand
{
}
