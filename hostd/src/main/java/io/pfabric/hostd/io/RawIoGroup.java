package io.pfabric.hostd.io;

import io.pfabric.common.packet.PacketPort;
import io.pfabric.common.packet.PacketPortSet;
import io.pfabric.common.topology.Topology;

import java.io.IOException;

/**
 * The raw I/O ({@code --io raw}) of several hosts on one thread: each host's packet socket is opened in its own
 * namespace, and the thread waits for all of their receive rings, and for a new send to any of them, in one
 * {@code ppoll} ({@link PacketPortSet}); then it takes each host's frames from its ring.
 */
public final class RawIoGroup implements PacketIoGroup
{
    private final int capacity;
    private final PacketPortSet ports;
    private final RawIpPacketIo[] members;
    private final PacketIo.InboundHandler[] handlers;
    private int count;

    /**
     * An empty group.
     *
     * @param capacity most hosts it will serve.
     */
    public RawIoGroup(final int capacity)
    {
        this.capacity = capacity;
        this.ports = new PacketPortSet(capacity);
        this.members = new RawIpPacketIo[capacity];
        this.handlers = new PacketIo.InboundHandler[capacity];
    }

    /**
     * {@inheritDoc}
     */
    public PacketIo open(final Topology topology, final int localHost) throws IOException
    {
        if (count == capacity)
        {
            throw new IllegalStateException("the group serves " + count + " hosts already");
        }
        final RawIpPacketIo io = RawIpPacketIo.open(topology, localHost);
        ports.add((PacketPort)io.port());
        members[count++] = io;
        return io;
    }

    /**
     * {@inheritDoc}
     */
    public void deliver(final PacketIo io, final PacketIo.InboundHandler handler)
    {
        handlers[indexOf(io)] = handler;
    }

    /**
     * {@inheritDoc}
     */
    public void release(final PacketIo io)
    {
        final int at = indexOf(io);
        ports.remove((PacketPort)members[at].port());
        System.arraycopy(members, at + 1, members, at, count - at - 1);
        System.arraycopy(handlers, at + 1, handlers, at, count - at - 1);
        count--;
        members[count] = null;
        handlers[count] = null;
    }

    private int indexOf(final PacketIo io)
    {
        for (int i = 0; i < count; i++)
        {
            if (members[i] == io)
            {
                return i;
            }
        }
        throw new IllegalArgumentException("not a member of the group: " + io);
    }

    /**
     * {@inheritDoc}
     */
    public void poll()
    {
        for (int i = 0; i < count; i++)
        {
            if (null != handlers[i])
            {
                members[i].poll(handlers[i], Integer.MAX_VALUE);
            }
        }
    }

    /**
     * {@inheritDoc}
     */
    public void await(final long timeoutNs)
    {
        ports.await(timeoutNs);
        poll();
    }

    /**
     * {@inheritDoc}
     */
    public void close()
    {
    }
}
