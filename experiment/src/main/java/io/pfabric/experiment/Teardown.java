package io.pfabric.experiment;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * What a run has brought up, closed in reverse order once, by the run when it is done or by a shutdown hook on
 * Ctrl-C, whichever comes first.
 */
final class Teardown
{
    private final Deque<AutoCloseable> resources = new ArrayDeque<>();
    private boolean closed;

    /**
     * Take charge of a resource.
     *
     * @param resource to close later.
     * @param <T>      its type.
     * @return the resource.
     * @throws IllegalStateException if everything was already torn down (the run was stopped).
     */
    synchronized <T extends AutoCloseable> T add(final T resource)
    {
        if (closed)
        {
            closeQuietly(resource);
            throw new IllegalStateException("stopped");
        }
        resources.push(resource);
        return resource;
    }

    /**
     * Close the resources taken since (and including) {@code first}, latest first.
     *
     * @param first the earliest one to close.
     */
    synchronized void closeDownTo(final AutoCloseable first)
    {
        if (!resources.contains(first))
        {
            return;
        }
        AutoCloseable resource;
        do
        {
            resource = resources.pop();
            closeQuietly(resource);
        }
        while (resource != first);
    }

    /**
     * Close everything, latest first; later {@link #add} calls fail.
     */
    synchronized void closeAll()
    {
        closed = true;
        while (!resources.isEmpty())
        {
            closeQuietly(resources.pop());
        }
    }

    private static void closeQuietly(final AutoCloseable resource)
    {
        try
        {
            resource.close();
        }
        catch (final Exception ex)
        {
            System.err.println("pfabric experiment: while tearing down: " + ex.getMessage());
        }
    }
}
