package io.pfabric.cli;

import picocli.CommandLine.Command;

/**
 * {@code pfabric bench}: the micro-benchmarks.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    header = "Run a benchmark.",
    description = "Run a benchmark: see the subcommands.",
    subcommands = { QueueBenchCommand.class, ForwardingBenchCommand.class, TransportBenchCommand.class,
        ControllerBenchCommand.class })
public final class BenchCommand
{
}
