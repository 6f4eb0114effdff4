package io.pfabric.sim;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JobRunnerTest
{
    private static List<JobRunner.Job<String>> squares(final int count)
    {
        final List<JobRunner.Job<String>> jobs = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            final int n = i;
            jobs.add(() -> n + "^2=" + n * n);
        }
        return jobs;
    }

    @Test
    void oneAndTwoThreadsGiveTheSameResultsInTheJobsOrder() throws IOException
    {
        final List<String> expected = IntStream.range(0, 25).mapToObj(n -> n + "^2=" + n * n).toList();

        assertEquals(expected, JobRunner.run(squares(25), 1, "test-job"));
        assertEquals(expected, JobRunner.run(squares(25), 2, "test-job"));
        assertEquals(expected, JobRunner.run(squares(25), 64, "test-job"));
    }

    @Test
    void resultsComeInTheJobsOrderWhenALaterJobFinishesFirst() throws IOException
    {
        final CountDownLatch secondDone = new CountDownLatch(1);
        final List<Integer> finished = Collections.synchronizedList(new ArrayList<>());
        final List<JobRunner.Job<Integer>> jobs = List.of(
            () ->
            {
                awaitBeside(secondDone);
                finished.add(0);
                return 0;
            },
            () ->
            {
                finished.add(1);
                secondDone.countDown();
                return 1;
            });

        assertEquals(List.of(0, 1), JobRunner.run(jobs, 2, "test-job"));
        assertEquals(List.of(1, 0), finished);
    }

    @Test
    void onOneThreadJobsRunInOrderAndNoneStartsAfterOneFails()
    {
        final List<Integer> started = Collections.synchronizedList(new ArrayList<>());
        final IOException failure = new IOException("job 2 failed");
        final List<JobRunner.Job<Void>> jobs = new ArrayList<>();
        for (int i = 0; i < 5; i++)
        {
            final int n = i;
            jobs.add(() ->
            {
                started.add(n);
                if (2 == n)
                {
                    throw failure;
                }
                return null;
            });
        }

        assertSame(failure, assertThrows(IOException.class, () -> JobRunner.run(jobs, 1, "test-job")));
        assertEquals(List.of(0, 1, 2), started);
    }

    @Test
    void aJobsExceptionSurfacesAsItself()
    {
        final IOException io = new IOException("disk full");
        final IllegalArgumentException runtime = new IllegalArgumentException("bad scheme");
        final StackOverflowError error = new StackOverflowError("deep");
        for (final int threads : new int[] {1, 2})
        {
            assertSame(io, assertThrows(IOException.class,
                () -> JobRunner.run(failingAt(3, () -> { throw io; }), threads, "test-job")));
            assertSame(runtime, assertThrows(IllegalArgumentException.class,
                () -> JobRunner.run(failingAt(3, () -> { throw runtime; }), threads, "test-job")));
            assertSame(error, assertThrows(StackOverflowError.class,
                () -> JobRunner.run(failingAt(3, () -> { throw error; }), threads, "test-job")));
        }
    }

    @Test
    void anUncheckedIoExceptionSurfacesAsTheIoExceptionItCarries()
    {
        final IOException io = new IOException("no such directory");
        for (final int threads : new int[] {1, 2})
        {
            assertSame(io, assertThrows(IOException.class, () -> JobRunner.run(
                failingAt(0, () -> { throw new UncheckedIOException(io); }), threads, "test-job")));
        }
    }

    @Test
    void whenTwoJobsFailTheFirstInOrderIsThrownEvenIfTheOtherFailedBeforeItStarted()
    {
        // the threads start in no set order: the second job may fail before the first has started, many rounds
        // give that a chance to happen
        for (int round = 0; round < 200; round++)
        {
            final CountDownLatch secondFailing = new CountDownLatch(1);
            final IOException first = new IOException("first");
            final IOException second = new IOException("second");
            final List<JobRunner.Job<Void>> jobs = List.of(
                () ->
                {
                    awaitBeside(secondFailing);
                    throw first;
                },
                () ->
                {
                    secondFailing.countDown();
                    throw second;
                });

            assertSame(first, assertThrows(IOException.class, () -> JobRunner.run(jobs, 2, "test-job")),
                "round " + round);
        }
    }

    @Test
    void oneAndTwoThreadsThrowTheSameFailure()
    {
        final IOException third = new IOException("third");
        final IOException fifth = new IOException("fifth");
        for (final int threads : new int[] {1, 2})
        {
            final List<JobRunner.Job<String>> jobs = new ArrayList<>(squares(8));
            jobs.set(4, () -> { throw fifth; });
            jobs.set(2, () -> { throw third; });
            assertSame(third, assertThrows(IOException.class, () -> JobRunner.run(jobs, threads, "test-job")));
        }
    }

    @Test
    void aFailureInterruptsALaterJobStillRunningAndTheRunEndsOnlyAfterIt()
    {
        final CountDownLatch secondRunning = new CountDownLatch(1);
        final AtomicBoolean secondInterrupted = new AtomicBoolean();
        final AtomicBoolean secondEnded = new AtomicBoolean();
        final IOException first = new IOException("first");
        final List<JobRunner.Job<Void>> jobs = List.of(
            () ->
            {
                awaitBeside(secondRunning);
                throw first;
            },
            () ->
            {
                try
                {
                    secondRunning.countDown();
                    final long giveUpNs = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
                    while (!Thread.currentThread().isInterrupted() && System.nanoTime() - giveUpNs < 0)
                    {
                        Thread.onSpinWait();
                    }
                    secondInterrupted.set(Thread.currentThread().isInterrupted());
                    // winding down takes a while, as writing what a run has so far would
                    final long windDownEndNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
                    while (System.nanoTime() - windDownEndNs < 0)
                    {
                        Thread.onSpinWait();
                    }
                    return null;
                }
                finally
                {
                    secondEnded.set(true);
                }
            });

        assertSame(first, assertThrows(IOException.class, () -> JobRunner.run(jobs, 2, "test-job")));
        assertTrue(secondEnded.get(), "the run ended while a job still ran");
        assertTrue(secondInterrupted.get(), "the later job was not interrupted");
    }

    @Test
    void noJobsGiveNoResultsAndNoThreadsIsRefused() throws IOException
    {
        assertEquals(List.of(), JobRunner.run(List.<JobRunner.Job<String>>of(), 2, "test-job"));
        assertThrows(IllegalArgumentException.class, () -> JobRunner.run(squares(3), 0, "test-job"));
    }

    private static void awaitBeside(final CountDownLatch latch)
    {
        try
        {
            assertTrue(latch.await(1, TimeUnit.MINUTES), "the second job ran beside the first");
        }
        catch (final InterruptedException ex)
        {
            throw new AssertionError(ex);
        }
    }

    private static List<JobRunner.Job<String>> failingAt(final int index, final JobRunner.Job<String> failing)
    {
        final List<JobRunner.Job<String>> jobs = new ArrayList<>(squares(6));
        jobs.set(index, failing);
        return jobs;
    }
}
