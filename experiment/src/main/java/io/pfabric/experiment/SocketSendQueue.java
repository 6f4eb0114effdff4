package io.pfabric.experiment;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.Socket;
import java.nio.channels.SocketChannel;
import java.util.concurrent.locks.LockSupport;

/**
 * How much a kernel TCP socket holds that it has not yet sent, so that a PIAS host can change the socket's DSCP at a
 * byte boundary: the kernel sends buffered bytes under the TOS of the moment it transmits them, so the bytes written
 * before a threshold must have left before the TOS changes. The socket must be a {@link SocketChannel}'s (its file
 * descriptor is read through the JDK's own channel, which needs {@code --add-opens java.base/sun.nio.ch}).
 */
final class SocketSendQueue
{
    /**
     * Linux ioctl: bytes in a TCP socket's send queue not yet sent.
     */
    private static final long SIOCOUTQNSD = 0x894B;
    private static final long POLL_NS = 20_000;

    static
    {
        Native.register(SocketSendQueue.class, "c");
    }

    private final int fd;
    private final Memory value = new Memory(Integer.BYTES);

    private SocketSendQueue(final int fd)
    {
        this.fd = fd;
    }

    /**
     * The send queue of a socket made by {@link SocketChannel#open()}.
     *
     * @param socket the channel's socket.
     * @return its queue.
     * @throws IOException if the socket has no channel or its descriptor cannot be read.
     */
    static SocketSendQueue of(final Socket socket) throws IOException
    {
        final SocketChannel channel = socket.getChannel();
        if (null == channel)
        {
            throw new IOException("a PIAS host's socket must come from a SocketChannel");
        }
        try
        {
            final Method fdVal = channel.getClass().getMethod("getFDVal");
            fdVal.setAccessible(true);
            return new SocketSendQueue((int)fdVal.invoke(channel));
        }
        catch (final ReflectiveOperationException | RuntimeException ex)
        {
            throw new IOException("cannot read a socket's descriptor (run with --add-opens " +
                "java.base/sun.nio.ch=ALL-UNNAMED): " + ex, ex);
        }
    }

    /**
     * Bytes written to the socket that the kernel has not yet sent.
     *
     * @return the count.
     * @throws IOException if the kernel refuses.
     */
    int unsentBytes() throws IOException
    {
        if (0 != ioctl(fd, SIOCOUTQNSD, value))
        {
            throw new IOException("ioctl(SIOCOUTQNSD) failed: errno " + Native.getLastError());
        }
        return value.getInt(0);
    }

    /**
     * Wait until every byte written has been sent once.
     *
     * @throws IOException if the kernel refuses.
     */
    void awaitSent() throws IOException
    {
        while (unsentBytes() > 0)
        {
            LockSupport.parkNanos(POLL_NS);
        }
    }

    private static native int ioctl(int fd, long request, Pointer argument);
}
