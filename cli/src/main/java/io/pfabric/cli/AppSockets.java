package io.pfabric.cli;

import io.pfabric.common.config.Quantities;
import io.pfabric.hostd.app.AppClient;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Where a host's application socket is: {@code /tmp/pfabric-hostd-NAME.sock} by default, so that the hosts of a
 * namespace testbed, which share the file system, each have their own.
 */
final class AppSockets
{
    /**
     * How long {@code send} and {@code recv} wait for a hostd's socket by default: a hostd opens it once it has
     * measured the base RTT, which may take up to 30 s while the other hosts come up.
     */
    static final String DEFAULT_WAIT = "60s";
    private static final long POLL_INTERVAL_MS = 100;
    static final Path DIRECTORY = Path.of(System.getProperty("java.io.tmpdir"));
    private static final String PREFIX = "pfabric-hostd-";
    private static final String SUFFIX = ".sock";

    private AppSockets()
    {
    }

    static Path forHost(final String hostName)
    {
        return DIRECTORY.resolve(PREFIX + hostName + SUFFIX);
    }

    /**
     * The socket to talk to: the one given, else the named host's, else the only one there is.
     */
    static Path resolve(final Path socket, final String hostName) throws IOException
    {
        if (null != socket)
        {
            return socket;
        }
        if (null != hostName)
        {
            return forHost(hostName);
        }
        final List<Path> found = new ArrayList<>();
        try (DirectoryStream<Path> sockets = Files.newDirectoryStream(DIRECTORY, PREFIX + "*" + SUFFIX))
        {
            sockets.forEach(found::add);
        }
        if (1 == found.size())
        {
            return found.get(0);
        }
        throw new IllegalArgumentException(found.isEmpty() ?
            "no hostd is running here (no " + DIRECTORY.resolve(PREFIX + "*" + SUFFIX) + "); start one with " +
                "'pfabric hostd'" :
            "several hostd sockets " + found + "; say which with --host NAME or --socket PATH");
    }

    /**
     * Connect to a hostd's socket, waiting for it to appear: a hostd just started opens it only once it has measured
     * the base RTT.
     *
     * @param socket   the socket given, or null.
     * @param hostName the host named, or null.
     * @param waitNs   how long to wait for it.
     * @param command  the command, for the messages.
     * @param err      where to say what is waited for.
     * @return the client.
     * @throws IOException if no hostd listens there in time.
     * @throws InterruptedException if interrupted while waiting.
     */
    static AppClient connect(final Path socket, final String hostName, final long waitNs, final String command,
        final PrintStream err) throws IOException, InterruptedException
    {
        final Path path = resolve(socket, hostName);
        final long deadlineNs = System.nanoTime() + waitNs;
        boolean said = false;
        while (true)
        {
            try
            {
                return AppClient.connect(path);
            }
            catch (final IOException ex)
            {
                if (System.nanoTime() - deadlineNs >= 0)
                {
                    throw new IOException(String.format(Locale.ROOT, "no hostd%s listening on %s after %s s " +
                        "(start one with 'pfabric hostd')", null == hostName ? "" : " of " + hostName, path,
                        seconds(waitNs)), ex);
                }
                if (!said)
                {
                    err.printf(Locale.ROOT, "pfabric %s: waiting up to %s s for hostd%s to open %s (it does once " +
                        "it has measured the base RTT)%n", command, seconds(waitNs),
                        null == hostName ? "" : " of " + hostName, path);
                    said = true;
                }
                TimeUnit.MILLISECONDS.sleep(POLL_INTERVAL_MS);
            }
        }
    }

    /**
     * A {@code --wait} duration, checked.
     *
     * @param text the option's value.
     * @return nanoseconds, not negative.
     */
    static long waitNs(final String text)
    {
        final long waitNs;
        try
        {
            waitNs = Quantities.parseNanos(text);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("--wait: " + ex.getMessage(), ex);
        }
        if (waitNs < 0)
        {
            throw new IllegalArgumentException("--wait must not be negative");
        }
        return waitNs;
    }

    private static String seconds(final long nanos)
    {
        final double seconds = nanos / 1e9;
        return seconds == Math.rint(seconds) ? String.format(Locale.ROOT, "%.0f", seconds) :
            String.format(Locale.ROOT, "%.1f", seconds);
    }
}
