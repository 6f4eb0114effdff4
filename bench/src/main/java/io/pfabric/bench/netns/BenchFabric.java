package io.pfabric.bench.netns;

import io.pfabric.common.topology.Topology;
import io.pfabric.testbed.NetnsFabric;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * A benchmark's namespace fabric and everything it opens on it (daemons, connections, generators), so that one
 * {@link #close()}, from the benchmark's thread or from another (a shutdown hook), stops them all, newest first, and
 * removes the namespaces. After a close, opening or using anything fails with "stopped".
 */
public final class BenchFabric implements AutoCloseable
{
    private final Deque<AutoCloseable> open = new ArrayDeque<>();
    private final PrintStream progress;
    private final String label;
    private NetnsFabric fabric;
    private boolean closed;

    /**
     * An empty holder.
     *
     * @param progress where to report what could not be closed.
     * @param label    the benchmark's name in those lines, such as {@code bench transport}.
     */
    public BenchFabric(final PrintStream progress, final String label)
    {
        this.progress = progress;
        this.label = label;
    }

    /**
     * Remove what a killed earlier run left under the prefix, then build the fabric.
     *
     * @param topology the fabric.
     * @param prefix   of its namespace names.
     * @throws IOException if closed already, or the fabric cannot be built.
     */
    public void build(final Topology topology, final String prefix) throws IOException
    {
        final List<String> leftovers = NetnsFabric.removeLeftovers(prefix);
        if (!leftovers.isEmpty())
        {
            progress.println(label + ": removed leftovers of an earlier run " + leftovers);
        }
        synchronized (this)
        {
            requireOpen();
            fabric = NetnsFabric.build(topology, prefix);
        }
    }

    /**
     * @return the fabric.
     * @throws IOException if closed.
     */
    public synchronized NetnsFabric fabric() throws IOException
    {
        requireOpen();
        return fabric;
    }

    /**
     * @throws IOException if closed.
     */
    public synchronized void requireOpen() throws IOException
    {
        if (closed)
        {
            throw new IOException("stopped");
        }
    }

    /**
     * Keep a resource to close with the fabric; if already closed, close it at once.
     *
     * @param resource just opened.
     * @param <T>      its type.
     * @return the resource.
     * @throws IOException if closed.
     */
    public synchronized <T extends AutoCloseable> T track(final T resource) throws IOException
    {
        if (closed)
        {
            closeQuietly(resource);
            throw new IOException("stopped");
        }
        open.push(resource);
        return resource;
    }

    /**
     * Forget a resource the caller is about to close itself.
     *
     * @param resource tracked before.
     * @return false if it is no longer tracked (a close got to it first), so the caller must not close it.
     */
    public synchronized boolean untrack(final AutoCloseable resource)
    {
        return open.remove(resource);
    }

    /**
     * Close a resource, reporting instead of throwing.
     *
     * @param resource to close.
     */
    public void closeQuietly(final AutoCloseable resource)
    {
        try
        {
            resource.close();
        }
        catch (final Exception ex)
        {
            progress.println(label + ": " + ex.getMessage());
        }
    }

    /**
     * Stop everything tracked, newest first, and remove the namespaces; safe from another thread and more than once.
     */
    @Override
    public synchronized void close()
    {
        closed = true;
        while (!open.isEmpty())
        {
            closeQuietly(open.pop());
        }
        if (null != fabric)
        {
            try
            {
                fabric.close();
            }
            catch (final IOException ex)
            {
                progress.println(label + ": " + ex.getMessage());
            }
            fabric = null;
        }
    }
}
