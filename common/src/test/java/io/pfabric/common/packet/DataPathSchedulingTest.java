package io.pfabric.common.packet;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class DataPathSchedulingTest
{
    private static boolean root()
    {
        return "root".equals(System.getProperty("user.name"));
    }

    @AfterEach
    void clearProperty()
    {
        System.clearProperty("pfabric.realtime");
    }

    @Test
    void aRaisedThreadRunsRealTimeAndTheThreadsItStartsDoNot() throws Exception
    {
        assumeTrue(root(), "real-time scheduling needs root or CAP_SYS_NICE");
        System.setProperty("pfabric.realtime", "true");
        final AtomicReference<String> refusal = new AtomicReference<>("not run");
        final AtomicBoolean raised = new AtomicBoolean();
        final AtomicBoolean childRaised = new AtomicBoolean(true);
        final CompletableFuture<Void> done = new CompletableFuture<>();
        final Thread thread = new Thread(() ->
        {
            refusal.set(DataPathScheduling.raiseCurrentThread(false));
            raised.set(DataPathScheduling.isCurrentThreadRealtime());
            final Thread child = new Thread(() -> childRaised.set(DataPathScheduling.isCurrentThreadRealtime()));
            child.start();
            try
            {
                child.join();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            done.complete(null);
        });
        thread.start();
        done.get();
        thread.join();
        assertNull(refusal.get(), "raised");
        assertTrue(raised.get(), "the thread runs SCHED_FIFO");
        assertFalse(childRaised.get(), "a thread it starts runs at ordinary priority");
        assertFalse(DataPathScheduling.isCurrentThreadRealtime(), "the caller's own thread is untouched");
    }

    private static String raisedOnNewThread(final boolean apart, final AtomicBoolean raised) throws Exception
    {
        final AtomicReference<String> refusal = new AtomicReference<>("not run");
        final Thread thread = new Thread(() ->
        {
            refusal.set(DataPathScheduling.raiseCurrentThread(apart));
            raised.set(DataPathScheduling.isCurrentThreadRealtime());
        });
        thread.start();
        thread.join();
        return refusal.get();
    }

    @Test
    void aThreadPlacedApartRunsRealTimeUnlessTurnedOff() throws Exception
    {
        assumeTrue(root(), "real-time scheduling needs root or CAP_SYS_NICE");
        final AtomicBoolean raised = new AtomicBoolean();
        assertNull(raisedOnNewThread(true, raised), "raised");
        assertTrue(raised.get(), "a thread placed apart runs SCHED_FIFO without being asked");

        System.setProperty("pfabric.realtime", "false");
        final String refusal = raisedOnNewThread(true, raised);
        assertTrue(refusal.contains("pfabric.realtime=false"), refusal);
        assertFalse(raised.get(), "pfabric.realtime=false keeps it at ordinary priority");
    }

    @Test
    void unlessAskedForItLeavesTheThreadAsItWasAndSaysWhy() throws Exception
    {
        final AtomicReference<String> refusal = new AtomicReference<>();
        final AtomicBoolean raised = new AtomicBoolean(true);
        final Thread thread = new Thread(() ->
        {
            refusal.set(DataPathScheduling.raiseCurrentThread(false));
            raised.set(DataPathScheduling.isCurrentThreadRealtime());
        });
        thread.start();
        thread.join();
        assertTrue(refusal.get().contains("pfabric.realtime=true"), refusal.get());
        assertFalse(raised.get(), "the thread stays at ordinary priority");
    }
}
