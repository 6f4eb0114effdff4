package io.pfabric.switchd;

import io.pfabric.common.os.Commands;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Network namespaces a test creates under a unique prefix and deletes on {@link #close()}, with helpers to run
 * commands in them.
 */
final class Namespaces implements AutoCloseable
{
    private final String prefix = "pfs" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0x10000));
    private final List<String> created = new ArrayList<>();

    String create(final String name) throws IOException
    {
        final String namespace = prefix + "-" + name;
        run("ip", "netns", "add", namespace);
        created.add(namespace);
        exec(namespace, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1");
        exec(namespace, "sysctl", "-qw", "net.ipv6.conf.default.disable_ipv6=1");
        exec(namespace, "ip", "link", "set", "lo", "up");
        return namespace;
    }

    static String exec(final String namespace, final String... command) throws IOException
    {
        return Commands.inNamespace(namespace, command);
    }

    static String run(final String... command) throws IOException
    {
        return Commands.run(command);
    }

    public void close() throws IOException
    {
        try
        {
            Commands.deleteNamespaces(created);
        }
        finally
        {
            created.clear();
        }
    }
}
