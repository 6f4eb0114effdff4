package io.pfabric.common.os;

import com.sun.jna.Memory;
import com.sun.jna.Native;

/**
 * The kernel's scheduler tick (1/HZ): the resolution of {@code CLOCK_MONOTONIC_COARSE}, which the kernel advances once
 * per tick. A thread that has used up its slice keeps its core until the next tick notices; at HZ=250 that is up to
 * 4 ms.
 */
public final class SchedulerTick
{
    /**
     * What {@link #periodNs()} gives where the kernel cannot be asked: the tick of HZ=250, the longest of the usual
     * settings (1000, 300, 250) but for 100.
     */
    public static final long FALLBACK_PERIOD_NS = 4_000_000;

    private static final int CLOCK_MONOTONIC_COARSE = 6;
    private static final long PERIOD_NS = askKernel();

    private SchedulerTick()
    {
    }

    /**
     * @return the tick in nanoseconds, such as 1,000,000 at HZ=1000 and 4,000,000 at HZ=250.
     */
    public static long periodNs()
    {
        return PERIOD_NS;
    }

    private static long askKernel()
    {
        try
        {
            Native.register(SchedulerTick.class, "c");
            final Memory timespec = new Memory(16);
            if (0 != clock_getres(CLOCK_MONOTONIC_COARSE, timespec))
            {
                return FALLBACK_PERIOD_NS;
            }
            final long periodNs = timespec.getLong(0) * 1_000_000_000L + timespec.getLong(8);
            return periodNs > 0 ? periodNs : FALLBACK_PERIOD_NS;
        }
        catch (final UnsatisfiedLinkError | RuntimeException ex)
        {
            return FALLBACK_PERIOD_NS;
        }
    }

    private static native int clock_getres(int clockId, Memory timespec);
}
