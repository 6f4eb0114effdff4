package io.pfabric.testbed;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * The command that runs {@code pfabric} in another process as this one runs: the same java, JVM flags (less any
 * debugging or profiling agent, whose port or file the child would fight over) and class path, then the command
 * line's main class. For the daemons that a testbed, an experiment or a soak starts.
 */
public final class PfabricJvm
{
    /** The command line's main class. */
    public static final String MAIN_CLASS = "io.pfabric.cli.PfabricCommand";

    private PfabricJvm()
    {
    }

    /**
     * java, its flags, the class path and the main class.
     *
     * @return a mutable list to append the arguments to.
     */
    public static List<String> command()
    {
        final List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        for (final String argument : ManagementFactory.getRuntimeMXBean().getInputArguments())
        {
            if (!argument.startsWith("-agentlib") && !argument.startsWith("-javaagent"))
            {
                command.add(argument);
            }
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(MAIN_CLASS);
        return command;
    }
}
