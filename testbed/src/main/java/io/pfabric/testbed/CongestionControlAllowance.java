package io.pfabric.testbed;

import io.pfabric.common.os.Commands;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Lets network namespaces choose a TCP congestion control that the host does not allow them: a child namespace may
 * only pick one of {@code net.ipv4.tcp_allowed_congestion_control}, which the host sets. The name is added to that
 * list for as long as this is open and the list is put back on close. Needs root, as the namespaces do.
 */
public final class CongestionControlAllowance implements AutoCloseable
{
    private static final Path ALLOWED = Path.of("/proc/sys/net/ipv4/tcp_allowed_congestion_control");
    private static final String SETTING = "net.ipv4.tcp_allowed_congestion_control=";

    private final String previous;
    private final boolean changed;
    private boolean closed;

    private CongestionControlAllowance(final String previous, final boolean changed)
    {
        this.previous = previous;
        this.changed = changed;
    }

    /**
     * Whether a string can name a congestion control (the kernel's names are at most 15 characters).
     *
     * @param name the string.
     * @return true if it is lower-case letters, digits and underscores, 1 to 15 of them.
     */
    public static boolean isName(final String name)
    {
        return name.matches("[a-z0-9_]{1,15}");
    }

    /**
     * Allow a congestion control in namespaces, if it is not allowed already.
     *
     * @param name such as {@code cubic}; it must be available to the kernel (built in or loaded).
     * @return the allowance, to close when the namespaces are done with it.
     * @throws IOException if the list cannot be read or written.
     */
    public static CongestionControlAllowance allow(final String name) throws IOException
    {
        if (!isName(name))
        {
            throw new IllegalArgumentException("not a congestion control name: " + name);
        }
        final String allowed = Files.readString(ALLOWED).trim();
        if (List.of(allowed.split("\\s+")).contains(name))
        {
            return new CongestionControlAllowance(allowed, false);
        }
        Commands.run("sysctl", "-qw", SETTING + (allowed + " " + name).trim());
        return new CongestionControlAllowance(allowed, true);
    }

    /**
     * Whether the list had to be extended.
     *
     * @return true if close puts the previous list back.
     */
    public boolean changed()
    {
        return changed;
    }

    /**
     * The list as it was.
     *
     * @return the names, space-separated.
     */
    public String previous()
    {
        return previous;
    }

    /**
     * Put the list back as it was, if it was changed; once.
     *
     * @throws IOException if it cannot be written.
     */
    public void close() throws IOException
    {
        if (changed && !closed)
        {
            closed = true;
            Commands.run("sysctl", "-qw", SETTING + previous);
        }
    }
}
