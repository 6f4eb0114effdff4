package io.pfabric.cli;

import io.pfabric.cli.DemoCommand;
import io.pfabric.common.packet.PacketSocketException;
import io.pfabric.common.topology.TopologyException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.concurrent.Callable;

/**
 * The {@code pfabric} command line, dispatched by the {@code ./pfabric} launcher.
 */
@Command(
    name = "pfabric",
    mixinStandardHelpOptions = true,
    version = "pfabric 0.1.0",
    description = "pfabric: pFabric's switch queues and transport as a userspace datacenter dataplane.",
    subcommands = {
        DemoCommand.class, SwitchdCommand.class, SwitchctlCommand.class, HostdCommand.class, ControllerdCommand.class, SendCommand.class,
        RecvCommand.class, TcpdCommand.class, TestbedCommand.class, MonitorCommand.class, TopCommand.class, TraceCommand.class, IdealCommand.class,
        ThresholdsCommand.class, CombineCommand.class, ReproduceCommand.class,
        AnalyzeCommand.class, ExperimentCommand.class, SimCommand.class, SoakCommand.class,
        BenchCommand.class,
        CommandLine.HelpCommand.class },
    footerHeading = "%nAlso:%n",
    footer = {
        "  setup  Install the Debian tools that fabrics, experiments and tests run",
        "         (as root; the commands that need them do this on first use).",
        "  test   Install what the tests need (Debian packages, as root) and run",
        "         the whole test suite with Maven.",
        "  fuzz   Fuzz the parsers of outside input with Jazzer for a given time",
        "         (--seconds N, --target T, --list; the corpus is in fuzz/).",
        "(setup, test and fuzz are done by the ./pfabric launcher.)",
        "",
        "Run './pfabric COMMAND --help' for a command's options."
    })
public final class PfabricCommand implements Callable<Integer>
{
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /**
     * Without a subcommand, print the usage to standard error and fail: there was nothing to do.
     *
     * @return 2.
     */
    public Integer call()
    {
        spec.commandLine().usage(System.err);
        return 2;
    }

    /**
     * Run the command line and exit with its status.
     *
     * @param args command-line arguments.
     */
    public static void main(final String[] args)
    {
        System.exit(commandLine().execute(args));
    }

    /**
     * The command line as {@link #main} runs it: bad input is a one-line error and status 2, an I/O failure one line
     * and status 1.
     *
     * @return the command line.
     */
    public static CommandLine commandLine()
    {
        return new CommandLine(new PfabricCommand())
            .setExecutionExceptionHandler((exception, cmd, parseResult) ->
            {
                if (exception instanceof IllegalArgumentException || exception instanceof IllegalStateException ||
                    exception instanceof TopologyException)
                {
                    cmd.getErr().println(cmd.getCommandSpec().qualifiedName() + ": " + exception.getMessage());
                    return 2;
                }
                if (exception instanceof NoSuchFileException missing)
                {
                    cmd.getErr().println(cmd.getCommandSpec().qualifiedName() + ": " + missing.getFile() +
                        ": no such file");
                    return 2;
                }
                if (exception instanceof AccessDeniedException denied)
                {
                    cmd.getErr().println(cmd.getCommandSpec().qualifiedName() + ": " + denied.getFile() +
                        ": permission denied");
                    return 2;
                }
                if (exception instanceof IOException || exception instanceof PacketSocketException)
                {
                    cmd.getErr().println(cmd.getCommandSpec().qualifiedName() + ": " + exception.getMessage());
                    return 1;
                }
                throw exception;
            });
    }
}
