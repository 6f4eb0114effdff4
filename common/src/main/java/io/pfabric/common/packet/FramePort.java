package io.pfabric.common.packet;

import org.agrona.DirectBuffer;

/**
 * A switch port's way to the wire: a raw socket on an interface ({@link PacketPort}) or Ethernet frames carried in
 * VXLAN over UDP ({@link VxlanPort}). Single-threaded; the data path calls {@link #receive}, {@link #transmit} and
 * {@link #flush} without allocating.
 */
public interface FramePort extends AutoCloseable
{
    /**
     * Hand waiting frames, up to a limit, to a handler.
     *
     * @param handler given each frame.
     * @param limit   most frames to take.
     * @return frames taken, dropped ones included.
     */
    int receive(PacketHandler handler, int limit);

    /**
     * Whether a frame can be placed for transmission now.
     *
     * @return true if {@link #transmit} would accept a frame.
     */
    boolean canTransmit();

    /**
     * Place a frame for transmission; it leaves at the latest at the next {@link #flush()}.
     *
     * @param src       holding the frame.
     * @param srcOffset of the frame.
     * @param length    of the frame, without FCS.
     * @return false if it could not be placed.
     */
    boolean transmit(DirectBuffer src, int srcOffset, int length);

    /**
     * Send what was placed since the last flush, and what the kernel left unsent at an earlier one. Cheap when there
     * is nothing to send: an owner may call it on every duty cycle.
     *
     * @return frames placed since the last flush.
     */
    int flush();

    /**
     * Flushes that asked the kernel again for frames it had left unsent (its socket buffer was full).
     *
     * @return the count since open; owner thread only.
     */
    long transmitRetries();

    /**
     * Read the kernel's own statistics for the port, where it has any. Owner thread only; cold.
     */
    void updateKernelStatistics();

    /**
     * Frames the kernel dropped before this process saw them, as of the last {@link #updateKernelStatistics()}.
     *
     * @return the count.
     */
    long kernelDrops();

    /**
     * Frames received but dropped here: too long, or (for VXLAN) badly encapsulated.
     *
     * @return the count.
     */
    long oversizeDrops();

    /**
     * Longest frame accepted, without FCS.
     *
     * @return bytes.
     */
    int maxFrameLength();

    /**
     * What the port is attached to, for reports: an interface name or a UDP address pair.
     *
     * @return the description.
     */
    String interfaceName();

    /**
     * Release the port's sockets.
     */
    void close();

    /**
     * Make the calling thread, the data path's, the port's owner now and have its socket receiving, for a port that
     * would otherwise do so on its first use from that thread ({@link VxlanPort}); by default nothing (the port
     * receives from its opening). Until then a frame sent to the port is lost, so a data path calls this before it
     * says it is ready.
     */
    default void claim()
    {
    }

    /**
     * When the frame being handed to {@link #receive}'s handler reached this port, on {@link System#nanoTime()}'s
     * clock, as the kernel stamped it on arrival: a data path that comes late learns when the frames waiting for it
     * came. Valid only during the handler's call.
     *
     * @return nanoseconds, or {@link #UNKNOWN_ARRIVAL} for a port that cannot tell (the default).
     */
    default long arrivalNs()
    {
        return UNKNOWN_ARRIVAL;
    }

    /**
     * What {@link #arrivalNs()} returns when the port does not know.
     */
    long UNKNOWN_ARRIVAL = Long.MIN_VALUE;

    /**
     * Whether the link under the port carries frames now: the interface is up and has carrier. Asks the kernel; call
     * from the owning thread, on the cold path (a switch asks every few milliseconds).
     *
     * @return true if up, and true for a port that cannot tell.
     */
    default boolean linkUp()
    {
        return true;
    }

    /**
     * The index of the interface the port's sockets are bound to, as it was when the port opened: an interface
     * deleted and created again under the same name has another.
     *
     * @return the index, or 0 for a port not on an interface (VXLAN).
     */
    default int interfaceIndex()
    {
        return 0;
    }
}
