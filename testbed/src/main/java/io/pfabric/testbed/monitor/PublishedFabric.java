package io.pfabric.testbed.monitor;

import io.pfabric.common.topology.Topology;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A run's fabric made visible to {@code pfabric top} and {@code pfabric monitor} while it runs
 * ({@link RunningFabrics}): an entry {@code live/NAME} in the project's {@code .pfabric} directory, which is either a
 * state directory of its own, for a run whose switches run in this process, or a link to the run's own state
 * directory, for a run whose daemons record themselves (their {@code --topology} is that directory's
 * {@code topology.yaml}). {@link #close()} removes the entry, and stops a monitor started on it: the fabric it
 * scraped is gone.
 */
public final class PublishedFabric implements AutoCloseable
{
    private final String name;
    private final Path entry;
    private final Path stateDirectory;
    private final boolean inProcess;

    private PublishedFabric(final String name, final Path entry, final Path stateDirectory, final boolean inProcess)
    {
        this.name = name;
        this.entry = entry;
        this.stateDirectory = stateDirectory;
        this.inProcess = inProcess;
    }

    /**
     * Publish a fabric whose switches run in this process: its state directory is made afresh, with the topology and
     * this process's id; {@link #record} adds its daemons.
     *
     * @param pfabricDirectory the project's {@code .pfabric} directory.
     * @param name             the run's name, e.g. {@code demo}.
     * @param topology         the fabric.
     * @return the publication.
     * @throws IllegalStateException if a run of that name is running already.
     * @throws IOException           if the state cannot be written.
     */
    public static PublishedFabric inProcess(final Path pfabricDirectory, final String name, final Topology topology)
        throws IOException
    {
        final Path entry = free(pfabricDirectory, name);
        Files.createDirectories(entry);
        final PublishedFabric published = new PublishedFabric(name, entry, entry, true);
        try
        {
            Files.writeString(entry.resolve("topology.yaml"), topology.toYaml(), StandardCharsets.UTF_8);
            Files.writeString(entry.resolve(MetricsEndpoint.SWITCHES_PID),
                Long.toString(ProcessHandle.current().pid()));
        }
        catch (final IOException ex)
        {
            published.close();
            throw ex;
        }
        return published;
    }

    /**
     * Publish a run's own state directory, whose daemons record themselves.
     *
     * @param pfabricDirectory the project's {@code .pfabric} directory.
     * @param name             the run's name, e.g. {@code soak}.
     * @param stateDirectory   the run's state directory.
     * @return the publication.
     * @throws IllegalStateException if a run of that name is running already.
     * @throws IOException           if the link cannot be made.
     */
    public static PublishedFabric link(final Path pfabricDirectory, final String name, final Path stateDirectory)
        throws IOException
    {
        final Path entry = free(pfabricDirectory, name);
        Files.createSymbolicLink(entry, stateDirectory.toAbsolutePath().normalize());
        return new PublishedFabric(name, entry, stateDirectory, false);
    }

    private static Path free(final Path pfabricDirectory, final String name) throws IOException
    {
        final Path live = pfabricDirectory.resolve(RunningFabrics.DIRECTORY);
        final Path entry = live.resolve(name);
        if (RunningFabrics.isRunning(entry))
        {
            throw new IllegalStateException("another " + name + " is running (process " +
                Files.readString(entry.resolve(MetricsEndpoint.SWITCHES_PID)).trim() + ", " + entry + ")");
        }
        Files.createDirectories(live);
        if (Files.exists(entry))
        {
            Monitor.down(entry);
        }
        remove(entry);
        return entry;
    }

    private static void remove(final Path entry) throws IOException
    {
        if (Files.isSymbolicLink(entry))
        {
            Files.delete(entry);
        }
        else
        {
            Monitor.removeRecursively(entry);
        }
    }

    /**
     * The run's name, as {@code --fabric} names it.
     *
     * @return the name.
     */
    public String name()
    {
        return name;
    }

    /**
     * The state directory.
     *
     * @return the directory.
     */
    public Path stateDirectory()
    {
        return stateDirectory;
    }

    /**
     * Record a daemon that serves metrics, until {@link #close()}.
     *
     * @param endpoint the daemon.
     * @throws IOException if the record cannot be written.
     */
    public void record(final MetricsEndpoint endpoint) throws IOException
    {
        endpoint.write(stateDirectory);
    }

    /**
     * Stop a monitor of this fabric and remove the entry (a state directory of this process's, or the link).
     *
     * @throws IOException if something cannot be removed.
     */
    public void close() throws IOException
    {
        try
        {
            Monitor.down(stateDirectory);
        }
        finally
        {
            if (inProcess || Files.isSymbolicLink(entry))
            {
                remove(entry);
            }
        }
    }
}
