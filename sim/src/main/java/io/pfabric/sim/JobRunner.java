package io.pfabric.sim;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Independent jobs, such as the runs of a sweep or the points of a reproduction, on a number of threads at once,
 * their results in the order of the jobs whatever the number of threads.
 * <p>
 * Jobs are handed to the threads in their order, and none starts once a job before it has failed. The failure of
 * the first job in order that fails is thrown as the job threw it: an {@link IOException}, unchecked exception or
 * error as itself, an {@link UncheckedIOException} as the {@link IOException} it carries, so that an I/O failure is
 * reported as one whichever way it was thrown. Every job before that one runs whatever the number of threads, so the
 * same jobs fail the same way on one thread or many; on one thread this is running the jobs one after another and
 * stopping at the first that fails.
 * <p>
 * A job after the failed one that is already running is interrupted (a simulation stops at its next progress check,
 * see {@link Simulator}), and {@link #run} returns or throws only once no job runs any more, so that no job writes a
 * file after the caller has been told the jobs ended.
 */
public final class JobRunner
{
    private JobRunner()
    {
    }

    /**
     * One job.
     *
     * @param <T> what it gives.
     */
    @FunctionalInterface
    public interface Job<T>
    {
        /**
         * Do the job.
         *
         * @return its result, may be null.
         * @throws IOException if a file cannot be read or written.
         */
        T run() throws IOException;
    }

    /**
     * Run jobs on up to {@code threads} daemon threads and wait for them.
     *
     * @param jobs       the jobs.
     * @param threads    jobs run at once, at least 1.
     * @param threadName the name of the threads.
     * @param <T>        what a job gives.
     * @return the jobs' results in the jobs' order.
     * @throws IOException if a job failed with one, or the waiting thread was interrupted.
     */
    public static <T> List<T> run(final List<? extends Job<? extends T>> jobs, final int threads,
        final String threadName) throws IOException
    {
        if (threads < 1)
        {
            throw new IllegalArgumentException("threads must be at least 1, not " + threads);
        }
        final AtomicInteger firstFailed = new AtomicInteger(Integer.MAX_VALUE);
        final AtomicReferenceArray<Thread> running = new AtomicReferenceArray<>(jobs.size());
        final ExecutorService pool = Executors.newFixedThreadPool(Math.min(threads, Math.max(1, jobs.size())),
            runnable ->
            {
                final Thread thread = new Thread(runnable, threadName);
                thread.setDaemon(true);
                return thread;
            });
        try
        {
            final List<Future<T>> futures = new ArrayList<>(jobs.size());
            for (int i = 0; i < jobs.size(); i++)
            {
                final int index = i;
                final Job<? extends T> job = jobs.get(i);
                futures.add(pool.submit(() ->
                {
                    running.set(index, Thread.currentThread());
                    try
                    {
                        if (firstFailed.get() < index)
                        {
                            return null;
                        }
                        return job.run();
                    }
                    catch (final Throwable ex)
                    {
                        firstFailed.accumulateAndGet(index, Math::min);
                        interruptAfter(running, index);
                        throw ex;
                    }
                    finally
                    {
                        running.set(index, null);
                    }
                }));
            }
            final List<T> results = new ArrayList<>(jobs.size());
            for (final Future<T> future : futures)
            {
                results.add(resultOf(future));
            }
            return Collections.unmodifiableList(results);
        }
        finally
        {
            pool.shutdownNow();
            awaitEnd(pool);
        }
    }

    /**
     * Interrupt the jobs running after a failed one; those before it run on, so that the first failure in order is
     * the same on any number of threads. A job that registers after this looked finds the failure and does not start.
     */
    private static void interruptAfter(final AtomicReferenceArray<Thread> running, final int failed)
    {
        for (int i = failed + 1; i < running.length(); i++)
        {
            final Thread thread = running.get(i);
            if (null != thread)
            {
                thread.interrupt();
            }
        }
    }

    private static void awaitEnd(final ExecutorService pool)
    {
        try
        {
            pool.awaitTermination(Long.MAX_VALUE, TimeUnit.NANOSECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    private static <T> T resultOf(final Future<T> future) throws IOException
    {
        try
        {
            return future.get();
        }
        catch (final ExecutionException ex)
        {
            final Throwable cause = ex.getCause();
            if (cause instanceof UncheckedIOException io)
            {
                throw io.getCause();
            }
            if (cause instanceof IOException io)
            {
                throw io;
            }
            if (cause instanceof RuntimeException runtime)
            {
                throw runtime;
            }
            if (cause instanceof Error error)
            {
                throw error;
            }
            throw new IllegalStateException(cause);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", ex);
        }
    }
}
