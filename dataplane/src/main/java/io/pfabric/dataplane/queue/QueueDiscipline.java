package io.pfabric.dataplane.queue;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A byte-bounded egress buffer with a scheduling and dropping policy, over pre-allocated off-heap packet slots.
 * <p>
 * The owner offers frames with {@link #enqueue} and takes the next frame for the wire with {@link #dequeue} when the
 * link is free. A frame fits when the bytes buffered plus its length do not exceed {@link #capacityLength()}, so a
 * buffer of 24 × 1500 bytes holds 24 full frames. Every drop is counted by {@link DropReason} and reported to the
 * {@link DropHandler}. Whatever the discipline, a frame sent while a frame of a smaller priority number waits in the
 * buffer is counted as a rank inversion ({@link QueueCounter#RANK_INVERSION_PACKETS}); the buffer keeps the waiting
 * frames' priority numbers in a heap for it, unless the discipline counts them from an order of its own. Single-threaded and allocation-free after construction; counters may be read from any thread.
 */
public abstract class QueueDiscipline
{
    /**
     * Smallest Ethernet frame without FCS; with frames at least this long the slots never run out before the bytes.
     */
    public static final int MIN_FRAME_LENGTH = 60;

    /**
     * Default longest frame: a 1500-byte MTU plus the 14-byte Ethernet header.
     */
    public static final int DEFAULT_MAX_FRAME_LENGTH = 1514;

    /**
     * Largest priority number; larger values are saturated to it.
     */
    public static final long MAX_PRIORITY = 0xFFFF_FFFFL;

    private static final int DSCP_MASK = 0x3F;
    private static final int FLAGS_MASK = 0xFF;

    protected final PacketSlab slab;
    protected final QueueCounters counters = new QueueCounters();
    protected final long capacityLength;
    protected final int maxFrameLength;
    private final int maxStoredLength;
    protected long byteCount;
    protected int packetCount;
    private DropHandler dropHandler = DropHandler.NONE;
    private final SlotHeap waitingPriorities;
    private int arrivalStoredLength;
    private int arrivalDscp;
    private long arrivalPriority;
    private int arrivalFlags;

    /**
     * Allocate the buffer.
     *
     * @param capacityLength bytes the buffer may hold.
     * @param maxFrameLength longest frame accepted, in bytes.
     */
    protected QueueDiscipline(final long capacityLength, final int maxFrameLength)
    {
        this(capacityLength, maxFrameLength, maxFrameLength);
    }

    /**
     * Allocate a buffer whose slots hold at most the first bytes of a frame, for an owner that stores only a frame's
     * headers or a handle to it ({@link #enqueue(DirectBuffer, int, int, int, long, long)}); small slots keep the
     * frames of a queue on a few cache lines. A frame offered with more bytes to store is dropped as of bad length.
     *
     * @param capacityLength  bytes the buffer may hold.
     * @param maxFrameLength  longest frame accepted, in bytes.
     * @param maxStoredLength most bytes of a frame stored, 8 to {@code maxFrameLength}.
     */
    protected QueueDiscipline(final long capacityLength, final int maxFrameLength, final int maxStoredLength)
    {
        this(capacityLength, maxFrameLength, maxStoredLength, false);
    }

    /**
     * Allocate a buffer whose discipline may count its own rank inversions, from an order it keeps anyway, so that
     * the buffer need not keep a heap of the waiting frames' priority numbers for it.
     *
     * @param capacityLength       bytes the buffer may hold.
     * @param maxFrameLength       longest frame accepted, in bytes.
     * @param maxStoredLength      most bytes of a frame stored, 8 to {@code maxFrameLength}.
     * @param countsRankInversions true if {@link #removeNext} counts {@link QueueCounter#RANK_INVERSION_PACKETS}
     *                             itself.
     */
    protected QueueDiscipline(final long capacityLength, final int maxFrameLength, final int maxStoredLength,
        final boolean countsRankInversions)
    {
        if (maxFrameLength < MIN_FRAME_LENGTH || capacityLength < maxFrameLength)
        {
            throw new IllegalArgumentException("need " + MIN_FRAME_LENGTH + " <= maxFrameLength <= capacityLength, got " +
                maxFrameLength + " and " + capacityLength);
        }
        if (maxStoredLength < Long.BYTES || maxStoredLength > maxFrameLength)
        {
            throw new IllegalArgumentException(
                "need 8 <= maxStoredLength <= maxFrameLength, got " + maxStoredLength + " and " + maxFrameLength);
        }
        final long slotCount = capacityLength / MIN_FRAME_LENGTH + 1;
        if (slotCount > Integer.MAX_VALUE / 2)
        {
            throw new IllegalArgumentException("capacityLength too large: " + capacityLength);
        }
        this.capacityLength = capacityLength;
        this.maxFrameLength = maxFrameLength;
        this.maxStoredLength = maxStoredLength;
        this.slab = new PacketSlab((int)slotCount, maxStoredLength);
        this.waitingPriorities = countsRankInversions ? null : new SlotHeap((int)slotCount);
    }

    /**
     * Offer a frame to the buffer.
     *
     * @param src       holding the frame.
     * @param srcOffset of the frame in src.
     * @param length    of the frame in bytes.
     * @param priority  smaller is more urgent; saturated to [0, {@link #MAX_PRIORITY}].
     * @param flowId    identity of the frame's flow.
     * @return true if the frame was buffered, false if it was dropped.
     */
    public final boolean enqueue(
        final DirectBuffer src, final int srcOffset, final int length, final long priority, final long flowId)
    {
        return enqueue(src, srcOffset, length, length, priority, flowId);
    }

    /**
     * Offer a frame of which only the first bytes are copied into the buffer, for an owner that keeps the rest
     * elsewhere (the simulator hands its queues a frame's headers and a handle to the frame, so that a hop costs the
     * same whatever the frame's length). The frame is accounted, scheduled and dropped as a frame of {@code length}
     * bytes; {@link #dequeue} and the {@link DropHandler} see only the stored bytes, with the whole length.
     *
     * @param src          holding the frame.
     * @param srcOffset    of the frame in src.
     * @param storedLength bytes of the frame to copy, 1 to {@code length} and at most the queue's stored length.
     * @param length       of the whole frame in bytes.
     * @param priority     smaller is more urgent; saturated to [0, {@link #MAX_PRIORITY}].
     * @param flowId       identity of the frame's flow.
     * @return true if the frame was buffered, false if it was dropped.
     */
    public final boolean enqueue(
        final DirectBuffer src,
        final int srcOffset,
        final int storedLength,
        final int length,
        final long priority,
        final long flowId)
    {
        return enqueue(src, srcOffset, storedLength, length, priority, flowId, 0);
    }

    /**
     * Offer a frame with the DSCP of its IPv4 header, which a discipline with traffic classes
     * ({@link PfabricClassQueue}) maps to the frame's class; the other disciplines ignore it. The owner reads the DSCP
     * when it parses the frame, so that a discipline never parses, and a frame stored as a handle still has a class.
     *
     * @param src          holding the frame.
     * @param srcOffset    of the frame in src.
     * @param storedLength bytes of the frame to copy, 1 to {@code length} and at most the queue's stored length.
     * @param length       of the whole frame in bytes.
     * @param priority     smaller is more urgent; saturated to [0, {@link #MAX_PRIORITY}].
     * @param flowId       identity of the frame's flow.
     * @param dscp         the frame's IPv4 DSCP, 0 to 63 (only the low 6 bits are used); 0 for a frame that is not
     *                     IPv4.
     * @return true if the frame was buffered, false if it was dropped.
     */
    public final boolean enqueue(
        final DirectBuffer src,
        final int srcOffset,
        final int storedLength,
        final int length,
        final long priority,
        final long flowId,
        final int dscp)
    {
        return enqueue(src, srcOffset, storedLength, length, priority, flowId, dscp, 0);
    }

    /**
     * Offer a frame with the DSCP of its IPv4 header and the flags of its pFabric header, which a discipline that
     * keeps deadline traffic apart ({@link PfabricEdfQueue}) reads; the other disciplines ignore them.
     *
     * @param src          holding the frame.
     * @param srcOffset    of the frame in src.
     * @param storedLength bytes of the frame to copy, 1 to {@code length} and at most the queue's stored length.
     * @param length       of the whole frame in bytes.
     * @param priority     smaller is more urgent; saturated to [0, {@link #MAX_PRIORITY}].
     * @param flowId       identity of the frame's flow.
     * @param dscp         the frame's IPv4 DSCP, 0 to 63; 0 for a frame that is not IPv4.
     * @param pfabricFlags the flags byte of its pFabric header; 0 for a frame that is not pFabric.
     * @return true if the frame was buffered, false if it was dropped.
     */
    public final boolean enqueue(
        final DirectBuffer src,
        final int srcOffset,
        final int storedLength,
        final int length,
        final long priority,
        final long flowId,
        final int dscp,
        final int pfabricFlags)
    {
        if (length <= 0 || length > maxFrameLength || storedLength <= 0 || storedLength > length ||
            storedLength > maxStoredLength)
        {
            drop(src, srcOffset, length, DropReason.BAD_LENGTH);
            return false;
        }
        arrivalStoredLength = storedLength;
        arrivalDscp = dscp & DSCP_MASK;
        arrivalFlags = pfabricFlags & FLAGS_MASK;
        final long saturated = priority < 0 ? 0 : Math.min(priority, MAX_PRIORITY);
        arrivalPriority = saturated;
        return onEnqueue(src, srcOffset, length, saturated, flowId);
    }

    /**
     * Let a frame through an empty buffer to a port that is free to send it now: it would be buffered and taken
     * straight back (every discipline admits a frame that fits to an empty buffer, and sends it next), so it is only
     * counted as enqueued and dequeued, and the caller sends it. For an owner that knows its port is idle, as the
     * simulator does. Nothing is dropped here: a frame that cannot pass is for {@link #enqueue}. A discipline whose
     * state follows every arrival (SP-PIFO's bounds, AIFO's window of ranks) lets nothing pass, so that it sees them
     * all.
     *
     * @param length of the frame in bytes.
     * @return true if the frame passed; false if the buffer is not empty or the length is invalid.
     */
    public final boolean passThrough(final int length)
    {
        if (0 != packetCount || length <= 0 || length > maxFrameLength || learnsFromArrivals())
        {
            return false;
        }
        counters.enqueued(length, length, 1);
        counters.dequeued(length);
        return true;
    }

    /**
     * Take the next frame for the wire, copying it out (only its stored bytes, for a frame enqueued with fewer).
     *
     * @param dst       to copy the frame into.
     * @param dstOffset where the frame starts in dst.
     * @return the frame's length, or 0 if the buffer is empty.
     */
    public final int dequeue(final MutableDirectBuffer dst, final int dstOffset)
    {
        if (0 == packetCount)
        {
            return 0;
        }
        final int slot = removeNext();
        final int length = slab.frameLength(slot);
        final int storedLength = slab.storedLength(slot);
        if (Long.BYTES == storedLength)
        {
            dst.putLong(dstOffset, slab.buffer().getLong(slab.offset(slot)));
        }
        else
        {
            dst.putBytes(dstOffset, slab.buffer(), slab.offset(slot), storedLength);
        }
        departed(slot, length);
        return length;
    }

    /**
     * Take the next frame for the wire, handing the handler a view of it without copying.
     *
     * @param handler given the frame; the view is valid only during the call.
     * @return the frame's length, or 0 if the buffer is empty.
     */
    public final int dequeue(final FrameHandler handler)
    {
        if (0 == packetCount)
        {
            return 0;
        }
        final int slot = removeNext();
        final int length = slab.frameLength(slot);
        handler.onFrame(slab.buffer(), slab.offset(slot), length);
        departed(slot, length);
        return length;
    }

    private void departed(final int slot, final int length)
    {
        if (null == waitingPriorities)
        {
            release(slot);
        }
        else
        {
            final long priority = waitingPriorities.keyOf(slot);
            release(slot);
            if (waitingPriorities.size() > 0 && waitingPriorities.topKey() < priority)
            {
                counters.add(QueueCounter.RANK_INVERSION_PACKETS, 1);
            }
        }
        counters.dequeued(length);
    }

    /**
     * Whether the discipline's state changes with every arrival, even one that finds the buffer empty, so that
     * {@link #passThrough} must not hide any.
     *
     * @return false unless a discipline says otherwise.
     */
    protected boolean learnsFromArrivals()
    {
        return false;
    }

    /**
     * Whether the discipline writes into the frames it holds (an ECN mark in the IPv4 header), so that an owner must
     * store at least a frame's headers, not only a handle to it.
     *
     * @return false unless a discipline says otherwise.
     */
    public boolean marksFrames()
    {
        return false;
    }

    /**
     * Name of the discipline as used on the command line.
     *
     * @return the name.
     */
    public abstract String name();

    /**
     * Choose, unlink and return the slot of the next frame to send. Called only when the buffer is not empty.
     *
     * @return the slot index.
     */
    protected abstract int removeNext();

    /**
     * Admit or drop a frame of valid length.
     *
     * @param src       holding the frame.
     * @param srcOffset of the frame.
     * @param length    of the frame.
     * @param priority  saturated priority number.
     * @param flowId    flow identity.
     * @return true if buffered.
     */
    protected abstract boolean onEnqueue(DirectBuffer src, int srcOffset, int length, long priority, long flowId);

    /**
     * DSCP of the frame being offered, for {@link #onEnqueue}: as given to
     * {@link #enqueue(DirectBuffer, int, int, int, long, long, int)}, else 0.
     *
     * @return the 6-bit DSCP.
     */
    protected final int arrivalDscp()
    {
        return arrivalDscp;
    }

    /**
     * Priority number of the frame being offered, for {@link #onEnqueue}: as given to {@link #enqueue}, saturated.
     *
     * @return the priority number.
     */
    protected final long arrivalPriority()
    {
        return arrivalPriority;
    }

    /**
     * pFabric header flags of the frame being offered, for {@link #onEnqueue}: as given to
     * {@link #enqueue(DirectBuffer, int, int, int, long, long, int, int)}, else 0.
     *
     * @return the 8-bit flags.
     */
    protected final int arrivalFlags()
    {
        return arrivalFlags;
    }

    /**
     * Whether a frame of this length fits without dropping anything.
     *
     * @param length of the frame.
     * @return true if it fits.
     */
    protected final boolean fits(final int length)
    {
        return byteCount + length <= capacityLength && slab.freeCount() > 0;
    }

    /**
     * Copy an admitted frame into a slot (as many bytes as its owner gave) and account for it.
     *
     * @param src       holding the frame.
     * @param srcOffset of the frame.
     * @param length    of the frame.
     * @return the slot.
     */
    protected final int store(final DirectBuffer src, final int srcOffset, final int length)
    {
        final int slot = slab.store(src, srcOffset, arrivalStoredLength, length);
        if (null != waitingPriorities)
        {
            waitingPriorities.add(slot, arrivalPriority);
        }
        byteCount += length;
        packetCount++;
        counters.enqueued(length, byteCount, packetCount);
        return slot;
    }

    /**
     * Drop a buffered frame whose slot is already unlinked from the discipline's structures.
     *
     * @param slot   of the frame.
     * @param reason for the drop.
     */
    protected final void dropBuffered(final int slot, final DropReason reason)
    {
        drop(slab.buffer(), slab.offset(slot), slab.frameLength(slot), reason);
        release(slot);
    }

    /**
     * Count and report a drop.
     *
     * @param buffer holding the frame.
     * @param offset of the frame.
     * @param length of the frame.
     * @param reason for the drop.
     */
    protected final void drop(final DirectBuffer buffer, final int offset, final int length, final DropReason reason)
    {
        counters.recordDrop(reason, Math.max(length, 0));
        dropHandler.onDrop(buffer, offset, length, reason);
    }

    private void release(final int slot)
    {
        if (null != waitingPriorities)
        {
            waitingPriorities.remove(slot);
        }
        byteCount -= slab.frameLength(slot);
        packetCount--;
        slab.free(slot);
    }

    /**
     * Set the handler told of every drop.
     *
     * @param dropHandler to call; {@link DropHandler#NONE} to only count.
     * @return this for a fluent API.
     */
    public final QueueDiscipline dropHandler(final DropHandler dropHandler)
    {
        this.dropHandler = null == dropHandler ? DropHandler.NONE : dropHandler;
        return this;
    }

    /**
     * Counters of this queue.
     *
     * @return the counters.
     */
    public final QueueCounters counters()
    {
        return counters;
    }

    /**
     * Bytes buffered now.
     *
     * @return the occupancy in bytes.
     */
    public final long byteCount()
    {
        return byteCount;
    }

    /**
     * Frames buffered now.
     *
     * @return the occupancy in frames.
     */
    public final int packetCount()
    {
        return packetCount;
    }

    /**
     * Whether nothing is buffered.
     *
     * @return true if empty.
     */
    public final boolean isEmpty()
    {
        return 0 == packetCount;
    }

    /**
     * Bytes the buffer may hold.
     *
     * @return the capacity in bytes.
     */
    public final long capacityLength()
    {
        return capacityLength;
    }

    /**
     * Longest frame accepted.
     *
     * @return the length in bytes.
     */
    public final int maxFrameLength()
    {
        return maxFrameLength;
    }
}
