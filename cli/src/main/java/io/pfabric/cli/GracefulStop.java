package io.pfabric.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * What SIGTERM or Ctrl-C does to a command that writes a log while it runs: a shutdown hook asks the work to stop,
 * then holds the JVM's exit until the command has finished writing (closed this, last of its resources), for at most
 * {@link #PATIENCE_SECONDS}. Without the wait the JVM would exit as soon as the hook returned, in the middle of the
 * command's last writes.
 */
final class GracefulStop implements AutoCloseable
{
    static final long PATIENCE_SECONDS = 30;

    private final CountDownLatch requested = new CountDownLatch(1);
    private final CountDownLatch finished = new CountDownLatch(1);
    private final Thread hook;

    /**
     * Register the hook.
     *
     * @param stop asks the work to stop; called on the hook's thread.
     * @param name the hook thread's name.
     */
    GracefulStop(final Runnable stop, final String name)
    {
        hook = new Thread(() ->
        {
            stop.run();
            requested.countDown();
            try
            {
                finished.await(PATIENCE_SECONDS, TimeUnit.SECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }, name);
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /**
     * Wait until SIGTERM or Ctrl-C has asked the work to stop, for a command that stays up once its own work is done.
     * An interrupt does not end the wait; it is kept for the caller.
     */
    void awaitStopRequest()
    {
        boolean interrupted = false;
        while (requested.getCount() > 0)
        {
            try
            {
                requested.await();
            }
            catch (final InterruptedException ex)
            {
                interrupted = true;
            }
        }
        if (interrupted)
        {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The command has written everything: let the JVM exit, or no longer stop it at exit.
     */
    public void close()
    {
        finished.countDown();
        try
        {
            Runtime.getRuntime().removeShutdownHook(hook);
        }
        catch (final IllegalStateException ex)
        {
            // The JVM is shutting down: the hook is running and now returns.
        }
    }
}
