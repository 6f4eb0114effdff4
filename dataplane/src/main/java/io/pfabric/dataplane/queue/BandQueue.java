package io.pfabric.dataplane.queue;

import org.agrona.DirectBuffer;

import java.util.Arrays;

/**
 * FIFO queues served in strict priority, the first the most urgent, in one byte budget: the egress port of a commodity
 * switch. A subclass says which queue an arrival joins. The budget follows the pFabric paper's §6.2: each queue may
 * hold up to a reserved number of bytes of its own, and beyond its reserve it takes from the room the reserves leave,
 * shared first come first served; an arrival that fits neither is dropped at the tail.
 */
public abstract class BandQueue extends QueueDiscipline
{
    private static final int NONE = -1;

    private final int[] bandHead;
    private final int[] bandTail;
    private final long[] bandLength;
    private final int[] slotNext;
    private final int[] slotBand;
    private final long reservedLength;
    private final long sharedCapacityLength;
    private long sharedLength;

    /**
     * Allocate the queues.
     *
     * @param capacityLength  bytes the port may hold in all.
     * @param maxFrameLength  longest frame accepted.
     * @param maxStoredLength most bytes of a frame stored.
     * @param bandCount       number of queues, at least 1.
     * @param reservedLength  bytes each queue holds of its own; bandCount × reservedLength at most capacityLength.
     */
    protected BandQueue(final long capacityLength, final int maxFrameLength, final int maxStoredLength,
        final int bandCount, final long reservedLength)
    {
        super(capacityLength, maxFrameLength, maxStoredLength);
        if (bandCount < 1)
        {
            throw new IllegalArgumentException("need at least one queue, got " + bandCount);
        }
        if (reservedLength < 0 || reservedLength * bandCount > capacityLength)
        {
            throw new IllegalArgumentException("the reserves of " + bandCount + " queues of " + reservedLength +
                " bytes do not fit in " + capacityLength + " bytes");
        }
        this.reservedLength = reservedLength;
        this.sharedCapacityLength = capacityLength - reservedLength * bandCount;
        bandHead = new int[bandCount];
        bandTail = new int[bandCount];
        bandLength = new long[bandCount];
        Arrays.fill(bandHead, NONE);
        Arrays.fill(bandTail, NONE);
        slotNext = new int[slab.slotCount()];
        slotBand = new int[slab.slotCount()];
    }

    /**
     * Number of queues.
     *
     * @return the queue count.
     */
    public final int bandCount()
    {
        return bandHead.length;
    }

    /**
     * Bytes each queue holds of its own.
     *
     * @return the reserve in bytes.
     */
    public final long reservedLength()
    {
        return reservedLength;
    }

    /**
     * Bytes buffered now in one queue.
     *
     * @param band the queue, 0 the most urgent.
     * @return bytes.
     */
    public final long bandLength(final int band)
    {
        return bandLength[band];
    }

    /**
     * The queue an arrival joins; called once per arrival of valid length, before the buffer decides whether it
     * fits, so a discipline that adapts to arrivals (SP-PIFO) sees every one.
     *
     * @param priority saturated priority number of the arrival.
     * @return the queue, 0 to {@link #bandCount()} - 1.
     */
    protected abstract int bandOf(long priority);

    /**
     * Called when an arrival has been stored in its queue.
     *
     * @param slot                  of the frame.
     * @param band                  it joined.
     * @param bandLengthBeforeBytes bytes the queue held before it.
     */
    protected void onAdmitted(final int slot, final int band, final long bandLengthBeforeBytes)
    {
    }

    protected final boolean onEnqueue(
        final DirectBuffer src, final int srcOffset, final int length, final long priority, final long flowId)
    {
        final int band = bandOf(priority);
        final long before = bandLength[band];
        final long sharedGrowth = Math.max(0, before + length - reservedLength) - Math.max(0, before - reservedLength);
        if (!fits(length) || sharedLength + sharedGrowth > sharedCapacityLength)
        {
            drop(src, srcOffset, length, DropReason.TAIL_DROP);
            return false;
        }
        final int slot = store(src, srcOffset, length);
        sharedLength += sharedGrowth;
        bandLength[band] = before + length;
        slotBand[slot] = band;
        slotNext[slot] = NONE;
        if (NONE == bandTail[band])
        {
            bandHead[band] = slot;
        }
        else
        {
            slotNext[bandTail[band]] = slot;
        }
        bandTail[band] = slot;
        onAdmitted(slot, band, before);
        return true;
    }

    protected final int removeNext()
    {
        int band = 0;
        while (NONE == bandHead[band])
        {
            band++;
        }
        final int slot = bandHead[band];
        bandHead[band] = slotNext[slot];
        if (NONE == bandHead[band])
        {
            bandTail[band] = NONE;
        }
        final long before = bandLength[band];
        final long after = before - slab.frameLength(slot);
        sharedLength -= Math.max(0, before - reservedLength) - Math.max(0, after - reservedLength);
        bandLength[band] = after;
        return slot;
    }
}
