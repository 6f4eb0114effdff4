package io.pfabric.switchd;

import io.pfabric.common.packet.FramePort;
import io.pfabric.common.packet.PacketPort;
import io.pfabric.common.packet.PacketPortSet;
import io.pfabric.common.packet.PacketSocketException;
import io.pfabric.common.packet.PortSetWaker;
import io.pfabric.common.packet.XdpPort;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

import java.util.concurrent.locks.LockSupport;

/**
 * How the thread of one or more forwarders waits between duty cycles: it sleeps in the kernel, in one {@code ppoll} on
 * every port's packet or AF_XDP socket, until a frame arrives, a command is offered or the forwarders' next deadline
 * comes (a paced port's next departure, the next link check: {@link Forwarder#idleWaitNs(long)}). It sleeps until
 * {@link #SPIN_NS} before the deadline and spins the rest, because a sleeping thread wakes late (on the 2-core VM the
 * project is measured on, a 100 µs {@code nanosleep} with 1 ns of timer slack returned 26 µs late at the median, 44 µs
 * at the 99th percentile): a departure after a sleep to the deadline itself left that much late, and a port whose
 * backlogged stretches are a few frames long, as pFabric's are, fell below 95% of its rate in 46% of its backlogged
 * time ({@code pfabric demo}, issue 34). So at 100 Mb/s a switch with a backlog sleeps most of the 122 µs between its
 * departures, and at a line rate whose frames leave a few microseconds apart it spins while it has a backlog, as it
 * must to pace them.
 * <p>
 * Why it does not spin or poll on a timer when idle: on a machine with few cores the switch shares them with the hosts'
 * threads, and every microsecond it spins, or every wake-up of a timed park that finds nothing to do, is taken from
 * a host that has a packet to answer. A host stalled for its timeout while its packets wait times the flow out.
 * <p>
 * A real-time thread (the forwarder on a core of its own runs {@code SCHED_FIFO}) that spins leaves the ordinary
 * threads of its core, the kernel's per-core workers among them, nothing until the kernel's fair server steps in and
 * runs them for milliseconds at a time (on a 6.18 kernel: the forwarder preempted for 2-7 ms at a time, 2.6-2.8% of
 * the time, and a port paced at 1 Gb/s under a 1500-byte flood delivered 0.96 of its rate). So while it spins
 * between departures it parks for {@link #GIVE_BACK_NS} once every {@link #GIVE_BACK_EVERY_NS} it has not slept:
 * the waiting threads run in short gaps, the fair server has nothing to do, and a backlogged port makes up the gap
 * ({@link io.pfabric.dataplane.pacer.EgressPacer#onBackloggedRelease(long, int, long)}); the same port then
 * delivered 0.98-0.99. A thread with work in every duty cycle (a port at 10 Gb/s that takes its whole core) is left
 * alone: there a gap would be link time lost.
 * <p>
 * A port that is not a packet socket (VXLAN) cannot be waited on here: with such a port the thread parks instead, from
 * 1 µs doubling to {@link #MAX_PARK_NS} while nothing happens, never past the next deadline.
 * <p>
 * A port whose interface is gone has no socket and is left out of the wait, which the next link check ends anyway; the
 * wait is built again whenever a forwarder replaces a port's I/O ({@link Forwarder#checkLinks()}). Offers wake the wait
 * through an eventfd of the strategy's own, which no port's closing can take away; {@link #close()} closes it.
 */
public final class ForwarderIdleStrategy implements IdleStrategy, AutoCloseable
{
    /**
     * The last part of every wait, spun rather than slept: longer than a sleeping thread takes to be woken on almost
     * every wake-up.
     */
    public static final long SPIN_NS = 50_000;

    /**
     * Longest park between looks at the ports when they cannot be waited on.
     */
    public static final long MAX_PARK_NS = 50_000;

    /**
     * Longest a real-time forwarders' thread spins between departures without having slept: it then parks for
     * {@link #GIVE_BACK_NS} instead, so that the ordinary threads waiting for its core run in the gap.
     */
    public static final long GIVE_BACK_EVERY_NS = 1_000_000;

    /**
     * How long it then parks: long enough that the kernel puts it to sleep (a park of a microsecond or so has expired
     * before the thread could block, and returns without giving the core up).
     */
    public static final long GIVE_BACK_NS = 20_000;

    private static final long MIN_PARK_NS = 1_000;
    private static final long SLEPT_NS = 10_000;

    private final Forwarder[] forwarders;
    private final PortSetWaker waker;
    private final NanoClock clock;
    private PacketPortSet ports;
    private int portsVersion;
    private long parkNs = MIN_PARK_NS;
    private long sleptNs;

    /**
     * An idle strategy for forwarders that run on one thread, such as a {@code CompositeAgent} of them. Their ports'
     * sockets must stay open while it is used, but for those a forwarder replaces itself; an offer to any of the
     * forwarders ends a wait in progress.
     *
     * @param forwarders the forwarders the thread runs.
     */
    public ForwarderIdleStrategy(final Forwarder... forwarders)
    {
        this(new SystemNanoClock(), forwarders);
    }

    /**
     * An idle strategy for forwarders that run on one thread.
     *
     * @param clock      the forwarders' clock.
     * @param forwarders the forwarders the thread runs.
     */
    public ForwarderIdleStrategy(final NanoClock clock, final Forwarder... forwarders)
    {
        this.forwarders = forwarders.clone();
        this.clock = clock;
        boolean allPacketPorts = true;
        int packetPorts = 0;
        for (final Forwarder forwarder : forwarders)
        {
            for (final SwitchPort port : forwarder.ports())
            {
                final FramePort io = port.io();
                if (io instanceof PacketPort || io instanceof XdpPort)
                {
                    packetPorts++;
                }
                else if (!(io instanceof GonePort))
                {
                    allPacketPorts = false;
                }
            }
        }
        if (allPacketPorts && packetPorts > 0)
        {
            try
            {
                waker = new PortSetWaker();
            }
            catch (final PacketSocketException ex)
            {
                throw new IllegalStateException(ex.getMessage(), ex);
            }
            portsVersion = portsVersion();
            ports = waitSet();
            for (final Forwarder forwarder : forwarders)
            {
                forwarder.wakeOnOffer(waker::wakeup);
            }
        }
        else
        {
            waker = null;
        }
    }

    private int portsVersion()
    {
        int version = 0;
        for (final Forwarder forwarder : forwarders)
        {
            version += forwarder.portsVersion();
        }
        return version;
    }

    private PacketPortSet waitSet()
    {
        int count = 0;
        for (final Forwarder forwarder : forwarders)
        {
            for (final SwitchPort port : forwarder.ports())
            {
                if (port.io() instanceof PacketPort || port.io() instanceof XdpPort)
                {
                    count++;
                }
            }
        }
        final PacketPortSet set = new PacketPortSet(count + 1);
        set.add(waker);
        for (final Forwarder forwarder : forwarders)
        {
            for (final SwitchPort port : forwarder.ports())
            {
                if (port.io() instanceof PacketPort packetPort)
                {
                    set.add(packetPort);
                }
                else if (port.io() instanceof XdpPort xdpPort)
                {
                    set.add(xdpPort);
                }
            }
        }
        return set;
    }

    /**
     * Whether the thread sleeps in the ports' sockets (every port is a packet socket) rather than parking.
     *
     * @return true if it waits in the ports.
     */
    public boolean waitsInPorts()
    {
        return null != waker;
    }

    /**
     * {@inheritDoc}
     * <p>
     * Decides from the forwarders' state, not from the work count: a forwarder with a backlog reports work so that
     * other idle strategies keep polling.
     */
    public void idle(final int workCount)
    {
        long waitNs = Long.MAX_VALUE;
        final long nowNs = clock.nanoTime();
        for (final Forwarder forwarder : forwarders)
        {
            waitNs = Math.min(waitNs, forwarder.idleWaitNs(nowNs));
        }
        if (waitNs <= 0)
        {
            parkNs = MIN_PARK_NS;
            return;
        }
        if (waitNs <= SPIN_NS)
        {
            if (nowNs - sleptNs >= GIVE_BACK_EVERY_NS)
            {
                sleptNs = nowNs;
                if (null == forwarders[0].realtimeRefusal())
                {
                    LockSupport.parkNanos(GIVE_BACK_NS);
                    return;
                }
            }
            Thread.onSpinWait();
            return;
        }
        if (null != waker)
        {
            final int version = portsVersion();
            if (version != portsVersion)
            {
                portsVersion = version;
                ports = waitSet();
            }
            ports.await(waitNs - SPIN_NS);
            noteSleep(nowNs);
            return;
        }
        LockSupport.parkNanos(Math.min(waitNs, parkNs));
        parkNs = Math.min(MAX_PARK_NS, parkNs << 1);
        noteSleep(nowNs);
    }

    private void noteSleep(final long beforeNs)
    {
        final long afterNs = clock.nanoTime();
        if (afterNs - beforeNs >= SLEPT_NS)
        {
            sleptNs = afterNs;
        }
    }

    /**
     * {@inheritDoc}
     */
    public void idle()
    {
        idle(0);
    }

    /**
     * {@inheritDoc}
     */
    public void reset()
    {
        parkNs = MIN_PARK_NS;
    }

    /**
     * {@inheritDoc}
     */
    public String alias()
    {
        return "forwarder";
    }

    /**
     * Close the eventfd that offers wake the wait with, once the forwarders' thread has stopped and no offer will
     * come.
     */
    public void close()
    {
        if (null != waker)
        {
            waker.close();
        }
    }
}
