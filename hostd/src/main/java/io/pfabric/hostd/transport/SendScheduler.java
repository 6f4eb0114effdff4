package io.pfabric.hostd.transport;

import io.pfabric.common.topology.TrafficClasses;
import io.pfabric.dataplane.queue.DeficitRoundRobin;

import java.util.Arrays;

/**
 * When each of the host's flows next needs the transport: the flows whose window has room, in {@link FlowHeap}s of
 * flow slots most urgent first (smallest priority number, ties in arrival order: SRPT at the source), and the flows
 * whose retransmission timer runs, earliest deadline first. {@link #refresh} files a flow again after anything that may
 * change its state.
 * <p>
 * With traffic classes ({@link #trafficClasses}) each class has a ready heap of its own, and the host's link is
 * shared between the classes that have a flow ready as a {@code pfabric-classes} switch port shares its link:
 * deficit round robin over bytes. The classes with a flow ready take turns in the order they became ready; at the
 * start of its turn a class's deficit grows by its quantum, weight × the longest packet, and the class sends its
 * most urgent flow's next packet while its deficit is positive, each packet's bytes on the wire taken from the
 * deficit once sent ({@link #onSent}). A class whose last ready flow leaves the ready heap leaves the round, its
 * deficit reset. With packets of the longest length a class of weight w sends exactly w packets per turn; otherwise
 * its bytes per turn are within one packet of w × the longest, the overdraft carried into its next turn. With one
 * class (the default) the order is SRPT over every flow.
 */
final class SendScheduler
{
    /**
     * {@link #takeExpired} when no deadline is due.
     */
    static final int NONE = -1;

    private static final long SEQUENCE_MASK = 0x7FFF_FFFFL;
    private static final int INITIAL_CAPACITY = 64;

    private final FlowHeap timeouts = new FlowHeap(INITIAL_CAPACITY);
    private FlowHeap[] ready = { new FlowHeap(INITIAL_CAPACITY) };
    private TrafficClasses classes;
    private int[] classOfSlot = new int[INITIAL_CAPACITY];
    private DeficitRoundRobin rounds = new DeficitRoundRobin(new long[] { 1 });

    /**
     * Share sending between traffic classes by their weights, or send by SRPT over every flow with null or one class.
     * Before the first flow is filed.
     *
     * @param newClasses        DSCP to class and the classes' weights, or null.
     * @param maxPacketLength   bytes on the wire of the longest packet; a class's quantum is its weight times this.
     */
    void trafficClasses(final TrafficClasses newClasses, final int maxPacketLength)
    {
        if (hasFlows())
        {
            throw new IllegalStateException("traffic classes are set before the first flow");
        }
        if (maxPacketLength < 1)
        {
            throw new IllegalArgumentException("longest packet must be positive: " + maxPacketLength);
        }
        final int classCount = null == newClasses ? 1 : newClasses.classCount();
        classes = 1 == classCount ? null : newClasses;
        ready = new FlowHeap[classCount];
        final long[] quantumLength = new long[classCount];
        for (int k = 0; k < classCount; k++)
        {
            ready[k] = new FlowHeap(1 == classCount ? INITIAL_CAPACITY : INITIAL_CAPACITY / 4);
            quantumLength[k] = (long)(null == classes ? 1 : classes.weight(k)) * maxPacketLength;
        }
        rounds = new DeficitRoundRobin(quantumLength);
    }

    /**
     * Number of classes the link is shared between.
     *
     * @return 1 without traffic classes.
     */
    int classCount()
    {
        return ready.length;
    }

    /**
     * A class's deficit: the bytes it may still send in its turn (0 or less once spent).
     *
     * @param trafficClass index from 0.
     * @return bytes.
     */
    long deficitLength(final int trafficClass)
    {
        return rounds.deficitLength(trafficClass);
    }

    void refresh(final int slot, final FlowSender sender)
    {
        final int trafficClass = null == classes ? 0 : classes.classOf(sender.dscp());
        if (slot >= classOfSlot.length)
        {
            classOfSlot = Arrays.copyOf(classOfSlot, Math.max(slot + 1, classOfSlot.length * 2));
        }
        classOfSlot[slot] = trafficClass;
        if (sender.canSend())
        {
            final FlowHeap heap = ready[trafficClass];
            if (null != classes && heap.isEmpty())
            {
                rounds.activate(trafficClass);
            }
            final long key = (sender.priority() << 31) | (arrivalOrder(sender) & SEQUENCE_MASK);
            heap.upsert(slot, sender.isDeadlineClass() ? key | Long.MIN_VALUE : key);
        }
        else
        {
            removeReady(slot);
        }
        if (sender.isTimerArmed())
        {
            timeouts.upsert(slot, sender.timeoutDeadlineNs());
        }
        else
        {
            timeouts.remove(slot);
        }
    }

    void remove(final int slot)
    {
        removeReady(slot);
        timeouts.remove(slot);
    }

    boolean hasReady()
    {
        return null == classes ? !ready[0].isEmpty() : !rounds.isIdle();
    }

    /**
     * The flow that sends next: the most urgent of all without classes, else the most urgent of the class whose
     * turn it is. Only while {@link #hasReady()}.
     *
     * @return its slot.
     */
    int mostUrgentSlot()
    {
        if (null == classes)
        {
            return ready[0].minSlot();
        }
        while (true)
        {
            final int trafficClass = rounds.creditedHead();
            if (rounds.deficitLength(trafficClass) > 0)
            {
                return ready[trafficClass].minSlot();
            }
            rounds.endTurn();
        }
    }

    /**
     * Charge a packet just sent by the flow {@link #mostUrgentSlot()} gave to its class's deficit, before the flow's
     * {@link #refresh}.
     *
     * @param slot       the flow's slot.
     * @param wireLength the packet's bytes on the wire.
     */
    void onSent(final int slot, final int wireLength)
    {
        if (null != classes)
        {
            rounds.charge(classOfSlot[slot], wireLength);
        }
    }

    /**
     * Take a flow out of the ready heap until its next {@link #refresh}.
     */
    void setAside(final int slot)
    {
        removeReady(slot);
    }

    boolean hasTimers()
    {
        return !timeouts.isEmpty();
    }

    long earliestDeadlineNs()
    {
        return timeouts.key(timeouts.minSlot());
    }

    /**
     * The flow with the earliest deadline if it is due, taken out of the timeout heap.
     *
     * @return its slot, or {@link #NONE}.
     */
    int takeExpired(final long nowNs)
    {
        if (timeouts.isEmpty())
        {
            return NONE;
        }
        final int slot = timeouts.minSlot();
        if (timeouts.key(slot) - nowNs > 0)
        {
            return NONE;
        }
        timeouts.remove(slot);
        return slot;
    }

    private boolean hasFlows()
    {
        if (!timeouts.isEmpty())
        {
            return true;
        }
        for (final FlowHeap heap : ready)
        {
            if (!heap.isEmpty())
            {
                return true;
            }
        }
        return false;
    }

    private void removeReady(final int slot)
    {
        if (slot >= classOfSlot.length)
        {
            return;
        }
        final int trafficClass = classOfSlot[slot];
        final FlowHeap heap = ready[trafficClass];
        if (heap.contains(slot))
        {
            heap.remove(slot);
            if (null != classes && heap.isEmpty())
            {
                rounds.deactivate(trafficClass);
            }
        }
    }

    private static long arrivalOrder(final FlowSender sender)
    {
        return sender.flowId() & 0xFFFF_FFFFL;
    }
}
