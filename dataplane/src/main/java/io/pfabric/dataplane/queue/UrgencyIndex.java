package io.pfabric.dataplane.queue;

/**
 * The buffered frames of a {@link PfabricQueue} ordered by urgency, so that both ends can be found at once: the most
 * urgent frame for the next dequeue and the least urgent for the next eviction.
 * <p>
 * A key packs (priority, arrival sequence) so that a smaller key is more urgent; keys are unique.
 */
abstract class UrgencyIndex
{
    /**
     * The priority number held in a key.
     *
     * @param key packed (priority, sequence).
     * @return the priority number.
     */
    static long priority(final long key)
    {
        return (key ^ Long.MIN_VALUE) >>> 32;
    }

    abstract int size();

    abstract void add(int slot, long key);

    abstract void remove(int slot, long key);

    abstract int mostUrgent();

    abstract int leastUrgent();

    /**
     * Whether the frames with a priority number above the given one hold at least the given bytes.
     */
    abstract boolean lessUrgentBytesAtLeast(long priority, long bytes, PacketSlab slab);

    /**
     * Every buffered slot, in no particular order, for i in [0, size()).
     */
    abstract int slotAt(int index);

    /**
     * Replace a slot's key with one that orders the same against every other key in the index.
     */
    abstract void rekeyInPlace(int slot, long oldKey, long newKey);
}
