package io.pfabric.hostd.transport;

/**
 * When each of the host's flows next needs the transport, as two {@link FlowHeap}s of flow slots: the flows whose
 * window has room, most urgent first (smallest priority number, ties in arrival order: SRPT at the source), and the
 * flows whose retransmission timer runs, earliest deadline first. {@link #refresh} files a flow again after anything
 * that may change its state.
 */
final class SendScheduler
{
    /**
     * {@link #takeExpired} when no deadline is due.
     */
    static final int NONE = -1;

    private static final long SEQUENCE_MASK = 0x7FFF_FFFFL;

    private final FlowHeap ready = new FlowHeap(64);
    private final FlowHeap timeouts = new FlowHeap(64);

    void refresh(final int slot, final FlowSender sender)
    {
        if (sender.canSend())
        {
            ready.upsert(slot, (sender.priority() << 31) | (arrivalOrder(sender) & SEQUENCE_MASK));
        }
        else
        {
            ready.remove(slot);
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
        ready.remove(slot);
        timeouts.remove(slot);
    }

    boolean hasReady()
    {
        return !ready.isEmpty();
    }

    int mostUrgentSlot()
    {
        return ready.minSlot();
    }

    /**
     * Take a flow out of the ready heap until its next {@link #refresh}.
     */
    void setAside(final int slot)
    {
        ready.remove(slot);
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

    private static long arrivalOrder(final FlowSender sender)
    {
        return sender.flowId() & 0xFFFF_FFFFL;
    }
}
