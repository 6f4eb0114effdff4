package io.pfabric.common.os;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * Runs the system commands that set up namespaces and links ({@code ip}, {@code ethtool}, {@code sysctl}): to
 * completion, with a time limit, failing with the command's own output. Cold path.
 */
public final class Commands
{
    /**
     * The longest a command may take before it is killed and fails.
     */
    public static final long TIMEOUT_SECONDS = 60;

    private Commands()
    {
    }

    /**
     * Run a command to completion.
     *
     * @param command and its arguments.
     * @return its output (stdout and stderr together).
     * @throws IOException if it cannot start, takes over a minute, or exits non-zero (the message has its output).
     */
    public static String run(final String... command) throws IOException
    {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try
        {
            final byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
                throw new IOException(String.join(" ", command) + ": timed out");
            }
            final String text = new String(output, StandardCharsets.UTF_8);
            if (0 != process.exitValue())
            {
                throw new IOException(String.join(" ", command) + ": exit " + process.exitValue() + ": " + text.trim());
            }
            return text;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IOException(String.join(" ", command) + ": interrupted", ex);
        }
    }

    /**
     * Run a command in a network namespace ({@code ip netns exec}).
     *
     * @param namespace the namespace.
     * @param command   and its arguments.
     * @return its output.
     * @throws IOException as {@link #run(String...)}.
     */
    public static String inNamespace(final String namespace, final String... command) throws IOException
    {
        final String[] full = new String[command.length + 4];
        full[0] = "ip";
        full[1] = "netns";
        full[2] = "exec";
        full[3] = namespace;
        System.arraycopy(command, 0, full, 4, command.length);
        return run(full);
    }

    /**
     * Delete network namespaces, trying every one even when one fails.
     *
     * @param namespaces to delete.
     * @throws IOException the last failure, if any.
     */
    public static void deleteNamespaces(final Iterable<String> namespaces) throws IOException
    {
        IOException failure = null;
        for (final String namespace : namespaces)
        {
            try
            {
                run("ip", "netns", "del", namespace);
            }
            catch (final IOException ex)
            {
                failure = ex;
            }
        }
        if (null != failure)
        {
            throw failure;
        }
    }
}
