package io.pfabric.hostd.io;

import org.agrona.DirectBuffer;

/**
 * How a host's transport exchanges pFabric packets (the pFabric header and its payload) with other hosts, which are
 * named by their index in the topology's host list. Used by one thread: the transport's agent calls
 * {@link #poll(InboundHandler, int)} and {@link #send(int, DirectBuffer, int, int)} in its duty cycle.
 */
public interface PacketIo extends AutoCloseable
{
    /**
     * Receives the packets that {@link #poll(InboundHandler, int)} takes.
     */
    @FunctionalInterface
    interface InboundHandler
    {
        /**
         * A packet from another host, valid only during the call.
         *
         * @param sourceHost index of the sending host in the topology.
         * @param buffer     holding the packet.
         * @param offset     of the pFabric header.
         * @param length     of header and payload.
         */
        void onPacket(int sourceHost, DirectBuffer buffer, int offset, int length);
    }

    /**
     * Hand received packets to the handler.
     *
     * @param handler given each packet.
     * @param limit   most packets to take.
     * @return packets taken, including those dropped because their source is not a known host.
     */
    int poll(InboundHandler handler, int limit);

    /**
     * Wait up to a timeout for packets to arrive, handing any that do to the handler; by default a park.
     *
     * @param handler   given each packet.
     * @param timeoutNs longest wait.
     * @return packets taken.
     */
    default int await(final InboundHandler handler, final long timeoutNs)
    {
        java.util.concurrent.locks.LockSupport.parkNanos(timeoutNs);
        return poll(handler, Integer.MAX_VALUE);
    }

    /**
     * Have the I/O receiving now, from the calling thread, the one that polls it ({@link io.pfabric.common.packet.FramePort#claim()}); by
     * default nothing (it receives from its opening).
     */
    default void claim()
    {
    }

    /**
     * Cut short an {@link #await} in progress, from any thread; by default nothing (the await is a bounded park).
     */
    default void wakeup()
    {
    }

    /**
     * Whether {@link #wakeup()} cuts an {@link #await} short: then a thread with nothing to do may wait long, since a
     * new send wakes it; else it must come back soon to look. By default false.
     *
     * @return true if a wake-up ends a wait.
     */
    default boolean wakeable()
    {
        return false;
    }

    /**
     * Send a packet, or report that it cannot be sent now (the socket's buffer or the ring is full).
     *
     * @param destinationHost index of the receiving host in the topology.
     * @param buffer          holding the packet.
     * @param offset          of the pFabric header.
     * @param length          of header and payload.
     * @return true if the packet was accepted for sending.
     */
    boolean send(int destinationHost, DirectBuffer buffer, int offset, int length);

    /**
     * Send a packet whose IPv4 header carries a DSCP, by which switches with traffic classes pick its class. By
     * default the DSCP is not carried: for an I/O that writes no IPv4 header of its own.
     *
     * @param destinationHost index of the receiving host in the topology.
     * @param buffer          holding the packet.
     * @param offset          of the pFabric header.
     * @param length          of header and payload.
     * @param dscp            the IPv4 DSCP, 0 to 63.
     * @return true if the packet was accepted for sending.
     */
    default boolean send(
        final int destinationHost, final DirectBuffer buffer, final int offset, final int length, final int dscp)
    {
        return send(destinationHost, buffer, offset, length);
    }

    /**
     * The longest packet (pFabric header and payload) that crosses the fabric unfragmented.
     *
     * @return bytes.
     */
    int maxPacketLength();

    /**
     * Push out what {@link #send(int, DirectBuffer, int, int)} accepted, for implementations that batch.
     */
    void flush();

    /**
     * Close the socket.
     */
    void close();
}
