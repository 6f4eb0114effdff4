package io.pfabric.dataplane.queue;

import io.pfabric.common.wire.PfabricHeaderFlyweight;
import org.agrona.DirectBuffer;

/**
 * pFabric-EDF's switch queue (the pFabric paper, §5.4.2): deadline traffic and the rest in two queues, the deadline
 * queue served in strict priority, pFabric's scheduling and dropping within each, each queue with half the buffer
 * (36 KB each by default, the paper's setting).
 * <ul>
 *     <li>A frame goes to the deadline queue if its pFabric header has the DEADLINE flag
 *     ({@link PfabricHeaderFlyweight#FLAG_DEADLINE}: its priority is the flow's deadline in microseconds, so earliest
 *     deadline first) or its priority is 0: ACKs and control frames, which pFabric serves before all data, keep
 *     that place. Every other frame, deadline flows demoted by their senders included, goes to the other queue.</li>
 *     <li>Dequeue: the deadline queue's next frame if it has one, else the other's; within a queue, pFabric's rule
 *     (the earliest frame of the flow that owns the most urgent frame).</li>
 *     <li>Enqueue: a frame that does not fit in its queue's half meets pFabric's rule within that queue only
 *     (evict its least urgent frames if they are strictly less urgent and free enough room, else drop the
 *     arrival): the two kinds of priority number are in different units and are never compared.</li>
 * </ul>
 * Both queues' frames are in the one slab of the buffer. Allocation-free after construction.
 */
public final class PfabricEdfQueue extends QueueDiscipline
{
    /**
     * Name on the command line.
     */
    public static final String NAME = "pfabric-edf";

    /**
     * Default buffer: two queues of 36,000 bytes.
     */
    public static final long DEFAULT_CAPACITY_LENGTH = 2 * PfabricQueue.DEFAULT_CAPACITY_LENGTH;

    /**
     * Index of the deadline queue, served first.
     */
    public static final int DEADLINE_QUEUE = 0;

    /**
     * Index of the queue of the other traffic.
     */
    public static final int OTHER_QUEUE = 1;

    private final PfabricScheduler[] schedulers = new PfabricScheduler[2];
    private final long queueLength;

    /**
     * Two queues of half the buffer each, for frames up to a 1500-byte MTU.
     *
     * @param capacityLength bytes the whole buffer may hold, at least twice the longest frame.
     */
    public PfabricEdfQueue(final long capacityLength)
    {
        this(capacityLength, DEFAULT_MAX_FRAME_LENGTH, DEFAULT_MAX_FRAME_LENGTH);
    }

    /**
     * Two queues of half the buffer each that store at most the first bytes of each frame.
     *
     * @param capacityLength  bytes the whole buffer may hold, at least twice the longest frame.
     * @param maxFrameLength  longest frame accepted.
     * @param maxStoredLength most bytes of a frame stored.
     */
    public PfabricEdfQueue(final long capacityLength, final int maxFrameLength, final int maxStoredLength)
    {
        super(capacityLength, maxFrameLength, maxStoredLength);
        if (capacityLength / 2 < maxFrameLength)
        {
            throw new IllegalArgumentException("each of the two queues needs room for the longest frame: capacity " +
                capacityLength + " < 2 x " + maxFrameLength);
        }
        queueLength = capacityLength / 2;
        final PfabricQueue.Structure structure = PfabricQueue.Structure.forBuffer(queueLength, maxFrameLength);
        for (int i = 0; i < schedulers.length; i++)
        {
            schedulers[i] = new PfabricScheduler(slab, PfabricScheduler.SEQUENCE_BITS, structure);
        }
    }

    /**
     * {@inheritDoc}
     */
    public String name()
    {
        return NAME;
    }

    /**
     * Bytes each of the two queues may hold: half the buffer.
     *
     * @return bytes.
     */
    public long queueLength()
    {
        return queueLength;
    }

    /**
     * Bytes a queue holds now. Owner thread only.
     *
     * @param queue {@link #DEADLINE_QUEUE} or {@link #OTHER_QUEUE}.
     * @return bytes.
     */
    public long queueByteCount(final int queue)
    {
        return schedulers[queue].byteCount();
    }

    /**
     * Frames a queue holds now. Owner thread only.
     *
     * @param queue {@link #DEADLINE_QUEUE} or {@link #OTHER_QUEUE}.
     * @return frames.
     */
    public int queuePacketCount(final int queue)
    {
        return schedulers[queue].size();
    }

    /**
     * The queue a frame goes to.
     *
     * @param priority     its saturated priority number.
     * @param pfabricFlags the flags of its pFabric header, 0 if it is not pFabric.
     * @return {@link #DEADLINE_QUEUE} or {@link #OTHER_QUEUE}.
     */
    public static int queueOf(final long priority, final int pfabricFlags)
    {
        return 0 != (pfabricFlags & PfabricHeaderFlyweight.FLAG_DEADLINE) || 0 == priority ?
            DEADLINE_QUEUE : OTHER_QUEUE;
    }

    protected boolean onEnqueue(
        final DirectBuffer src, final int srcOffset, final int length, final long priority, final long flowId)
    {
        final PfabricScheduler own = schedulers[queueOf(priority, arrivalFlags())];
        if (own.byteCount() + length > queueLength && !makeRoom(own, length, priority))
        {
            drop(src, srcOffset, length, DropReason.PRIORITY_DROP_ARRIVAL);
            return false;
        }
        final int slot = store(src, srcOffset, length);
        own.add(slot, priority, flowId);
        return true;
    }

    protected int removeNext()
    {
        final PfabricScheduler scheduler = schedulers[DEADLINE_QUEUE].isEmpty() ?
            schedulers[OTHER_QUEUE] : schedulers[DEADLINE_QUEUE];
        final int slot = scheduler.next();
        scheduler.remove(slot);
        return slot;
    }

    private boolean makeRoom(final PfabricScheduler own, final int length, final long priority)
    {
        if (own.isEmpty() || own.leastUrgentPriority() <= priority)
        {
            return false;
        }
        final long deficit = own.byteCount() + length - queueLength;
        if (deficit > slab.frameLength(own.leastUrgent()) && !own.lessUrgentBytesAtLeast(priority, deficit))
        {
            return false;
        }
        do
        {
            final int victim = own.leastUrgent();
            own.remove(victim);
            dropBuffered(victim, DropReason.PRIORITY_EVICTION);
        }
        while (own.byteCount() + length > queueLength);
        return true;
    }
}
