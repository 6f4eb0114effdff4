package io.pfabric.testbed.monitor;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The fabrics whose daemons' meters {@code pfabric top} and {@code pfabric monitor} can find, under the project's
 * {@code .pfabric} directory: the standing testbed ({@code testbed/}, {@code pfabric testbed up}) and every run that
 * publishes its fabric while it runs ({@code live/NAME}, e.g. {@code live/demo}; {@link PublishedFabric}). Each is a
 * state directory: the topology, the id of the process that runs the switches, and a record per daemon serving
 * metrics ({@link MetricsEndpoint}). A fabric runs while that process lives.
 */
public final class RunningFabrics
{
    /** The name, and directory, of the standing testbed. */
    public static final String TESTBED = "testbed";
    /** The directory of the published runs. */
    public static final String DIRECTORY = "live";

    private RunningFabrics()
    {
    }

    /**
     * A fabric and where its state is.
     *
     * @param name           {@value #TESTBED}, or the run's name.
     * @param stateDirectory its state directory.
     */
    public record Fabric(String name, Path stateDirectory)
    {
    }

    /**
     * Every fabric that has a state directory, running or not: the testbed's first, then the runs' by name.
     *
     * @param pfabricDirectory the project's {@code .pfabric} directory.
     * @return the fabrics.
     * @throws IOException if the runs cannot be listed.
     */
    public static List<Fabric> all(final Path pfabricDirectory) throws IOException
    {
        final List<Fabric> fabrics = new ArrayList<>();
        fabrics.add(new Fabric(TESTBED, pfabricDirectory.resolve(TESTBED)));
        final Path live = pfabricDirectory.resolve(DIRECTORY);
        if (Files.isDirectory(live))
        {
            final List<Path> entries = new ArrayList<>();
            try (DirectoryStream<Path> stream = Files.newDirectoryStream(live))
            {
                stream.forEach(entries::add);
            }
            entries.sort(null);
            for (final Path entry : entries)
            {
                fabrics.add(new Fabric(entry.getFileName().toString(), entry));
            }
        }
        return fabrics;
    }

    /**
     * The fabrics running now.
     *
     * @param pfabricDirectory the project's {@code .pfabric} directory.
     * @return the fabrics, the testbed's first.
     * @throws IOException if the state cannot be read.
     */
    public static List<Fabric> running(final Path pfabricDirectory) throws IOException
    {
        final List<Fabric> running = new ArrayList<>();
        for (final Fabric fabric : all(pfabricDirectory))
        {
            if (isRunning(fabric.stateDirectory()))
            {
                running.add(fabric);
            }
        }
        return running;
    }

    /**
     * Whether a state directory holds a running fabric: its topology, and its switches' process alive.
     *
     * @param stateDirectory the state directory.
     * @return true if so.
     * @throws IOException if the process id cannot be read.
     */
    public static boolean isRunning(final Path stateDirectory) throws IOException
    {
        return Files.isRegularFile(stateDirectory.resolve("topology.yaml")) &&
            Monitor.process(stateDirectory.resolve(MetricsEndpoint.SWITCHES_PID)).isPresent();
    }

    /**
     * The fabric a command is about: the one named, or else the only one running.
     *
     * @param pfabricDirectory the project's {@code .pfabric} directory.
     * @param name             the fabric's name ({@code --fabric}), or null for the only one running.
     * @return the fabric.
     * @throws IllegalStateException if none runs, the one named does not, or several run and none is named; saying
     *                               what to do.
     * @throws IOException           if the state cannot be read.
     */
    public static Fabric choose(final Path pfabricDirectory, final String name) throws IOException
    {
        final List<Fabric> running = running(pfabricDirectory);
        final List<String> names = running.stream().map(Fabric::name).toList();
        if (null != name)
        {
            return running.stream().filter(fabric -> fabric.name().equals(name)).findFirst().orElseThrow(() ->
                new IllegalStateException("--fabric " + name + ": no such fabric running (" +
                (names.isEmpty() ? "none runs" : "running: " + String.join(", ", names)) + ")"));
        }
        if (running.isEmpty())
        {
            throw new IllegalStateException("no testbed or experiment running (none recorded in " +
                pfabricDirectory + "): start one with './pfabric testbed up --topo star:4', or run './pfabric demo' " +
                "in another terminal");
        }
        if (running.size() > 1)
        {
            throw new IllegalStateException("several fabrics running (" + String.join(", ", names) + "): choose " +
                "one with --fabric");
        }
        return running.get(0);
    }
}
