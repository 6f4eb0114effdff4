package io.pfabric.hostd.io;

import io.netty.channel.ManualIoEventLoop;
import io.pfabric.common.packet.ManualLoopChannels;
import io.pfabric.common.packet.NettyTransport;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * The UDP sockets of several hosts on one Netty loop, owned by the one thread that serves all of them: a socket
 * belongs to the network namespace that its thread was in when it was opened, so the thread can enter each host's
 * namespace in turn, open that host's socket, and then wait for all of them in one {@code epoll_wait}. Each socket
 * hands its packets to its own handler ({@link UdpPacketIo#deliverTo}), whichever host's step ran the loop.
 */
public final class UdpIoGroup implements AutoCloseable
{
    private final NettyTransport transport;
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
     * Bind one host's address and port, in the calling thread's current network namespace.
     *
     * @param hosts     every host's address and port, by index.
     * @param localHost this host's index.
     * @return the host's I/O; closing it closes its socket only.
     * @throws IOException if the address cannot be bound.
     */
    public UdpPacketIo open(final List<InetSocketAddress> hosts, final int localHost) throws IOException
    {
        return UdpPacketIo.open(hosts, localHost, transport, loop, false);
    }

    /**
     * Hand what every socket holds to its handler, without waiting.
     */
    public void poll()
    {
        loop.runNow();
    }

    /**
     * Wait until a socket has packets (handing them to their handlers), {@link #wakeup()} is called or the timeout
     * passes.
     *
     * @param timeoutNs longest wait.
     */
    public void await(final long timeoutNs)
    {
        loop.run(timeoutNs);
    }

    /**
     * End a wait in progress, from any thread.
     */
    public void wakeup()
    {
        loop.wakeup();
    }

    /**
     * Shut the loop down; close the hosts' I/O first.
     */
    public void close()
    {
        ManualLoopChannels.close(loop, null);
    }
}
