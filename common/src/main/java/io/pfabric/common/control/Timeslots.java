package io.pfabric.common.control;

import io.pfabric.common.wire.PfabricHeaderFlyweight;

/**
 * The SYN timeslot, defined in one place for the controller and its hosts (Fastpass shipped with two definitions that
 * differed by 838x). {@link #slotNs} is the time one 1500-byte frame plus 24 bytes of FCS, preamble and inter-frame
 * gap takes at the host link rate. {@link #synSlotNs} is the slot controllerd grants: a host sends at most one data
 * packet and receives at most one per slot, and ACKs are sent at once for each data packet, so each host link carries
 * per slot at most one data packet and, on average, one ACK, and (where control messages share the hosts' links, as on
 * the namespace testbed) a share of a GRANTS message. The slot has room for all three, {@value #SYN_SLOT_WIRE_LENGTH}
 * bytes on the wire, so that none piles up behind the slotted data.
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
     * Bytes of hostd's longest data packet on the wire: a 1460-byte segment under a pFabric header, UDP, IPv4 and
     * Ethernet headers (1534 bytes), and 24 bytes of FCS, preamble and inter-frame gap.
     */
    public static final int DATA_WIRE_LENGTH = 14 + 20 + 8 + PfabricHeaderFlyweight.HEADER_LENGTH + 1_460 + 24;

    /**
     * Bytes of the longest ACK on the wire: Ethernet, IPv4 and UDP headers, a pFabric header with the most SACK blocks,
     * and 24 bytes of FCS, preamble and inter-frame gap.
     */
    public static final int ACK_WIRE_LENGTH = 14 + 20 + 8 + PfabricHeaderFlyweight.ACK_MAX_HEADER_LENGTH + 24;

    /**
     * Bytes per slot for the control messages a host receives: a third of a GRANTS message of 7 entries (a clock,
     * three grants, three totals: 24 + 7 x 16 + 32 bytes, in UDP, IPv4 and Ethernet, 234 bytes on the wire), the
     * controller sending each source one message every 3 slots by default.
     */
    public static final int CONTROL_WIRE_LENGTH = 78;

    /**
     * Bytes a SYN slot has room for: a data packet, an ACK and a share of control messages.
     */
    public static final int SYN_SLOT_WIRE_LENGTH = DATA_WIRE_LENGTH + ACK_WIRE_LENGTH + CONTROL_WIRE_LENGTH;

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
     * Length of the slot controllerd grants, {@value #SYN_SLOT_WIRE_LENGTH} bytes at the host link rate (141.28 us at
     * 100 Mb/s, 1.4128 us at 10 Gb/s).
     *
     * @param linkRateBitsPerSec the host link rate, positive.
     * @return nanoseconds, at least 1.
     */
    public static long synSlotNs(final long linkRateBitsPerSec)
    {
        return wireTimeNs(SYN_SLOT_WIRE_LENGTH, linkRateBitsPerSec);
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
