package io.pfabric.testbed.monitor;

import java.io.IOException;
import java.io.StringReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;

/**
 * Where a daemon of a testbed serves its meters ({@code --metrics}), as recorded in the testbed's state directory:
 * one file per daemon under {@code metrics/}, written when the daemon starts serving and removed when it stops.
 * {@code pfabric monitor} and {@code pfabric top} read them.
 *
 * @param role    what the daemon is: {@link #SWITCHES} (every switch of the testbed in one process), {@code switchd},
 *                {@code hostd}, {@code tcpd} or {@code controllerd}.
 * @param name    which one: the host's or switch's name, or the role again for a daemon that is one of a kind.
 * @param address {@code HOST:PORT} of its {@code /metrics}.
 */
public record MetricsEndpoint(String role, String name, String address)
{
    /** The role of the testbed's switches process. */
    public static final String SWITCHES = "switches";
    /** The directory of the records, in the testbed's state directory. */
    public static final String DIRECTORY = "metrics";
    /** The file in a testbed's state directory that holds the switches process's pid while the testbed runs. */
    public static final String SWITCHES_PID = "switches.pid";

    /**
     * The record of a daemon that serves on a bound address.
     *
     * @param role    the daemon's role.
     * @param name    its name.
     * @param address the bound address.
     * @return the record.
     */
    public static MetricsEndpoint of(final String role, final String name, final InetSocketAddress address)
    {
        return new MetricsEndpoint(role, name, address.getAddress().getHostAddress() + ":" + address.getPort());
    }

    /**
     * The testbed state directory a daemon belongs to: the directory of its topology file if that holds a running
     * testbed's state (the testbed's own {@code topology.yaml} beside its {@code switches.pid}).
     *
     * @param topologyFile the daemon's {@code --topology}, or null.
     * @return the state directory, or null if the daemon is not a testbed's.
     */
    public static Path testbedOf(final Path topologyFile)
    {
        if (null == topologyFile)
        {
            return null;
        }
        final Path directory = topologyFile.toAbsolutePath().normalize().getParent();
        return null != directory && Files.isRegularFile(directory.resolve(SWITCHES_PID)) &&
            "topology.yaml".equals(topologyFile.getFileName().toString()) ? directory : null;
    }

    /**
     * The file this record is kept in.
     *
     * @param stateDirectory the testbed's state directory.
     * @return the file.
     */
    public Path file(final Path stateDirectory)
    {
        return stateDirectory.resolve(DIRECTORY).resolve(role + "-" + name + ".endpoint");
    }

    /**
     * Write the record, replacing an earlier one of the same daemon.
     *
     * @param stateDirectory the testbed's state directory.
     * @return the file written.
     * @throws IOException if it cannot be written.
     */
    public Path write(final Path stateDirectory) throws IOException
    {
        final Path file = file(stateDirectory);
        Files.createDirectories(file.getParent());
        final Path partial = file.resolveSibling("." + file.getFileName() + ".partial");
        Files.writeString(partial, "role=" + role + "\nname=" + name + "\naddress=" + address + "\n",
            StandardCharsets.UTF_8);
        Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return file;
    }

    /**
     * Remove every record of a testbed, those a crash left too: for a testbed coming up.
     *
     * @param stateDirectory the testbed's state directory.
     * @throws IOException if one cannot be removed.
     */
    public static void removeAll(final Path stateDirectory) throws IOException
    {
        final Path directory = stateDirectory.resolve(DIRECTORY);
        if (!Files.isDirectory(directory))
        {
            return;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory))
        {
            for (final Path file : files)
            {
                Files.delete(file);
            }
        }
    }

    /**
     * Every record of a testbed, by role and name.
     *
     * @param stateDirectory the testbed's state directory.
     * @return the records; empty if there are none.
     * @throws IOException if one cannot be read.
     */
    public static List<MetricsEndpoint> readAll(final Path stateDirectory) throws IOException
    {
        final Path directory = stateDirectory.resolve(DIRECTORY);
        final List<MetricsEndpoint> endpoints = new ArrayList<>();
        if (!Files.isDirectory(directory))
        {
            return endpoints;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*.endpoint"))
        {
            for (final Path file : files)
            {
                final Properties properties = new Properties();
                properties.load(new StringReader(Files.readString(file, StandardCharsets.UTF_8)));
                final String role = properties.getProperty("role");
                final String name = properties.getProperty("name");
                final String address = properties.getProperty("address");
                if (null == role || null == name || null == address)
                {
                    throw new IOException(file + ": not an endpoint record (role, name and address)");
                }
                endpoints.add(new MetricsEndpoint(role, name, address));
            }
        }
        endpoints.sort(Comparator.comparing(MetricsEndpoint::role).thenComparing(MetricsEndpoint::name));
        return endpoints;
    }

    /**
     * The URL of the daemon's meters.
     *
     * @return {@code http://HOST:PORT/metrics}.
     */
    public String url()
    {
        return "http://" + address + "/metrics";
    }

    /**
     * The daemon as a person would name it.
     *
     * @return e.g. {@code hostd h1}, or {@code the switches process}.
     */
    public String label()
    {
        return SWITCHES.equals(role) ? "the testbed's switches process" : role + " " + name;
    }
}
