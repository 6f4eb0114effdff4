package io.pfabric.common.packet;

/**
 * The calling thread's timer slack: how late Linux may wake a thread from a timed sleep so that it can batch
 * wake-ups (50 µs by default). A data-path thread that parks for microseconds when idle sets it to 1 ns so that a
 * 50 µs park is not a 100 µs one.
 */
public final class TimerSlack
{
    private static final int PR_SET_TIMERSLACK = 29;

    private TimerSlack()
    {
    }

    /**
     * Set the calling thread's timer slack.
     *
     * @param slackNs nanoseconds, at least 1.
     * @return true if the kernel took it.
     */
    public static boolean setForCurrentThread(final long slackNs)
    {
        return 0 == LibC.prctl(PR_SET_TIMERSLACK, Math.max(1, slackNs), 0, 0, 0);
    }
}
