package io.pfabric.common.packet;

import com.sun.jna.Memory;
import com.sun.jna.Native;

/**
 * An eventfd that ends a {@link PacketPortSet}'s wait from another thread, owned by the waiting side rather than by
 * one of its ports: a port can be closed and replaced while other threads may still wake the set, and writing to a
 * closed port's descriptor could reach whatever file took its number since.
 */
public final class PortSetWaker implements PolledPort, AutoCloseable
{
    private final int fd;
    private final Memory one = new Memory(8);
    private final Memory drain = new Memory(8);
    private boolean closed;

    /**
     * A waker with an eventfd of its own.
     *
     * @throws PacketSocketException if the eventfd cannot be had.
     */
    public PortSetWaker() throws PacketSocketException
    {
        fd = LibC.eventfd(0, LibC.EFD_NONBLOCK | LibC.EFD_CLOEXEC);
        if (fd < 0)
        {
            throw PacketSocketException.fromErrno("opening an eventfd", "a port set's waker", Native.getLastError());
        }
        one.setLong(0, 1);
    }

    /**
     * End a wait of a set holding this waker now, or its next one at once. Any thread, while the waker is open.
     */
    public void wakeup()
    {
        LibC.write(fd, one, 8);
    }

    /**
     * {@inheritDoc}
     * <p>
     * None: {@code ppoll} ignores a negative descriptor.
     */
    public int receiveFd()
    {
        return -1;
    }

    /**
     * {@inheritDoc}
     */
    public int wakeFd()
    {
        return fd;
    }

    /**
     * {@inheritDoc}
     */
    public boolean frameWaiting()
    {
        return false;
    }

    /**
     * {@inheritDoc}
     */
    public void drainWakeup()
    {
        LibC.read(fd, drain, 8);
    }

    /**
     * Close the eventfd, once no thread will wake the set any more.
     */
    public void close()
    {
        if (!closed)
        {
            closed = true;
            LibC.close(fd);
        }
    }
}
