package io.pfabric.controllerd.syn;

/**
 * Receives the grants of a {@link TimeslotAllocator}, one call per allocated cell, with no object per grant.
 */
@FunctionalInterface
public interface GrantHandler
{
    /**
     * Spine index of a grant that stays within one leaf.
     */
    int NO_SPINE = -1;

    /**
     * The source may send one MTU to the destination in the slot, through the spine given.
     *
     * @param slot    the timeslot number.
     * @param srcHost the sending host.
     * @param dstHost the receiving host.
     * @param spine   the spine to cross, or {@link #NO_SPINE} when both hosts hang off the same leaf.
     */
    void onGrant(long slot, int srcHost, int dstHost, int spine);
}
