package io.pfabric.hostd.io;

import io.netty.channel.ManualIoEventLoop;
import io.pfabric.common.packet.ManualLoopChannels;
import io.pfabric.common.packet.NettyTransport;
import io.pfabric.common.topology.Topology;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * The UDP sockets of several hosts on one Netty loop, owned by the one thread that serves all of them: a socket
 * belongs to the network namespace that its thread was in when it was opened, so the thread can enter each host's
 * namespace in turn, open that host's socket, and then wait for all of them in one {@code epoll_wait}. Each socket
 * hands its packets to its own handler ({@link UdpPacketIo#deliverTo}), whichever host's step ran the loop.
 * A member's {@link PacketIo#wakeup()} wakes the loop, and so the whole group.
 */
public final class UdpIoGroup implements PacketIoGroup
{
    private final NettyTransport transport;
    private List<InetSocketAddress> addresses;
    private final ManualIoEventLoop loop;

    private UdpIoGroup(final NettyTransport transport)
    {
        this.transport = transport;
        this.loop = new ManualIoEventLoop(Thread.currentThread(), transport.ioHandlerFactory());
    }

    /**
     * A group with no socket yet; the calling thread becomes its owner.
     *
     * @param transport epoll or io_uring.
     * @return the group.
     * @throws IOException if the transport is not available here.
     */
    public static UdpIoGroup open(final NettyTransport transport) throws IOException
    {
        transport.ensureAvailable();
        return new UdpIoGroup(transport);
    }

    /**
     * {@inheritDoc}
     * <p>
     * Binds the host's address and port ({@link PacketIos#udpAddresses}); closing the I/O closes its socket only.
     */
    public PacketIo open(final Topology topology, final int localHost) throws IOException
    {
        if (null == addresses)
        {
            addresses = PacketIos.udpAddresses(topology);
        }
        return UdpPacketIo.open(addresses, localHost, transport, loop, false);
    }

    /**
     * {@inheritDoc}
     */
    public void deliver(final PacketIo io, final PacketIo.InboundHandler handler)
    {
        ((UdpPacketIo)io).deliverTo(handler);
    }

    /**
     * {@inheritDoc}
     * <p>
     * Nothing to do: closing the member deregisters its socket from the loop.
     */
    public void release(final PacketIo io)
    {
    }

    /**
     * {@inheritDoc}
     */
    public void poll()
    {
        loop.runNow();
    }

    /**
     * {@inheritDoc}
     */
    public void await(final long timeoutNs)
    {
        loop.run(timeoutNs);
    }

    /**
     * Shut the loop down; close the hosts' I/O first.
     */
    public void close()
    {
        ManualLoopChannels.close(loop, null);
    }
}
