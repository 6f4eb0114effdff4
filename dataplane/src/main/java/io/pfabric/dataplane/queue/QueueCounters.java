package io.pfabric.dataplane.queue;

import io.pfabric.common.status.CounterSet;

/**
 * The counters of one egress queue, one per {@link QueueCounter}: written by the agent that owns the queue, readable
 * from any thread (see {@link CounterSet}).
 */
public final class QueueCounters extends CounterSet<QueueCounter>
{
    /**
     * Counters of a queue, all zero.
     */
    public QueueCounters()
    {
        super(QueueCounter.class);
    }

    /**
     * Frames dropped for a reason.
     *
     * @param reason of the drops.
     * @return the number of frames.
     */
    public long droppedPackets(final DropReason reason)
    {
        return get(QueueCounter.dropPackets(reason));
    }

    /**
     * Frames dropped for any reason.
     *
     * @return the number of frames.
     */
    public long droppedPackets()
    {
        long total = 0;
        for (final DropReason reason : DropReason.values())
        {
            total += droppedPackets(reason);
        }
        return total;
    }

    void enqueued(final int length, final long byteCount, final int packetCount)
    {
        add(QueueCounter.ENQUEUED_PACKETS, 1);
        add(QueueCounter.ENQUEUED_BYTES, length);
        raiseTo(QueueCounter.HIGH_WATER_BYTES, byteCount);
        raiseTo(QueueCounter.HIGH_WATER_PACKETS, packetCount);
    }

    void dequeued(final int length)
    {
        add(QueueCounter.DEQUEUED_PACKETS, 1);
        add(QueueCounter.DEQUEUED_BYTES, length);
    }

    void recordDrop(final DropReason reason, final int length)
    {
        add(QueueCounter.dropPackets(reason), 1);
        add(QueueCounter.dropBytes(reason), length);
    }

    /**
     * Append every counter as {@code label: value} lines, for cold-path reports.
     *
     * @param out to append to.
     * @return out.
     */
    public StringBuilder appendTo(final StringBuilder out)
    {
        for (final QueueCounter counter : QueueCounter.values())
        {
            out.append(counter.label()).append(": ").append(get(counter)).append('\n');
        }
        return out;
    }
}
