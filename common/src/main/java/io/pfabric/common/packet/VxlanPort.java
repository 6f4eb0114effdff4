package io.pfabric.common.packet;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.ManualIoEventLoop;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.unix.UnixChannel;
import io.pfabric.common.wire.VxlanFlyweight;
import org.agrona.BitUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import java.nio.channels.UnsupportedAddressTypeException;

/**
 * A port that carries Ethernet frames in VXLAN (RFC 7348) over UDP to one peer: another switch's VXLAN port or a
 * Linux {@code vxlan} interface. The socket is one of Netty's native datagram channels, epoll by default or io_uring
 * ({@link NettyTransport}), registered with a {@link ManualIoEventLoop} that the data path's own thread runs from
 * {@link #receive}, so a frame is handled start to finish on that thread and never crosses threads.
 * <p>
 * The channel is made, registered and bound by {@link #claim()} or the first call from the data path's thread, which
 * a data path makes before it says it is ready; {@link #open} checks
 * beforehand that the transport is available and that the local address can be bound, so a bad address is reported
 * when the port is opened. All later calls must come from that same thread; {@link #close} may also come from another
 * thread once the data path has stopped.
 * <p>
 * Datagrams are accepted from the peer's address whatever their source port (VXLAN senders vary it for ECMP entropy);
 * those from other addresses, with another VNI, without the I flag, or carrying a frame shorter than an Ethernet
 * header or longer than {@link #maxFrameLength()} are counted in {@link #oversizeDrops()} and dropped. Per datagram
 * Netty allocates a small {@link DatagramPacket} envelope each way; the bytes live in its pooled direct buffers.
 * Needs no privilege.
 */
public final class VxlanPort implements FramePort
{
    private static final int VXLAN_HEADER_LENGTH = VxlanFlyweight.HEADER_LENGTH;
    private static final int ETHERNET_HEADER_LENGTH = 14;
    private static final int FLAG_I = 0x08;
    private static final int SOCKET_BUFFER_LENGTH = 4 * 1024 * 1024;
    private static final int MESSAGES_PER_READ = 32;

    private final NettyTransport transport;
    private final InetSocketAddress local;
    private final InetSocketAddress remote;
    private final InetAddress remoteAddress;
    private final String description;
    private final int vni;
    private final int maxFrameLength;
    private final UnsafeBuffer rxView = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer txView = new UnsafeBuffer(0, 0);
    private Thread owner;
    private ManualIoEventLoop loop;
    private DatagramChannel channel;
    private PacketHandler handler;
    private int taken;
    private boolean closed;
    private long badDatagrams;
    private long sendFailures;
    private boolean unflushed;

    private VxlanPort(
        final NettyTransport transport,
        final InetSocketAddress local,
        final InetSocketAddress remote,
        final String description,
        final int vni,
        final int maxFrameLength)
    {
        this.transport = transport;
        this.local = local;
        this.remote = remote;
        this.remoteAddress = remote.getAddress();
        this.description = description;
        this.vni = vni;
        this.maxFrameLength = maxFrameLength;
    }

    /**
     * Open a VXLAN port over epoll.
     *
     * @param local          address and UDP port to receive on.
     * @param remote         the peer's address and UDP port.
     * @param vni            VXLAN network identifier, 24 bits.
     * @param maxFrameLength longest Ethernet frame carried, without FCS.
     * @return the port.
     * @throws PacketSocketException if the local address cannot be bound.
     */
    public static VxlanPort open(
        final InetSocketAddress local, final InetSocketAddress remote, final int vni, final int maxFrameLength)
        throws PacketSocketException
    {
        return open(local, remote, vni, maxFrameLength, NettyTransport.EPOLL);
    }

    /**
     * Open a VXLAN port.
     *
     * @param local          address and UDP port to receive on.
     * @param remote         the peer's address and UDP port.
     * @param vni            VXLAN network identifier, 24 bits.
     * @param maxFrameLength longest Ethernet frame carried, without FCS.
     * @param transport      Netty's epoll or io_uring transport.
     * @return the port.
     * @throws PacketSocketException if the transport is not available or the local address cannot be bound.
     */
    public static VxlanPort open(
        final InetSocketAddress local,
        final InetSocketAddress remote,
        final int vni,
        final int maxFrameLength,
        final NettyTransport transport)
        throws PacketSocketException
    {
        if (vni < 0 || vni > 0xFF_FFFF)
        {
            throw new IllegalArgumentException("VNI must fit 24 bits: " + vni);
        }
        if (remote.isUnresolved() || local.isUnresolved())
        {
            throw new IllegalArgumentException("unresolved address in " + local + " -> " + remote);
        }
        final String description = "vxlan " + local.getHostString() + ":" + local.getPort() + "->" +
            remote.getHostString() + ":" + remote.getPort() + " vni " + vni;
        try
        {
            transport.ensureAvailable();
            try (java.nio.channels.DatagramChannel probe = java.nio.channels.DatagramChannel.open(
                java.net.StandardProtocolFamily.INET))
            {
                probe.bind(local);
            }
        }
        catch (final IOException | UnsupportedAddressTypeException ex)
        {
            throw new PacketSocketException("opening " + description + ": " + ex.getMessage());
        }
        return new VxlanPort(transport, local, remote, description, vni, maxFrameLength);
    }

    /**
     * {@inheritDoc}
     * <p>
     * Makes, registers and binds the channel on the calling thread.
     */
    public void claim()
    {
        attached();
    }

    /**
     * {@inheritDoc}
     * <p>
     * Runs the event loop once: it reads what the socket holds in batches of up to 32 datagrams, so the limit is not
     * exact.
     */
    public int receive(final PacketHandler handler, final int limit)
    {
        if (!attached())
        {
            return 0;
        }
        this.handler = handler;
        taken = 0;
        loop.runNow();
        return taken;
    }

    /**
     * {@inheritDoc}
     */
    public boolean canTransmit()
    {
        return attached() && channel.isWritable();
    }

    /**
     * {@inheritDoc}
     * <p>
     * The datagram leaves on the next {@link #flush()}.
     */
    public boolean transmit(final DirectBuffer src, final int srcOffset, final int length)
    {
        if (length <= 0 || length > maxFrameLength || !attached() || !channel.isActive())
        {
            sendFailures++;
            return false;
        }
        final int datagramLength = VXLAN_HEADER_LENGTH + length;
        final ByteBuf datagram = ManualLoopChannels.newDatagram(channel, datagramLength, txView);
        txView.putInt(0, FLAG_I << 24, ByteOrder.BIG_ENDIAN);
        txView.putInt(4, vni << 8, ByteOrder.BIG_ENDIAN);
        txView.putBytes(VXLAN_HEADER_LENGTH, src, srcOffset, length);
        channel.write(new DatagramPacket(datagram, remote), channel.voidPromise());
        unflushed = true;
        return true;
    }

    /**
     * {@inheritDoc}
     * <p>
     * With epoll the datagrams are written here. With io_uring they are submitted by running the loop once, which
     * also hands datagrams that have arrived to the handler of the last {@link #receive} (or drops them, counted, if
     * there was none yet).
     */
    public int flush()
    {
        if (unflushed && null != channel && Thread.currentThread() == owner)
        {
            unflushed = false;
            channel.flush();
            if (NettyTransport.IO_URING == transport)
            {
                loop.runNow();
            }
        }
        return 0;
    }

    /**
     * {@inheritDoc}
     * <p>
     * Always 0: Netty keeps what the socket refused and writes it when the socket is writable again, on a later run
     * of the loop.
     */
    public long transmitRetries()
    {
        return 0;
    }

    /**
     * {@inheritDoc}
     */
    public void updateKernelStatistics()
    {
    }

    /**
     * {@inheritDoc}
     */
    public long kernelDrops()
    {
        return 0;
    }

    /**
     * {@inheritDoc}
     */
    public long oversizeDrops()
    {
        return badDatagrams;
    }

    /**
     * Frames that could not be sent: the socket would not take them, the channel was closed, the frame was too long,
     * or the socket reported an error.
     *
     * @return the count.
     */
    public long sendFailures()
    {
        return sendFailures;
    }

    /**
     * {@inheritDoc}
     */
    public int maxFrameLength()
    {
        return maxFrameLength;
    }

    /**
     * {@inheritDoc}
     */
    public String interfaceName()
    {
        return description;
    }

    /**
     * Netty's transport carrying this port's datagrams.
     *
     * @return epoll or io_uring.
     */
    public NettyTransport transport()
    {
        return transport;
    }

    /**
     * {@inheritDoc}
     * <p>
     * From the data path's thread the channel is flushed, closed and its loop shut down. From another thread, after
     * the data path has stopped, only the socket is closed.
     */
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        if (null == loop)
        {
            return;
        }
        if (Thread.currentThread() == owner)
        {
            ManualLoopChannels.close(loop, channel);
        }
        else
        {
            try
            {
                ((UnixChannel)channel).fd().close();
            }
            catch (final IOException ex)
            {
                sendFailures++;
            }
        }
    }

    private boolean attached()
    {
        if (Thread.currentThread() == owner)
        {
            return !closed;
        }
        if (null != owner)
        {
            throw new IllegalStateException(description + " is used from " + owner.getName() + " and " +
                Thread.currentThread().getName() + "; it belongs to one thread");
        }
        if (closed)
        {
            return false;
        }
        attach();
        return true;
    }

    private void attach()
    {
        owner = Thread.currentThread();
        loop = new ManualIoEventLoop(owner, transport.ioHandlerFactory());
        channel = transport.newDatagramChannel();
        channel.config()
            .setRecvByteBufAllocator(new FixedRecvByteBufAllocator(
                BitUtil.align(VXLAN_HEADER_LENGTH + maxFrameLength + 1, 64)).maxMessagesPerRead(MESSAGES_PER_READ))
            .setOption(ChannelOption.SO_RCVBUF, SOCKET_BUFFER_LENGTH);
        channel.config().setOption(ChannelOption.SO_SNDBUF, SOCKET_BUFFER_LENGTH);
        channel.pipeline().addLast(new Inbound());
        try
        {
            ManualLoopChannels.registerAndBind(loop, channel, local);
        }
        catch (final IOException ex)
        {
            closed = true;
            ManualLoopChannels.close(loop, channel);
            throw new IllegalStateException("opening " + description + ": " + ex.getMessage(), ex);
        }
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
                final int datagramLength = ManualLoopChannels.wrapReadable(packet.content(), rxView);
                final int frameLength = datagramLength - VXLAN_HEADER_LENGTH;
                if (!remoteAddress.equals(packet.sender().getAddress()) ||
                    frameLength < ETHERNET_HEADER_LENGTH || frameLength > maxFrameLength || null == handler)
                {
                    badDatagrams++;
                    return;
                }
                if (FLAG_I != (rxView.getByte(0) & FLAG_I) || vni != (rxView.getInt(4, ByteOrder.BIG_ENDIAN) >>> 8))
                {
                    badDatagrams++;
                    return;
                }
                handler.onPacket(rxView, VXLAN_HEADER_LENGTH, frameLength);
            }
            finally
            {
                packet.release();
            }
        }
    }
}
