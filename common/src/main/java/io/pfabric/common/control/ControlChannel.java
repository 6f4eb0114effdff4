package io.pfabric.common.control;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.ManualIoEventLoop;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.DatagramPacket;
import io.pfabric.common.packet.ManualLoopChannels;
import io.pfabric.common.packet.NettyTransport;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * The UDP socket of a controller or a host's control session, one of Netty's native datagram channels on a
 * {@link ManualIoEventLoop} that the owning thread runs from {@link #poll}, so messages are handled on that thread.
 * Replies go to the addresses the topology gives, never to a datagram's source address.
 */
public final class ControlChannel implements AutoCloseable
{
    /**
     * Receives each datagram, in a buffer valid only during the call.
     */
    @FunctionalInterface
    public interface DatagramHandler
    {
        /**
         * One datagram.
         *
         * @param buffer holding it.
         * @param offset of its first byte.
         * @param length of the datagram.
         */
        void onDatagram(MutableDirectBuffer buffer, int offset, int length);
    }

    /**
     * Most datagrams one {@link #poll} or {@link #await} hands over: however full the socket, its owner gets back to
     * its other work after this many.
     */
    public static final int MAX_DATAGRAMS_PER_POLL = 32;

    private final ManualIoEventLoop loop;
    private final DatagramChannel channel;
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer txView = new UnsafeBuffer(0, 0);
    private DatagramHandler handler;
    private int taken;
    private long sendFailures;

    private ControlChannel(final ManualIoEventLoop loop, final DatagramChannel channel)
    {
        this.loop = loop;
        this.channel = channel;
    }

    /**
     * Bind a control socket; the calling thread becomes its owner.
     *
     * @param local     address and port to bind (port 0: any free port).
     * @param transport epoll or io_uring.
     * @return the channel.
     * @throws IOException if the transport is unavailable or the address cannot be bound.
     */
    public static ControlChannel open(final InetSocketAddress local, final NettyTransport transport)
        throws IOException
    {
        transport.ensureAvailable();
        final ManualIoEventLoop loop = new ManualIoEventLoop(Thread.currentThread(), transport.ioHandlerFactory());
        final DatagramChannel channel = transport.newDatagramChannel();
        channel.config().setRecvByteBufAllocator(
            new FixedRecvByteBufAllocator(ControlMessageFlyweight.MAX_MESSAGE_LENGTH + 1)
                .maxMessagesPerRead(MAX_DATAGRAMS_PER_POLL));
        final ControlChannel control = new ControlChannel(loop, channel);
        channel.pipeline().addLast(control.new Inbound());
        try
        {
            ManualLoopChannels.registerAndBind(loop, channel, local);
        }
        catch (final IOException ex)
        {
            ManualLoopChannels.close(loop, channel);
            throw new IOException("control socket " + local + ": " + ex.getMessage(), ex);
        }
        return control;
    }

    /**
     * The bound address.
     *
     * @return address and port.
     */
    public InetSocketAddress localAddress()
    {
        return channel.localAddress();
    }

    /**
     * Run the loop once: send what was written, hand each datagram that arrived to the handler.
     *
     * @param datagramHandler given each datagram.
     * @return datagrams received.
     */
    public int poll(final DatagramHandler datagramHandler)
    {
        handler = datagramHandler;
        taken = 0;
        loop.runNow();
        return taken;
    }

    /**
     * Wait up to a time for datagrams, handing each to the handler.
     *
     * @param datagramHandler given each datagram.
     * @param timeoutNs       longest wait.
     * @return datagrams received.
     */
    public int await(final DatagramHandler datagramHandler, final long timeoutNs)
    {
        handler = datagramHandler;
        taken = 0;
        loop.run(timeoutNs);
        return taken;
    }

    /**
     * Send a datagram; it leaves when the loop next runs or at once with epoll.
     *
     * @param destination where to.
     * @param buffer      holding it.
     * @param offset      of its first byte.
     * @param length      of the datagram.
     * @return false if the socket would not take it (counted).
     */
    public boolean send(
        final InetSocketAddress destination, final DirectBuffer buffer, final int offset, final int length)
    {
        if (!channel.isActive() || !channel.isWritable())
        {
            sendFailures++;
            return false;
        }
        final ByteBuf datagram = ManualLoopChannels.newDatagram(channel, length, txView);
        txView.putBytes(0, buffer, offset, length);
        channel.writeAndFlush(new DatagramPacket(datagram, destination), channel.voidPromise());
        return true;
    }

    /**
     * Datagrams the socket would not take or reported an error for.
     *
     * @return the count.
     */
    public long sendFailures()
    {
        return sendFailures;
    }

    /**
     * Close the socket; from the owning thread.
     */
    public void close()
    {
        ManualLoopChannels.close(loop, channel);
    }

    private final class Inbound extends ChannelInboundHandlerAdapter
    {
        public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
        {
            sendFailures++;
        }

        public void channelRead(final ChannelHandlerContext ctx, final Object message)
        {
            final DatagramPacket packet = (DatagramPacket)message;
            try
            {
                taken++;
                final int length = ManualLoopChannels.wrapReadable(packet.content(), view);
                if (null != handler)
                {
                    handler.onDatagram(view, 0, length);
                }
            }
            finally
            {
                packet.release();
            }
        }
    }
}
