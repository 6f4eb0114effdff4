package io.pfabric.hostd.io;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.ManualIoEventLoop;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.unix.SegmentedDatagramPacket;
import io.pfabric.common.packet.ManualLoopChannels;
import io.pfabric.common.packet.NettyTransport;
import io.pfabric.common.wire.Ipv4Flyweight;
import io.pfabric.common.wire.UdpFlyweight;
import org.agrona.DirectBuffer;
import org.agrona.collections.Object2IntHashMap;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * pFabric packets as UDP datagrams over one of Netty's native transports, epoll or io_uring, driven from the
 * transport's own thread: the channel is registered with a {@link ManualIoEventLoop} owned by that thread, and
 * {@link #poll} runs the loop once, so packets never cross threads. Received datagrams are matched to a host by their
 * source address and port. Several hosts' sockets may share one loop, and so one thread and one wait
 * ({@link UdpIoGroup}).
 * <p>
 * Over epoll, packets of one length written one after another to one host leave as one UDP GSO send
 * ({@code UDP_SEGMENT}, Netty's {@link SegmentedDatagramPacket}) of up to {@link #MAX_SEGMENTS} datagrams: the kernel
 * takes them through the socket and IP layers once and cuts them into datagrams at the interface, each datagram one
 * packet as written. A flow's data packets and its ACKs without SACK blocks are such runs. The system property
 * {@code pfabric.udp.gso=false} sends every packet as a datagram of its own ({@link DatagramPacket}, as over
 * io_uring). A full UDP GSO send goes to the kernel at once, the rest at {@link #flush}.
 * Received datagrams arrive in pooled direct buffers that are released after the handler returns.
 */
public final class UdpPacketIo implements PacketIo
{
    private static final int RECEIVE_BUFFER_LENGTH = 2_048;
    private static final int RECEIVE_BATCH = 16;
    private static final int SOCKET_BUFFER_LENGTH = 4 * 1024 * 1024;
    private static final int MAX_UDP_PAYLOAD_LENGTH = 65_535 - Ipv4Flyweight.HEADER_LENGTH - UdpFlyweight.HEADER_LENGTH;

    /**
     * The most datagrams one UDP GSO send carries (the kernel's {@code UDP_MAX_SEGMENTS} is at least this).
     */
    public static final int MAX_SEGMENTS = 64;

    /**
     * The longest packet a 1500-byte MTU carries unfragmented: less the IPv4 and UDP headers.
     */
    public static final int MAX_PACKET_LENGTH = 1_500 - Ipv4Flyweight.HEADER_LENGTH - UdpFlyweight.HEADER_LENGTH;

    private final ManualIoEventLoop loop;
    private final boolean ownsLoop;
    private final DatagramChannel channel;
    private final InetSocketAddress[] hosts;
    private final Object2IntHashMap<InetSocketAddress> hostBySource = new Object2IntHashMap<>(-1);
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer txView = new UnsafeBuffer(0, 0);
    private final boolean segmenting;
    private ByteBuf batch;
    private int batchHost;
    private int batchSegmentLength;
    private int batchSegments;
    private int batchCapacitySegments;
    private long segmentedSends;
    private InboundHandler handler;
    private int taken;
    private long packetsSent;
    private long packetsReceived;
    private long sendFailures;
    private int socketDscp;
    private long unknownSourceDrops;

    private UdpPacketIo(final ManualIoEventLoop loop, final boolean ownsLoop, final DatagramChannel channel,
        final List<InetSocketAddress> hosts, final boolean segmenting)
    {
        this.segmenting = segmenting;
        this.loop = loop;
        this.ownsLoop = ownsLoop;
        this.channel = channel;
        this.hosts = hosts.toArray(new InetSocketAddress[0]);
        for (int i = 0; i < this.hosts.length; i++)
        {
            hostBySource.put(this.hosts[i], i);
        }
    }

    /**
     * Bind the local host's address and port over epoll; the calling thread becomes the only one that may use the
     * I/O.
     *
     * @param hosts     every host's address and port, by index.
     * @param localHost this host's index.
     * @return the open I/O.
     * @throws IOException if epoll is not available or the address cannot be bound.
     */
    public static UdpPacketIo open(final List<InetSocketAddress> hosts, final int localHost) throws IOException
    {
        return open(hosts, localHost, NettyTransport.EPOLL);
    }

    /**
     * Bind the local host's address and port; the calling thread becomes the only one that may use the I/O.
     *
     * @param hosts     every host's address and port, by index.
     * @param localHost this host's index.
     * @param transport epoll or io_uring.
     * @return the open I/O.
     * @throws IOException if the transport is not available here or the address cannot be bound.
     */
    public static UdpPacketIo open(
        final List<InetSocketAddress> hosts, final int localHost, final NettyTransport transport) throws IOException
    {
        transport.ensureAvailable();
        return open(hosts, localHost, transport,
            new ManualIoEventLoop(Thread.currentThread(), transport.ioHandlerFactory()), true);
    }

    /**
     * Bind the local host's address and port on a loop that may serve other channels too (a {@link UdpIoGroup}'s).
     *
     * @param hosts     every host's address and port, by index.
     * @param localHost this host's index.
     * @param transport the loop's transport.
     * @param loop      owned by the calling thread.
     * @param ownsLoop  whether closing the I/O shuts the loop down.
     * @return the open I/O.
     * @throws IOException if the address cannot be bound.
     */
    static UdpPacketIo open(final List<InetSocketAddress> hosts, final int localHost, final NettyTransport transport,
        final ManualIoEventLoop loop, final boolean ownsLoop) throws IOException
    {
        for (final InetSocketAddress host : hosts)
        {
            if (!(host.getAddress() instanceof Inet4Address))
            {
                throw new IllegalArgumentException("host addresses must be IPv4: " + host);
            }
        }
        final DatagramChannel channel = transport.newDatagramChannel();
        if (NettyTransport.EPOLL == transport)
        {
            channel.config()
                .setRecvByteBufAllocator(new FixedRecvByteBufAllocator(RECEIVE_BUFFER_LENGTH * RECEIVE_BATCH))
                .setOption(EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE, RECEIVE_BUFFER_LENGTH);
        }
        else
        {
            channel.config().setRecvByteBufAllocator(new FixedRecvByteBufAllocator(RECEIVE_BUFFER_LENGTH));
        }
        channel.config().setOption(ChannelOption.SO_RCVBUF, SOCKET_BUFFER_LENGTH);
        channel.config().setOption(ChannelOption.SO_SNDBUF, SOCKET_BUFFER_LENGTH);
        final boolean segmenting = NettyTransport.EPOLL == transport &&
            EpollDatagramChannel.isSegmentedDatagramPacketSupported() &&
            !"false".equalsIgnoreCase(System.getProperty("pfabric.udp.gso"));
        final UdpPacketIo io = new UdpPacketIo(loop, ownsLoop, channel, hosts, segmenting);
        channel.pipeline().addLast(io.new Inbound());
        try
        {
            ManualLoopChannels.registerAndBind(loop, channel, hosts.get(localHost));
        }
        catch (final IOException ex)
        {
            io.close();
            throw ex;
        }
        return io;
    }

    /**
     * {@inheritDoc}
     * <p>
     * Runs the event loop once: it reads what the socket holds, in Netty's own batches, so the limit is not exact.
     */
    public int poll(final InboundHandler inboundHandler, final int limit)
    {
        handler = inboundHandler;
        taken = 0;
        loop.runNow();
        return taken;
    }

    /**
     * {@inheritDoc}
     * <p>
     * Blocks in the transport's wait ({@code epoll_wait} or io_uring's), so a datagram or a {@link #wakeup()} ends
     * the wait at once.
     */
    public int await(final InboundHandler inboundHandler, final long timeoutNs)
    {
        handler = inboundHandler;
        taken = 0;
        loop.run(timeoutNs);
        return taken;
    }

    /**
     * {@inheritDoc}
     */
    public void wakeup()
    {
        loop.wakeup();
    }

    /**
     * {@inheritDoc}
     */
    public boolean wakeable()
    {
        return true;
    }

    /**
     * {@inheritDoc}
     */
    public boolean send(final int destinationHost, final DirectBuffer buffer, final int offset, final int length)
    {
        return send(destinationHost, buffer, offset, length, 0);
    }

    /**
     * {@inheritDoc}
     * <p>
     * The kernel writes the IPv4 header, with the socket's type of service: when the DSCP differs from the last
     * packet's, the packets written so far are flushed and the socket's {@code IP_TOS} is set before this one is
     * written. A packet still in Netty's outbound buffer after that flush (the socket's send buffer was full) leaves
     * with the new DSCP.
     */
    public boolean send(
        final int destinationHost, final DirectBuffer buffer, final int offset, final int length, final int dscp)
    {
        if (dscp != socketDscp && channel.isActive())
        {
            flush();
            channel.config().setOption(ChannelOption.IP_TOS, (dscp & 0x3F) << 2);
            socketDscp = dscp;
        }
        if (!channel.isActive() || !channel.isWritable())
        {
            sendFailures++;
            return false;
        }
        if (batchSegments > 0 && (destinationHost != batchHost || length != batchSegmentLength))
        {
            writeBatch();
        }
        if (0 == batchSegments)
        {
            batchCapacitySegments = segmenting ? Math.min(MAX_SEGMENTS, MAX_UDP_PAYLOAD_LENGTH / length) : 1;
            batch = channel.alloc().directBuffer(batchCapacitySegments * length);
            batchHost = destinationHost;
            batchSegmentLength = length;
        }
        ManualLoopChannels.append(batch, length, txView);
        txView.putBytes(0, buffer, offset, length);
        batchSegments++;
        packetsSent++;
        if (batchSegments == batchCapacitySegments)
        {
            writeBatch();
            if (segmenting)
            {
                channel.flush();
            }
        }
        return true;
    }

    private void writeBatch()
    {
        final InetSocketAddress recipient = hosts[batchHost];
        if (1 == batchSegments)
        {
            channel.write(new DatagramPacket(batch, recipient), channel.voidPromise());
        }
        else
        {
            channel.write(new SegmentedDatagramPacket(batch, batchSegmentLength, recipient), channel.voidPromise());
            segmentedSends++;
        }
        batch = null;
        batchSegments = 0;
    }

    /**
     * {@inheritDoc}
     * <p>
     * A 1500-byte MTU less the IPv4 and UDP headers.
     */
    public int maxPacketLength()
    {
        return MAX_PACKET_LENGTH;
    }

    /**
     * {@inheritDoc}
     * <p>
     * With io_uring the writes are submitted when the loop next runs ({@link #poll}, {@link #await}).
     */
    public void flush()
    {
        if (batchSegments > 0)
        {
            writeBatch();
        }
        channel.flush();
    }

    /**
     * {@inheritDoc}
     */
    public void close()
    {
        if (null != batch)
        {
            batch.release();
            batch = null;
            batchSegments = 0;
        }
        if (ownsLoop)
        {
            ManualLoopChannels.close(loop, channel);
        }
        else
        {
            ManualLoopChannels.closeChannel(loop, channel);
        }
    }

    /**
     * Give the packets that any run of the loop takes from this socket to a handler: on a loop shared with other
     * hosts' sockets ({@link UdpIoGroup}), a wait or poll on the loop hands each socket's packets to its own handler.
     *
     * @param inboundHandler given each packet until the next {@link #poll} or {@link #await} names another.
     */
    public void deliverTo(final InboundHandler inboundHandler)
    {
        handler = inboundHandler;
    }

    /**
     * Datagrams sent.
     *
     * @return the count.
     */
    public long packetsSent()
    {
        return packetsSent;
    }

    /**
     * UDP GSO sends of more than one datagram.
     *
     * @return the count.
     */
    public long segmentedSends()
    {
        return segmentedSends;
    }

    /**
     * Datagrams received from known hosts.
     *
     * @return the count.
     */
    public long packetsReceived()
    {
        return packetsReceived;
    }

    /**
     * Datagrams the socket would not take, and errors the socket reported.
     *
     * @return the count.
     */
    public long sendFailures()
    {
        return sendFailures;
    }

    /**
     * Datagrams dropped because their source is no host of the topology.
     *
     * @return the count.
     */
    public long unknownSourceDrops()
    {
        return unknownSourceDrops;
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
                final int host = hostBySource.getValue(packet.sender());
                if (host < 0 || null == handler)
                {
                    unknownSourceDrops++;
                    return;
                }
                final int length = ManualLoopChannels.wrapReadable(packet.content(), view);
                packetsReceived++;
                handler.onPacket(host, view, 0, length);
            }
            finally
            {
                packet.release();
            }
        }
    }
}
