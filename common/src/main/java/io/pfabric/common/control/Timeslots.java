package io.pfabric.common.control;

/**
 * The SYN timeslot, defined in one place for the controller and its hosts (Fastpass shipped with two definitions that
 * differed by 838x): the time one 1500-byte frame plus 24 bytes of FCS, preamble and inter-frame gap takes at the
 * host link rate.
 */
public final class Timeslots
{
    /**
     * Bytes one slot carries on the wire: a 1500-byte MTU frame and its 24 bytes of overhead.
     */
    public static final int SLOT_WIRE_LENGTH = 1_500 + 24;

    private Timeslots()
    {
    }

    /**
     * Length of a slot.
     *
     * @param linkRateBitsPerSec the host link rate, positive.
     * @return nanoseconds, at least 1.
     */
    public static long slotNs(final long linkRateBitsPerSec)
    {
        if (linkRateBitsPerSec <= 0)
        {
            throw new IllegalArgumentException("a timeslot needs a positive link rate, not " + linkRateBitsPerSec);
        }
        return Math.max(1, Math.round(SLOT_WIRE_LENGTH * 8 * 1e9 / linkRateBitsPerSec));
    }
}
