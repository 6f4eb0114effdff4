package io.pfabric.testsupport;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

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
        await(condition, timeout, () -> description);
    }

    /**
     * Polls a condition about once a millisecond until it holds, describing it only if it does not, so that the
     * failure can say what the test saw at the deadline (a daemon's log, a controller's counters).
     *
     * @param condition   what to wait for; evaluated on the calling thread.
     * @param timeout     how long to wait at most.
     * @param description what the condition means, and what was seen, for the failure message; asked for on failure.
     * @throws AssertionError if the timeout passes with the condition still false.
     */
    public static void await(
        final BooleanSupplier condition, final Duration timeout, final Supplier<String> description)
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
                fail("timed out after " + timeout.toMillis() + " ms waiting until " + description.get());
            }
            LockSupport.parkNanos(POLL_NS);
            if (Thread.interrupted())
            {
                Thread.currentThread().interrupt();
                fail("interrupted waiting until " + description.get());
            }
        }
    }
}
