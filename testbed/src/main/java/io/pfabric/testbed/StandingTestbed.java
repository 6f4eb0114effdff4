package io.pfabric.testbed;

import io.pfabric.common.os.Commands;
import io.pfabric.common.topology.Topology;
import io.pfabric.testbed.monitor.MetricsEndpoint;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The namespace testbed a user brings up and down by hand ({@code pfabric testbed up|down}): the namespaces of a
 * {@link NetnsFabric} with one prefix, and the background process that runs its switches, whose id, log and topology
 * are kept in a state directory. One at a time: {@link #up} refuses while the switches of an earlier one run, and
 * removes the namespaces of one whose switches have stopped. Whatever {@link #up} made is removed when it fails or
 * the process is interrupted (SIGINT, SIGTERM) before it is done.
 */
public final class StandingTestbed
{
    /**
     * The prefix of the namespaces of {@code pfabric testbed}.
     */
    public static final String DEFAULT_PREFIX = "pftb";

    private static final long SWITCHES_START_SECONDS = 3;
    private static final long SWITCHES_STOP_SECONDS = 15;
    private static final int CLEAN_UP_PASSES = 3;

    private final Path stateDirectory;
    private final String prefix;

    /**
     * A testbed's handle.
     *
     * @param stateDirectory where its topology, switch log and switch process id are kept.
     * @param prefix         of its namespace names.
     */
    public StandingTestbed(final Path stateDirectory, final String prefix)
    {
        this.stateDirectory = stateDirectory;
        this.prefix = prefix;
    }

    /**
     * The topology file of the testbed that is up, for hostd and the other daemons.
     *
     * @return the file.
     */
    public Path topologyFile()
    {
        return stateDirectory.resolve("topology.yaml");
    }

    /**
     * The switches' log.
     *
     * @return the file.
     */
    public Path switchLog()
    {
        return stateDirectory.resolve("switches.log");
    }

    private Path pidFile()
    {
        return stateDirectory.resolve("switches.pid");
    }

    /**
     * The process that runs the testbed's switches, if it runs: the one this state directory started, else one that
     * another checkout (another state directory) started for the same prefix.
     *
     * @return the process.
     * @throws IOException if the id file cannot be read.
     */
    public Optional<ProcessHandle> switches() throws IOException
    {
        if (Files.exists(pidFile()))
        {
            try
            {
                final Optional<ProcessHandle> started = ProcessHandle.of(
                    Long.parseLong(Files.readString(pidFile()).trim())).filter(this::runsSwitches);
                if (started.isPresent())
                {
                    return started;
                }
            }
            catch (final NumberFormatException ex)
            {
                // Not an id: no process of ours.
            }
        }
        return ProcessHandle.allProcesses().filter(this::runsSwitches).findFirst();
    }

    /**
     * Whether a process runs {@code pfabric testbed switches} for this prefix ({@value #DEFAULT_PREFIX} when its
     * command line names none).
     */
    private boolean runsSwitches(final ProcessHandle process)
    {
        if (!process.isAlive())
        {
            return false;
        }
        final List<String> arguments;
        try
        {
            arguments = List.of(Files.readString(Path.of("/proc", Long.toString(process.pid()), "cmdline"),
                StandardCharsets.UTF_8).split("\0"));
        }
        catch (final IOException ex)
        {
            return false;
        }
        final int testbed = arguments.indexOf("testbed");
        if (testbed < 0 || testbed + 1 >= arguments.size() || !"switches".equals(arguments.get(testbed + 1)))
        {
            return false;
        }
        final int option = arguments.indexOf("--prefix");
        final String named = option > testbed && option + 1 < arguments.size() ? arguments.get(option + 1) :
            DEFAULT_PREFIX;
        return prefix.equals(named);
    }

    /**
     * The testbed's namespaces that exist now.
     *
     * @return their names, sorted.
     * @throws IOException if they cannot be listed.
     */
    public List<String> namespaces() throws IOException
    {
        final List<String> names = new ArrayList<>();
        for (final String line : NetnsFabric.run("ip", "netns", "list").split("\n"))
        {
            final String name = line.trim().split(" ")[0];
            if (name.startsWith(prefix + "-"))
            {
                names.add(name);
            }
        }
        names.sort(null);
        return names;
    }

    /**
     * Make the namespaces and links of a topology and start its switches in a background process whose command is
     * {@code switchesCommand} followed by the topology file. Refuses if the switches of an earlier testbed still run;
     * removes the namespaces of one whose switches have stopped, saying so. If it fails, or the process is
     * interrupted before it is done, it removes what it made.
     *
     * @param topology        the fabric.
     * @param switchesCommand the command that runs the switches of a topology file until SIGTERM.
     * @param err             where to say what was removed.
     * @throws IOException           if a namespace, a link or the switches process cannot be made.
     * @throws IllegalStateException if a testbed is up already.
     */
    public void up(final Topology topology, final List<String> switchesCommand, final PrintStream err)
        throws IOException
    {
        final Optional<ProcessHandle> running = switches();
        if (running.isPresent())
        {
            throw new IllegalStateException("a testbed is up already (its switches run as process " +
                running.get().pid() + "); take it down first with 'pfabric testbed down'");
        }
        final List<String> leftovers = NetnsFabric.removeLeftovers(prefix);
        if (!leftovers.isEmpty())
        {
            err.println("pfabric testbed: removed the namespaces of an earlier testbed whose switches had stopped: " +
                leftovers);
        }
        Files.createDirectories(stateDirectory);
        MetricsEndpoint.removeAll(stateDirectory);
        Files.deleteIfExists(pidFile());
        Files.writeString(topologyFile(), topology.toYaml(), StandardCharsets.UTF_8);
        final Making making = new Making(err);
        final Thread cleanUp = new Thread(making::interrupted, "testbed-up-interrupted");
        Runtime.getRuntime().addShutdownHook(cleanUp);
        boolean done = false;
        try
        {
            NetnsFabric.build(topology, prefix);
            final List<String> command = new ArrayList<>(switchesCommand);
            command.add(topologyFile().toString());
            final Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(switchLog().toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
            making.switches = process;
            Files.writeString(pidFile(), Long.toString(process.pid()));
            if (process.waitFor(SWITCHES_START_SECONDS, TimeUnit.SECONDS))
            {
                throw new IOException("the switches stopped at once; see " + switchLog());
            }
            done = true;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting the switches", ex);
        }
        finally
        {
            try
            {
                if (!done)
                {
                    making.removeAll();
                }
            }
            finally
            {
                making.stopped();
            }
            try
            {
                Runtime.getRuntime().removeShutdownHook(cleanUp);
            }
            catch (final IllegalStateException ex)
            {
                // Shutting down already: the hook removes what was made.
            }
        }
    }

    /**
     * Stop the switches (SIGTERM, then SIGKILL after 15 s), every process that runs them for this prefix, and remove
     * every namespace of the prefix, also those of a testbed whose switches crashed.
     *
     * @return the namespaces removed.
     * @throws IOException if a namespace cannot be removed.
     */
    public List<String> down() throws IOException
    {
        for (final ProcessHandle process : ProcessHandle.allProcesses().filter(this::runsSwitches).toList())
        {
            stop(process);
        }
        Files.deleteIfExists(pidFile());
        return NetnsFabric.removeLeftovers(prefix);
    }

    private static void stop(final ProcessHandle process)
    {
        process.destroy();
        try
        {
            process.onExit().get(SWITCHES_STOP_SECONDS, TimeUnit.SECONDS);
        }
        catch (final Exception ex)
        {
            process.destroyForcibly();
        }
    }

    /**
     * What {@link #up} has made so far, removed when it fails or its process is interrupted.
     */
    private final class Making
    {
        private final PrintStream err;
        private final Thread builder = Thread.currentThread();
        private final CountDownLatch stopped = new CountDownLatch(1);
        private volatile Process switches;

        Making(final PrintStream err)
        {
            this.err = err;
        }

        /**
         * The thread running {@link #up} makes nothing more.
         */
        void stopped()
        {
            stopped.countDown();
        }

        /**
         * On SIGINT: stop the thread running {@link #up} (its command in flight fails, interrupted) and wait until it
         * makes nothing more, for at most one command's time, so that no namespace appears after the passes of
         * {@link #removeAll}; then remove what it made.
         */
        void interrupted()
        {
            builder.interrupt();
            ProcessHandle.current().children().forEach(ProcessHandle::destroyForcibly);
            try
            {
                stopped.await(Commands.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            final int removed = removeAll();
            err.println("pfabric testbed: interrupted; removed the " + removed + " namespaces made so far");
            err.flush();
        }

        /**
         * Several passes, since a command of {@link #up} may still have been making a namespace during the first.
         */
        synchronized int removeAll()
        {
            final Process process = switches;
            if (null != process)
            {
                stop(process.toHandle());
            }
            int removed = 0;
            for (int pass = 0; pass < CLEAN_UP_PASSES; pass++)
            {
                try
                {
                    final int count = NetnsFabric.removeLeftovers(prefix).size();
                    removed += count;
                    if (0 == count && pass > 0)
                    {
                        break;
                    }
                }
                catch (final IOException ex)
                {
                    err.println("pfabric testbed: cannot remove every namespace: " + ex.getMessage());
                }
            }
            try
            {
                Files.deleteIfExists(pidFile());
            }
            catch (final IOException ex)
            {
                err.println("pfabric testbed: cannot remove " + pidFile() + ": " + ex.getMessage());
            }
            return removed;
        }
    }
}
