package io.pfabric.common.os;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The Debian tools that fabrics and experiments run, and a check that they are on PATH before anything is built, so
 * that a missing one is reported with its package and the command that installs it instead of failing half-way.
 */
public final class HostTools
{
    private static final Map<String, String> PACKAGES = Map.of(
        "ip", "iproute2",
        "tc", "iproute2",
        "ethtool", "ethtool",
        "sysctl", "procps",
        "ping", "iputils-ping",
        "trafgen", "netsniff-ng",
        "mn", "mininet",
        "tshark", "tshark");

    private HostTools()
    {
    }

    /**
     * Check that tools are on this process's PATH.
     *
     * @param tools command names, such as {@code ethtool}.
     * @throws IOException naming each missing tool, its Debian package, and how to install it.
     */
    public static void require(final String... tools) throws IOException
    {
        require(System.getenv("PATH"), tools);
    }

    /**
     * Check that tools are on a given PATH.
     *
     * @param path  a PATH value, directories separated by {@code :}; null for none.
     * @param tools command names.
     * @throws IOException naming each missing tool, its Debian package, and how to install it.
     */
    public static void require(final String path, final String... tools) throws IOException
    {
        final List<String> missing = new ArrayList<>();
        for (final String tool : tools)
        {
            if (!onPath(path, tool))
            {
                missing.add(tool);
            }
        }
        if (!missing.isEmpty())
        {
            final TreeSet<String> packages = new TreeSet<>();
            missing.forEach(tool -> packages.add(PACKAGES.getOrDefault(tool, tool)));
            final String install = String.join(" ", packages);
            throw new IOException("not installed: " + String.join(", ", missing) + " (Debian package" +
                (packages.size() > 1 ? "s " : " ") + install + "); run './pfabric setup' as root to install what " +
                "pfabric uses, or: sudo apt-get install " + install);
        }
    }

    private static boolean onPath(final String path, final String tool)
    {
        if (null == path)
        {
            return false;
        }
        for (final String directory : path.split(File.pathSeparator))
        {
            if (!directory.isEmpty() && Files.isExecutable(Path.of(directory, tool)))
            {
                return true;
            }
        }
        return false;
    }
}
