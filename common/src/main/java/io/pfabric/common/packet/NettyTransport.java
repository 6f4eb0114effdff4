package io.pfabric.common.packet;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringDatagramChannel;
import io.netty.channel.uring.IoUringIoHandler;

import java.io.IOException;
import java.util.Locale;

/**
 * Netty's native Linux transports that carry the project's UDP traffic: epoll, the default, or io_uring.
 */
public enum NettyTransport
{
    /**
     * epoll, the default.
     */
    EPOLL,

    /**
     * io_uring.
     */
    IO_URING;

    /**
     * The transport named on a command line or in a configuration.
     *
     * @param name {@code epoll} or {@code io_uring} (also {@code io-uring}, {@code iouring}), any case.
     * @return the transport.
     * @throws IllegalArgumentException for another name.
     */
    public static NettyTransport named(final String name)
    {
        return switch (name.toLowerCase(Locale.ROOT).replace("-", "_"))
        {
            case "epoll" -> EPOLL;
            case "io_uring", "iouring" -> IO_URING;
            default -> throw new IllegalArgumentException("unknown UDP transport '" + name + "'; use epoll or io_uring");
        };
    }

    /**
     * Fail unless this kernel and platform can run the transport.
     *
     * @throws IOException naming why the transport is unavailable.
     */
    public void ensureAvailable() throws IOException
    {
        if (IO_URING == this)
        {
            if (!IoUring.isAvailable())
            {
                throw new IOException("Netty's io_uring transport is not available: " + IoUring.unavailabilityCause());
            }
        }
        else if (!Epoll.isAvailable())
        {
            throw new IOException("Netty's epoll transport is not available: " + Epoll.unavailabilityCause());
        }
    }

    /**
     * The I/O handler of a loop that drives this transport's channels.
     *
     * @return the factory.
     */
    public IoHandlerFactory ioHandlerFactory()
    {
        return IO_URING == this ? IoUringIoHandler.newFactory() : EpollIoHandler.newFactory();
    }

    /**
     * A new, unregistered IPv4 datagram channel of this transport.
     *
     * @return the channel.
     */
    public DatagramChannel newDatagramChannel()
    {
        return IO_URING == this ? new IoUringDatagramChannel() : new EpollDatagramChannel();
    }
}
