package io.pfabric.hostd.io;

import io.pfabric.common.topology.Topology;

import java.io.IOException;

/**
 * The packet I/O of several hosts served by one thread, which owns the group: it enters each host's network namespace
 * in turn and opens that host's I/O there (a socket stays in the namespace it was opened in), names the handler each
 * host's packets go to, and then waits once for all of them.
 */
public interface PacketIoGroup extends AutoCloseable
{
    /**
     * Open one host's I/O in the calling thread's current network namespace.
     *
     * @param topology  the fabric.
     * @param localHost the host's index.
     * @return its I/O, a member of the group until {@link #release}.
     * @throws IOException if it cannot be opened.
     */
    PacketIo open(Topology topology, int localHost) throws IOException;

    /**
     * Where a member's packets go when the group polls or waits.
     *
     * @param io      a member.
     * @param handler given each of its packets.
     */
    void deliver(PacketIo io, PacketIo.InboundHandler handler);

    /**
     * Take a member out of the group, before it is closed.
     *
     * @param io a member.
     */
    void release(PacketIo io);

    /**
     * Hand what every member holds to its handler, without waiting.
     */
    void poll();

    /**
     * Wait until a member has packets (handing them to their handlers), a member's {@link PacketIo#wakeup()} is
     * called or the timeout passes.
     *
     * @param timeoutNs longest wait.
     */
    void await(long timeoutNs);

    /**
     * Release what the group holds; close the members first.
     */
    void close();
}
