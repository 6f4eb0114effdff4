package io.pfabric.switchd;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Network namespaces a test creates under a unique prefix and deletes on {@link #close()}, with helpers to run
 * commands in them.
 */
final class Namespaces implements AutoCloseable
{
    private final String prefix = "pfs" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0x10000));
    private final List<String> created = new ArrayList<>();

    static boolean privileged()
    {
        return "root".equals(System.getProperty("user.name"));
    }

    String create(final String name) throws IOException, InterruptedException
    {
        final String namespace = prefix + "-" + name;
        run("ip", "netns", "add", namespace);
        created.add(namespace);
        exec(namespace, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1");
        exec(namespace, "sysctl", "-qw", "net.ipv6.conf.default.disable_ipv6=1");
        exec(namespace, "ip", "link", "set", "lo", "up");
        return namespace;
    }

    static String exec(final String namespace, final String... command) throws IOException, InterruptedException
    {
        final String[] full = new String[command.length + 4];
        full[0] = "ip";
        full[1] = "netns";
        full[2] = "exec";
        full[3] = namespace;
        System.arraycopy(command, 0, full, 4, command.length);
        return run(full);
    }

    static String run(final String... command) throws IOException, InterruptedException
    {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(60, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            throw new IOException(String.join(" ", command) + " timed out");
        }
        final String text = new String(output, StandardCharsets.UTF_8);
        if (0 != process.exitValue())
        {
            throw new IOException(String.join(" ", command) + " exited " + process.exitValue() + ": " + text);
        }
        return text;
    }

    public void close() throws IOException
    {
        IOException failure = null;
        for (final String namespace : created)
        {
            try
            {
                run("ip", "netns", "del", namespace);
            }
            catch (final IOException ex)
            {
                failure = ex;
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                failure = new IOException("interrupted while deleting " + namespace, ex);
            }
        }
        created.clear();
        if (null != failure)
        {
            throw failure;
        }
    }
}
