package io.pfabric.testbed.control;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * How late the machine wakes a thread: a daemon thread that parks for 1 ms at a time and keeps the longest overshoot,
 * printed next to the switch's queue high water so that a run's queues can be read against its stalls (a switchd
 * thread that stalls finds what arrived meanwhile in its sockets and queues it at once).
 */
final class StallMeter implements AutoCloseable
{
    private static final long PARK_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private final Thread thread;
    private volatile boolean running = true;
    private volatile long longestOvershootNs;

    StallMeter()
    {
        thread = new Thread(this::run, "stall-meter");
        thread.setDaemon(true);
        thread.start();
    }

    private void run()
    {
        while (running)
        {
            final long startNs = System.nanoTime();
            LockSupport.parkNanos(PARK_NS);
            final long overshootNs = System.nanoTime() - startNs - PARK_NS;
            if (overshootNs > longestOvershootNs)
            {
                longestOvershootNs = overshootNs;
            }
        }
    }

    /**
     * @return the longest a 1 ms park overshot, ns.
     */
    long longestOvershootNs()
    {
        return longestOvershootNs;
    }

    /**
     * Stop the thread.
     */
    public void close()
    {
        running = false;
        LockSupport.unpark(thread);
    }
}
