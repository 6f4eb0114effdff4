package io.pfabric.common.packet;

import com.sun.jna.Memory;
import com.sun.jna.Native;

/**
 * Real-time scheduling for the one thread of a daemon that carries packets (a switch's forwarder, the thread of one
 * host's transport or of several hosts' sharing one). Under Linux's fair scheduler a thread woken by a packet or its
 * pacer waits for whatever thread of equal weight holds the core, up to that thread's slice: on two cores shared
 * with the daemons' JIT compilers and a {@code pfabric send} client's start, such threads were measured waiting 1 to
 * 13 ms, longer than a flow's retransmission timeout on an emulated fabric.
 * {@code SCHED_FIFO} at the lowest real-time priority runs the thread as soon as it wakes, ahead of every ordinary
 * thread; the kernel still keeps 5% of each core for ordinary threads. Threads it starts later do not inherit it
 * ({@code SCHED_RESET_ON_FORK}). It needs root or {@code CAP_SYS_NICE}; without them the thread stays as it was.
 * <p>
 * On by default for a thread {@link DataPathPlacement} placed apart (a forwarder on a core of its own, a host's
 * thread off the forwarders' cores), off otherwise; {@code pfabric.realtime=true} asks for it everywhere,
 * {@code false} nowhere. Without the placement, some flows stalled for 80 to 140 ms with it, more often than without:
 * a real-time forwarder spinning on a core the hosts also needed. With it, a lone 1 Gb/s flow on two cores had 3
 * timeouts in ninety flows (all in one), against 44 in sixty at nice -20 alone: an ordinary thread (a JIT compiler,
 * a client starting) kept a data-path thread's core for the rest of its slice, up to 4 ms, longer than the flow's
 * timeout (hostd/README.md, "A lone flow"). A real-time thread that never sleeps leaves the ordinary threads of its
 * core the 5% the kernel keeps for them.
 */
public final class DataPathScheduling
{
    /**
     * The real-time priority taken: the lowest, above every ordinary thread and below anything else real-time.
     */
    public static final int PRIORITY = 1;

    private static final int SCHED_FIFO = 1;
    private static final int SCHED_RESET_ON_FORK = 0x40000000;

    private DataPathScheduling()
    {
    }

    /**
     * Whether data-path threads ask for real-time scheduling: the system property {@code pfabric.realtime} is
     * {@code true}.
     *
     * @return whether {@link #raiseCurrentThread(boolean)} asks whatever the placement.
     */
    public static boolean enabled()
    {
        return "true".equalsIgnoreCase(System.getProperty("pfabric.realtime"));
    }

    /**
     * Run the calling thread under {@code SCHED_FIFO} at {@link #PRIORITY} if permitted and either asked for
     * ({@code pfabric.realtime=true}) or, unless {@code pfabric.realtime=false}, placed apart: a forwarder on a core of
     * its own, or a host's thread kept off the forwarders' cores ({@link DataPathPlacement#apart()}).
     *
     * @param apart whether {@link DataPathPlacement} placed the thread apart.
     * @return null if the thread now runs real-time; else why not, in a few words.
     */
    public static String raiseCurrentThread(final boolean apart)
    {
        final String asked = System.getProperty("pfabric.realtime");
        if (!enabled() && !(apart && null == asked))
        {
            return "false".equalsIgnoreCase(asked) ? "turned off (pfabric.realtime=false)" :
                "not asked for (pfabric.realtime=true asks; a data path placed apart asks by itself)";
        }
        try (Memory parameters = new Memory(Integer.BYTES))
        {
            parameters.setInt(0, PRIORITY);
            if (0 == LibC.sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, parameters))
            {
                return null;
            }
            final int errno = Native.getLastError();
            return LibC.EPERM == errno ? "not permitted (needs root or CAP_SYS_NICE)" : LibC.strerror(errno);
        }
    }

    /**
     * Whether the calling thread runs under {@code SCHED_FIFO}.
     *
     * @return true if it does.
     */
    public static boolean isCurrentThreadRealtime()
    {
        return SCHED_FIFO == (LibC.sched_getscheduler(0) & ~SCHED_RESET_ON_FORK);
    }
}
