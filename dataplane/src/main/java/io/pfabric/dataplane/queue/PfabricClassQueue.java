package io.pfabric.dataplane.queue;

import io.pfabric.common.status.CounterArray;
import io.pfabric.common.topology.TrafficClasses;
import org.agrona.DirectBuffer;

/**
 * pFabric within traffic classes, weighted sharing between them (HotNets 2012, §2.5): a fabric shared by applications
 * with different needs schedules and drops by pFabric's rules inside each class, and divides each port between the
 * classes by weight.
 * <ul>
 *     <li>Class: the frame's IPv4 DSCP, given by the owner
 *     ({@link #enqueue(DirectBuffer, int, int, int, long, long, int)}), mapped by {@link TrafficClasses}; a frame
 *     offered without one is of DSCP 0.</li>
 *     <li>Within a class: {@link PfabricQueue}'s order, the same {@link PfabricScheduler}: the earliest frame of the
 *     flow that owns the most urgent frame leaves first; the least urgent frame (newest among equals) is evicted
 *     first.</li>
 *     <li>Between classes: deficit round robin over bytes (Shreedhar and Varghese, 1995). The backlogged classes take
 *     turns in the order they became backlogged; at the start of its turn a class's deficit grows by its quantum,
 *     weight × the longest frame, and the class sends while its next frame fits in its deficit. A class that empties
 *     leaves the round with its deficit reset. Work-conserving, and over any time both are backlogged two classes'
 *     bytes sent per unit weight differ by at most a few frames.</li>
 *     <li>Buffer: one byte budget shared by all classes, in which class k has a share of capacity × weight(k) / total
 *     weight. An arrival that does not fit, of a class that with it stays within its share, pushes out frames of the
 *     other classes: the least urgent frame of the class furthest over its share, in bytes, again until it fits
 *     ({@link DropReason#CLASS_SHARE_EVICTION}); since the shares add up to the capacity, some class is over its share
 *     whenever such an arrival does not fit. An arrival that would take its class over its share meets pFabric's
 *     rule within its own class only: it evicts its class's frames strictly less urgent than itself if they free
 *     enough room, else it is dropped. So a class may use buffer the others leave idle, but never keeps it from a
 *     class within its share, and priority numbers are compared only within a class.</li>
 * </ul>
 * Per class it counts the frames and bytes that leave ({@link #departedFrames(int)}, {@link #departedBytes(int)}), the
 * frames it drops, arriving or buffered ({@link #droppedFrames(int)}), and
 * the bytes that leave while every class is backlogged ({@link #backloggedBytes(int)}), the only time in which the
 * round robin splits the port by weight; single writer, the owner, and readable from any thread. Frames let through
 * an empty buffer by {@link #passThrough(int)} have no class and are not counted there.
 * <p>
 * Pre-allocated: one {@link PfabricScheduler} per class over the shared slots; nothing is allocated after
 * construction.
 */
public final class PfabricClassQueue extends QueueDiscipline
{
    /**
     * Name on the command line.
     */
    public static final String NAME = "pfabric-classes";

    private static final int NONE = -1;
    private static final int DEPARTED_FRAMES = 0;
    private static final int DEPARTED_BYTES = 1;
    private static final int BACKLOGGED_BYTES = 2;
    private static final int DROPPED_FRAMES = 3;
    private static final int CLASS_COUNTERS = 4;

    private final TrafficClasses classes;
    private final int classCount;
    private final int[] classOfDscp = new int[TrafficClasses.DSCP_COUNT];
    private final PfabricScheduler[] schedulers;
    private final long[] shareLength;
    private final DeficitRoundRobin rounds;
    private final CounterArray classCounters;
    private int activeClassCount;
    private boolean inStretch;

    /**
     * A queue with traffic classes for frames up to a 1500-byte MTU.
     *
     * @param capacityLength bytes the buffer may hold, shared by the classes.
     * @param classes        DSCP to class, and the classes' weights.
     */
    public PfabricClassQueue(final long capacityLength, final TrafficClasses classes)
    {
        this(capacityLength, DEFAULT_MAX_FRAME_LENGTH, classes);
    }

    /**
     * A queue with traffic classes.
     *
     * @param capacityLength bytes the buffer may hold, shared by the classes.
     * @param maxFrameLength longest frame accepted; a class's quantum is its weight times this.
     * @param classes        DSCP to class, and the classes' weights.
     */
    public PfabricClassQueue(final long capacityLength, final int maxFrameLength, final TrafficClasses classes)
    {
        this(capacityLength, maxFrameLength, maxFrameLength, classes);
    }

    /**
     * A queue with traffic classes that stores at most the first bytes of each frame.
     *
     * @param capacityLength  bytes the buffer may hold, shared by the classes.
     * @param maxFrameLength  longest frame accepted; a class's quantum is its weight times this.
     * @param maxStoredLength most bytes of a frame stored.
     * @param classes         DSCP to class, and the classes' weights.
     */
    public PfabricClassQueue(
        final long capacityLength, final int maxFrameLength, final int maxStoredLength, final TrafficClasses classes)
    {
        super(capacityLength, maxFrameLength, maxStoredLength);
        this.classes = classes;
        classCount = classes.classCount();
        for (int dscp = 0; dscp < TrafficClasses.DSCP_COUNT; dscp++)
        {
            classOfDscp[dscp] = classes.classOf(dscp);
        }
        final PfabricQueue.Structure structure = PfabricQueue.Structure.forBuffer(capacityLength, maxFrameLength);
        final long totalWeight = classes.totalWeight();
        schedulers = new PfabricScheduler[classCount];
        shareLength = new long[classCount];
        final long[] quantumLength = new long[classCount];
        for (int k = 0; k < classCount; k++)
        {
            schedulers[k] = new PfabricScheduler(slab, PfabricScheduler.SEQUENCE_BITS, structure);
            quantumLength[k] = (long)classes.weight(k) * maxFrameLength;
            shareLength[k] = capacityLength * classes.weight(k) / totalWeight;
        }
        rounds = new DeficitRoundRobin(quantumLength);
        classCounters = new CounterArray(classCount * CLASS_COUNTERS + 1);
    }

    /**
     * {@inheritDoc}
     */
    public String name()
    {
        return NAME;
    }

    /**
     * The classes: DSCP to class, and their weights.
     *
     * @return the classes.
     */
    public TrafficClasses classes()
    {
        return classes;
    }

    /**
     * The class a DSCP value maps to.
     *
     * @param dscp 0 to 63.
     * @return the class index.
     */
    public int classOf(final int dscp)
    {
        return classOfDscp[dscp & 0x3F];
    }

    /**
     * Bytes a class holds now. Owner thread only.
     *
     * @param trafficClass index.
     * @return the bytes.
     */
    public long classByteCount(final int trafficClass)
    {
        return schedulers[trafficClass].byteCount();
    }

    /**
     * Frames a class holds now. Owner thread only.
     *
     * @param trafficClass index.
     * @return the frames.
     */
    public int classPacketCount(final int trafficClass)
    {
        return schedulers[trafficClass].size();
    }

    /**
     * A class's share of the buffer: capacity × its weight / the total weight, rounded down.
     *
     * @param trafficClass index.
     * @return the share in bytes.
     */
    public long shareLength(final int trafficClass)
    {
        return shareLength[trafficClass];
    }

    /**
     * Bytes a class's deficit grows by at the start of its turn: its weight × the longest frame.
     *
     * @param trafficClass index.
     * @return the quantum in bytes.
     */
    public long quantumLength(final int trafficClass)
    {
        return rounds.quantumLength(trafficClass);
    }

    /**
     * Frames of a class that have left for the wire. Any thread.
     *
     * @param trafficClass index.
     * @return the frames since the queue was made.
     */
    public long departedFrames(final int trafficClass)
    {
        return classCounters.get(trafficClass * CLASS_COUNTERS + DEPARTED_FRAMES);
    }

    /**
     * Bytes of a class that have left for the wire, in frame lengths: the bytes the round robin charges. Any thread.
     *
     * @param trafficClass index.
     * @return the bytes since the queue was made.
     */
    public long departedBytes(final int trafficClass)
    {
        return classCounters.get(trafficClass * CLASS_COUNTERS + DEPARTED_BYTES);
    }

    /**
     * Frames of a class dropped: arrivals refused and buffered frames evicted, for any reason. Any thread.
     *
     * @param trafficClass index.
     * @return the frames since the queue was made.
     */
    public long droppedFrames(final int trafficClass)
    {
        return classCounters.get(trafficClass * CLASS_COUNTERS + DROPPED_FRAMES);
    }

    /**
     * Bytes of a class that have left while every class was backlogged: the class held the frame, and every other
     * class still held one once it had left. Only in that time does the round robin split the port by weight; the
     * rest of {@link #departedBytes(int)} left while some class had nothing queued, and went to whoever had. Any
     * thread.
     *
     * @param trafficClass index.
     * @return the bytes since the queue was made.
     */
    public long backloggedBytes(final int trafficClass)
    {
        return classCounters.get(trafficClass * CLASS_COUNTERS + BACKLOGGED_BYTES);
    }

    /**
     * Stretches in which every class stayed backlogged: runs of consecutive departures counted in
     * {@link #backloggedBytes(int)}, a run ending when a class is left without frames (by a departure or an
     * eviction). Within a stretch no class leaves the round, so over it the bytes each class sends differ from its
     * weight's share by at most a few of its quanta; over the whole count the bound is this many times that. Any
     * thread.
     *
     * @return the stretches since the queue was made.
     */
    public long backloggedStretches()
    {
        return classCounters.get(classCount * CLASS_COUNTERS);
    }

    protected boolean onEnqueue(
        final DirectBuffer src, final int srcOffset, final int length, final long priority, final long flowId)
    {
        final int trafficClass = classOfDscp[arrivalDscp()];
        if (!fits(length) && !makeRoom(trafficClass, length, priority))
        {
            classCounters.add(trafficClass * CLASS_COUNTERS + DROPPED_FRAMES, 1);
            drop(src, srcOffset, length, DropReason.PRIORITY_DROP_ARRIVAL);
            return false;
        }
        final int slot = store(src, srcOffset, length);
        final PfabricScheduler scheduler = schedulers[trafficClass];
        if (scheduler.isEmpty())
        {
            rounds.activate(trafficClass);
            activeClassCount++;
        }
        scheduler.add(slot, priority, flowId);
        return true;
    }

    protected int removeNext()
    {
        while (true)
        {
            final int trafficClass = rounds.creditedHead();
            final PfabricScheduler scheduler = schedulers[trafficClass];
            final int slot = scheduler.next();
            final int length = slab.frameLength(slot);
            if (length <= rounds.deficitLength(trafficClass))
            {
                rounds.charge(trafficClass, length);
                scheduler.remove(slot);
                final boolean emptied = scheduler.isEmpty();
                countDeparture(trafficClass, length, emptied);
                if (emptied)
                {
                    deactivate(trafficClass);
                }
                return slot;
            }
            rounds.endTurn();
        }
    }

    private void countDeparture(final int trafficClass, final int length, final boolean emptied)
    {
        final int base = trafficClass * CLASS_COUNTERS;
        classCounters.add(base + DEPARTED_FRAMES, 1);
        classCounters.add(base + DEPARTED_BYTES, length);
        if (activeClassCount == classCount)
        {
            classCounters.add(base + BACKLOGGED_BYTES, length);
            if (!inStretch)
            {
                classCounters.add(classCount * CLASS_COUNTERS, 1);
            }
            inStretch = !emptied;
        }
    }

    private void deactivate(final int trafficClass)
    {
        rounds.deactivate(trafficClass);
        activeClassCount--;
        inStretch = false;
    }

    private boolean makeRoom(final int trafficClass, final int length, final long priority)
    {
        final PfabricScheduler own = schedulers[trafficClass];
        if (own.byteCount() + length <= shareLength[trafficClass])
        {
            int victimClass;
            while (!fits(length) && NONE != (victimClass = furthestOverShare(trafficClass)))
            {
                evict(victimClass, DropReason.CLASS_SHARE_EVICTION);
            }
            if (fits(length))
            {
                return true;
            }
        }
        if (own.isEmpty() || own.leastUrgentPriority() <= priority)
        {
            return false;
        }
        final long deficit = byteCount + length - capacityLength;
        if (deficit > slab.frameLength(own.leastUrgent()) && !own.lessUrgentBytesAtLeast(priority, deficit))
        {
            return false;
        }
        do
        {
            evict(trafficClass, DropReason.PRIORITY_EVICTION);
        }
        while (!fits(length));
        return true;
    }

    private int furthestOverShare(final int arrivalClass)
    {
        int furthest = NONE;
        long furthestOverLength = 0;
        for (int k = 0; k < classCount; k++)
        {
            final long overLength = schedulers[k].byteCount() - shareLength[k];
            if (k != arrivalClass && overLength > furthestOverLength)
            {
                furthest = k;
                furthestOverLength = overLength;
            }
        }
        return furthest;
    }

    private void evict(final int trafficClass, final DropReason reason)
    {
        final PfabricScheduler scheduler = schedulers[trafficClass];
        final int victim = scheduler.leastUrgent();
        scheduler.remove(victim);
        if (scheduler.isEmpty())
        {
            deactivate(trafficClass);
        }
        classCounters.add(trafficClass * CLASS_COUNTERS + DROPPED_FRAMES, 1);
        dropBuffered(victim, reason);
    }
}
