package io.pfabric.common.packet;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;
import io.netty.channel.DefaultChannelPromise;
import io.netty.channel.ManualIoEventLoop;

import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.SocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * Opening and closing a Netty channel on a {@link ManualIoEventLoop} from the loop's owning thread, which runs the
 * loop itself until each step is done, with a bound on the time and on the number of runs.
 */
public final class ManualLoopChannels
{
    private static final long STEP_TIMEOUT_NS = 5_000_000_000L;
    private static final int CLOSE_RUNS = 100;

    private ManualLoopChannels()
    {
    }

    /**
     * Register a channel with the loop and bind it.
     *
     * @param loop    the loop, owned by the calling thread.
     * @param channel a new channel of the loop's transport.
     * @param local   the address to bind.
     * @throws IOException if registration or the bind fails or takes more than 5 s.
     */
    public static void registerAndBind(final ManualIoEventLoop loop, final Channel channel, final SocketAddress local)
        throws IOException
    {
        final ChannelPromise registered = new DefaultChannelPromise(channel, loop);
        channel.unsafe().register(loop, registered);
        await(loop, registered, "register the UDP channel");
        await(loop, channel.bind(local), "bind " + local);
    }

    /**
     * Flush what the channel holds, close it and shut the loop down.
     *
     * @param loop    the loop, owned by the calling thread.
     * @param channel the channel, or null if none was made.
     */
    public static void close(final ManualIoEventLoop loop, final Channel channel)
    {
        closeChannel(loop, channel);
        loop.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
        for (int i = 0; i < CLOSE_RUNS && !loop.isTerminated(); i++)
        {
            loop.runNow();
        }
    }

    /**
     * Flush what the channel holds and close it, leaving the loop running for its other channels.
     *
     * @param loop    the loop, owned by the calling thread.
     * @param channel the channel, or null if none was made.
     */
    public static void closeChannel(final ManualIoEventLoop loop, final Channel channel)
    {
        if (null != channel)
        {
            channel.flush();
            for (int i = 0; i < CLOSE_RUNS && channel.isActive() && null != channel.unsafe().outboundBuffer() &&
                !channel.unsafe().outboundBuffer().isEmpty(); i++)
            {
                loop.runNow();
            }
            channel.close();
            for (int i = 0; i < CLOSE_RUNS && channel.isOpen(); i++)
            {
                loop.runNow();
            }
        }
    }

    /**
     * A new direct buffer for an outgoing datagram of a given length, already counted as written, with a view over
     * its bytes for the caller to fill.
     *
     * @param channel whose allocator to use.
     * @param length  of the datagram.
     * @param view    wrapped over the datagram's bytes.
     * @return the buffer, to be written to the channel (which releases it).
     */
    public static ByteBuf newDatagram(final Channel channel, final int length, final UnsafeBuffer view)
    {
        final ByteBuf datagram = channel.alloc().directBuffer(length);
        append(datagram, length, view);
        return datagram;
    }

    /**
     * Count a number of bytes after a buffer's written ones as written, with a view over them for the caller to
     * fill.
     *
     * @param buffer a direct buffer with room for them.
     * @param length bytes to add.
     * @param view   wrapped over the added bytes.
     */
    public static void append(final ByteBuf buffer, final int length, final UnsafeBuffer view)
    {
        final int at = buffer.writerIndex();
        if (buffer.hasMemoryAddress())
        {
            view.wrap(buffer.memoryAddress() + at, length);
        }
        else
        {
            view.wrap(buffer.nioBuffer(at, length));
        }
        buffer.writerIndex(at + length);
    }

    /**
     * Wrap a view over the readable bytes of a received buffer, valid while the buffer is.
     *
     * @param content the received bytes.
     * @param view    wrapped over them.
     * @return their length.
     */
    public static int wrapReadable(final ByteBuf content, final UnsafeBuffer view)
    {
        final int length = content.readableBytes();
        if (content.hasMemoryAddress())
        {
            view.wrap(content.memoryAddress() + content.readerIndex(), length);
        }
        else
        {
            view.wrap(content.nioBuffer(content.readerIndex(), length));
        }
        return length;
    }

    private static void await(final ManualIoEventLoop loop, final ChannelFuture future, final String what)
        throws IOException
    {
        final long deadlineNs = System.nanoTime() + STEP_TIMEOUT_NS;
        while (!future.isDone() && System.nanoTime() - deadlineNs < 0)
        {
            loop.runNow();
        }
        if (!future.isSuccess())
        {
            final Throwable cause = future.cause();
            throw new IOException("cannot " + what + ": " + (null == cause ? "timed out" : cause.getMessage()), cause);
        }
    }
}
