package io.pfabric.dataplane.queue;

import org.agrona.BitUtil;
import org.agrona.DirectBuffer;
import org.agrona.UnsafeApi;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.ref.Cleaner;

/**
 * Fixed-size packet slots in one off-heap region, allocated once, with a free-slot stack.
 * <p>
 * A slot holds one frame of at most {@link #slotLength()} bytes at {@link #offset(int)} in {@link #buffer()}, or
 * only the first bytes of a longer frame when its owner keeps the rest elsewhere ({@link #store(DirectBuffer, int,
 * int, int)}); {@link #frameLength(int)} is then the whole frame's length and {@link #storedLength(int)} what the
 * slot holds. The
 * region is reserved, not written, when the slab is made: the operating system commits a page only when a frame
 * first lands in it, and the free stack hands out the same few slots again while the queue is short, so a buffer
 * sized for the worst case (every frame of minimum length) costs memory only as far as it is used. The region is
 * returned when the slab becomes unreachable.
 */
public final class PacketSlab
{
    private static final int ALIGNMENT = 64;
    private static final Cleaner CLEANER = Cleaner.create();

    private final UnsafeBuffer buffer;
    private final int slotLength;
    private final int slotCount;
    private final int[] frameLengths;
    private final int[] storedLengths;
    private final int[] freeSlots;
    private int freeCount;

    /**
     * Allocate the slab.
     *
     * @param slotCount      number of slots.
     * @param maxFrameLength longest frame a slot must hold, in bytes.
     */
    public PacketSlab(final int slotCount, final int maxFrameLength)
    {
        if (slotCount < 1 || maxFrameLength < 1)
        {
            throw new IllegalArgumentException(
                "slotCount and maxFrameLength must be positive: " + slotCount + ", " + maxFrameLength);
        }
        this.slotLength = BitUtil.align(maxFrameLength, ALIGNMENT);
        if ((long)slotLength * slotCount > Integer.MAX_VALUE)
        {
            throw new IllegalArgumentException(
                "slab of " + slotCount + " slots of " + slotLength + " bytes exceeds 2 GiB");
        }
        this.slotCount = slotCount;
        final long address = UnsafeApi.allocateMemory((long)slotLength * slotCount + ALIGNMENT);
        CLEANER.register(this, () -> UnsafeApi.freeMemory(address));
        this.buffer = new UnsafeBuffer(BitUtil.align(address, ALIGNMENT), slotLength * slotCount);
        this.frameLengths = new int[slotCount];
        this.storedLengths = new int[slotCount];
        this.freeSlots = new int[slotCount];
        for (int i = 0; i < slotCount; i++)
        {
            freeSlots[i] = slotCount - 1 - i;
        }
        this.freeCount = slotCount;
    }

    /**
     * Take a free slot and copy a frame into it. The caller checks {@link #freeCount()} first.
     *
     * @param src       holding the frame.
     * @param srcOffset of the frame.
     * @param length    of the frame, at most {@link #slotLength()}.
     * @return the slot index.
     */
    public int store(final DirectBuffer src, final int srcOffset, final int length)
    {
        return store(src, srcOffset, length, length);
    }

    /**
     * Take a free slot and copy the first bytes of a frame into it, recording the frame's whole length. The caller
     * checks {@link #freeCount()} first. Eight bytes (a handle) are moved as one word, without a copy routine.
     *
     * @param src          holding the frame.
     * @param srcOffset    of the frame.
     * @param storedLength bytes to copy, at most {@code length} and {@link #slotLength()}.
     * @param length       of the whole frame.
     * @return the slot index.
     */
    public int store(final DirectBuffer src, final int srcOffset, final int storedLength, final int length)
    {
        final int slot = freeSlots[--freeCount];
        if (Long.BYTES == storedLength)
        {
            buffer.putLong(slot * slotLength, src.getLong(srcOffset));
        }
        else
        {
            buffer.putBytes(slot * slotLength, src, srcOffset, storedLength);
        }
        frameLengths[slot] = length;
        storedLengths[slot] = storedLength;
        return slot;
    }

    /**
     * Return a slot to the free stack.
     *
     * @param slot to free.
     */
    public void free(final int slot)
    {
        freeSlots[freeCount++] = slot;
    }

    /**
     * The region holding all slots.
     *
     * @return the slab buffer.
     */
    public UnsafeBuffer buffer()
    {
        return buffer;
    }

    /**
     * Where a slot's frame starts in {@link #buffer()}.
     *
     * @param slot index.
     * @return the byte offset.
     */
    public int offset(final int slot)
    {
        return slot * slotLength;
    }

    /**
     * Length of the frame held in a slot.
     *
     * @param slot index.
     * @return the frame length in bytes.
     */
    public int frameLength(final int slot)
    {
        return frameLengths[slot];
    }

    /**
     * Bytes of the frame a slot holds: its whole length unless it was stored with fewer.
     *
     * @param slot index.
     * @return the stored length in bytes.
     */
    public int storedLength(final int slot)
    {
        return storedLengths[slot];
    }

    /**
     * Bytes per slot, the frame limit rounded up to the alignment.
     *
     * @return slot length in bytes.
     */
    public int slotLength()
    {
        return slotLength;
    }

    /**
     * Number of slots.
     *
     * @return the slot count.
     */
    public int slotCount()
    {
        return slotCount;
    }

    /**
     * Number of free slots.
     *
     * @return the free count.
     */
    public int freeCount()
    {
        return freeCount;
    }
}
