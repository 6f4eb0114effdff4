package io.pfabric.testsupport;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Waits until a condition holds, or fails the test when a deadline passes first. The one way tests here wait for
 * something to happen: a test never sleeps and then asserts.
 */
public final class Await
{
    private static final long POLL_NS = 1_000_000L;

    private Await()
    {
    }

    /**
     * Polls a condition about once a millisecond until it holds.
     *
     * @param condition   what to wait for; evaluated on the calling thread.
     * @param timeout     how long to wait at most.
     * @param description what the condition means, for the failure message ("the forgery reached h1").
     * @throws AssertionError if the timeout passes with the condition still false.
     */
    public static void await(final BooleanSupplier condition, final Duration timeout, final String description)
    {
        final long deadlineNs = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadlineNs >= 0)
            {
                if (condition.getAsBoolean())
                {
                    return;
                }
                fail("timed out after " + timeout.toMillis() + " ms waiting until " + description);
            }
            LockSupport.parkNanos(POLL_NS);
            if (Thread.interrupted())
            {
                Thread.currentThread().interrupt();
                fail("interrupted waiting until " + description);
            }
        }
    }
}
