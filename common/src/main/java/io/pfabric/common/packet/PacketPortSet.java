package io.pfabric.common.packet;

import com.sun.jna.Memory;

/**
 * One wait for several {@link PacketPort}s and {@link XdpPort}s of one thread, which may belong to different network
 * namespaces: a {@code ppoll(2)} on every port's socket and on every port's wake-up eventfd, so that a frame on any
 * port, or {@link PacketPort#wakeup()} ({@link XdpPort#wakeup()}) of any port, or the wake-up of a
 * {@link PortSetWaker} in the set, from another thread, ends it. Owner thread only, apart from the wake-ups.
 */
public final class PacketPortSet
{
    private static final int POLLFD_LENGTH = 8;
    private static final int REVENTS_OFFSET = 6;

    private final PolledPort[] ports;
    private final Memory pollFds;
    private final Memory pollTimeout = new Memory(16);
    private int count;

    /**
     * An empty set.
     *
     * @param capacity most ports it will hold.
     */
    public PacketPortSet(final int capacity)
    {
        if (capacity < 1)
        {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        ports = new PolledPort[capacity];
        pollFds = new Memory(2L * capacity * POLLFD_LENGTH);
        pollFds.clear();
    }

    /**
     * Wait on a port too.
     *
     * @param port open, owned by the calling thread.
     * @throws IllegalStateException if the set is full.
     */
    public void add(final PacketPort port)
    {
        addPort(port);
    }

    /**
     * Wait on an AF_XDP port too.
     *
     * @param port open, owned by the calling thread.
     * @throws IllegalStateException if the set is full.
     */
    public void add(final XdpPort port)
    {
        addPort(port);
    }

    /**
     * Have a waker's {@link PortSetWaker#wakeup()} end a wait too.
     *
     * @param waker open.
     * @throws IllegalStateException if the set is full.
     */
    public void add(final PortSetWaker waker)
    {
        addPort(waker);
    }

    private void addPort(final PolledPort port)
    {
        if (count == ports.length)
        {
            throw new IllegalStateException("the set holds " + count + " ports already");
        }
        ports[count++] = port;
        rewrite();
    }

    /**
     * Stop waiting on a port (before it is closed).
     *
     * @param port in the set or not.
     */
    public void remove(final FramePort port)
    {
        for (int i = 0; i < count; i++)
        {
            if (ports[i] == port)
            {
                System.arraycopy(ports, i + 1, ports, i, count - i - 1);
                ports[--count] = null;
                rewrite();
                return;
            }
        }
    }

    /**
     * Ports in the set.
     *
     * @return the count.
     */
    public int size()
    {
        return count;
    }

    private void rewrite()
    {
        pollFds.clear();
        for (int i = 0; i < count; i++)
        {
            final long at = 2L * i * POLLFD_LENGTH;
            pollFds.setInt(at, ports[i].receiveFd());
            pollFds.setShort(at + 4, (short)LibC.POLLIN);
            pollFds.setInt(at + POLLFD_LENGTH, ports[i].wakeFd());
            pollFds.setShort(at + POLLFD_LENGTH + 4, (short)LibC.POLLIN);
        }
    }

    /**
     * Wait until a port may hold a frame, a port's {@link PacketPort#wakeup()} is called or the timeout passes, to
     * the nanosecond (as the thread's timer slack allows); at once if a frame already waits.
     *
     * @param timeoutNs longest wait.
     * @return true if a port may hold frames.
     */
    public boolean await(final long timeoutNs)
    {
        for (int i = 0; i < count; i++)
        {
            if (ports[i].frameWaiting())
            {
                return true;
            }
        }
        final long waitNs = Math.max(0, timeoutNs);
        pollTimeout.setLong(0, waitNs / 1_000_000_000L);
        pollTimeout.setLong(8, waitNs % 1_000_000_000L);
        for (int i = 0; i < 2 * count; i++)
        {
            pollFds.setShort((long)i * POLLFD_LENGTH + REVENTS_OFFSET, (short)0);
        }
        if (LibC.ppoll(pollFds, 2L * count, pollTimeout, null) <= 0)
        {
            return false;
        }
        boolean frames = false;
        for (int i = 0; i < count; i++)
        {
            final long at = 2L * i * POLLFD_LENGTH;
            frames |= 0 != pollFds.getShort(at + REVENTS_OFFSET);
            if (0 != pollFds.getShort(at + POLLFD_LENGTH + REVENTS_OFFSET))
            {
                ports[i].drainWakeup();
            }
        }
        return frames;
    }
}
