package io.pfabric.common.control;

import io.pfabric.common.wire.PfabricHeaderFlyweight;

/**
 * The SYN timeslot, defined in one place for the controller and its hosts (Fastpass shipped with two definitions that
 * differed by 838x). {@link #slotNs} is the time one 1500-byte frame plus 24 bytes of FCS, preamble and inter-frame
 * gap takes at the host link rate; {@link #dataAndAckSlotNs} adds the longest ACK, the slot controllerd grants: a host
 * sends at most one data packet and receives at most one per slot, so its link carries at most one data packet and,
 * ACKs being sent at once for each data packet, about one ACK each way per slot, which then fit in the slot instead of
 * piling up behind the slotted data.
 * <p>
 * Slot {@code s} of a controller starts at {@code startNs + s * slotNs} on its monotonic clock
 * ({@link #slotStartNs}); the controller tells its hosts {@code startNs} and {@code slotNs} in every GRANTS message
 * ({@link ControlMessageFlyweight#FLAG_CLOCK}).
 */
public final class Timeslots
{
    /**
     * Bytes one slot carries on the wire: a 1500-byte MTU frame and its 24 bytes of overhead.
     */
    public static final int SLOT_WIRE_LENGTH = 1_500 + 24;

    /**
     * Bytes of the longest ACK on the wire: Ethernet, IPv4 and UDP headers (42 bytes), a pFabric header with the most
     * SACK blocks and 24 bytes of FCS, preamble and inter-frame gap.
     */
    public static final int ACK_WIRE_LENGTH = 14 + 20 + 8 + PfabricHeaderFlyweight.ACK_MAX_HEADER_LENGTH + 24;

    private Timeslots()
    {
    }

    /**
     * Length of a slot of one MTU frame.
     *
     * @param linkRateBitsPerSec the host link rate, positive.
     * @return nanoseconds, at least 1.
     */
    public static long slotNs(final long linkRateBitsPerSec)
    {
        return wireTimeNs(SLOT_WIRE_LENGTH, linkRateBitsPerSec);
    }

    /**
     * Length of a slot of one MTU frame and one ACK, {@value #SLOT_WIRE_LENGTH} + {@value #ACK_WIRE_LENGTH} bytes:
     * the slot controllerd grants.
     *
     * @param linkRateBitsPerSec the host link rate, positive.
     * @return nanoseconds, at least 1.
     */
    public static long dataAndAckSlotNs(final long linkRateBitsPerSec)
    {
        return wireTimeNs(SLOT_WIRE_LENGTH + ACK_WIRE_LENGTH, linkRateBitsPerSec);
    }

    /**
     * When a slot starts.
     *
     * @param startNs the start of slot 0.
     * @param slotNs  the slot length.
     * @param slot    the slot number.
     * @return nanoseconds on the same clock as {@code startNs}.
     */
    public static long slotStartNs(final long startNs, final long slotNs, final long slot)
    {
        return startNs + slot * slotNs;
    }

    private static long wireTimeNs(final int wireLength, final long linkRateBitsPerSec)
    {
        if (linkRateBitsPerSec <= 0)
        {
            throw new IllegalArgumentException("a timeslot needs a positive link rate, not " + linkRateBitsPerSec);
        }
        return Math.max(1, Math.round(wireLength * 8 * 1e9 / linkRateBitsPerSec));
    }
}
