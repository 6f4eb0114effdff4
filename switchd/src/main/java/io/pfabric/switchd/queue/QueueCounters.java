package io.pfabric.switchd.queue;

import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The counters of one egress queue, one 64-bit slot per {@link QueueCounter} in an off-heap buffer.
 * <p>
 * Single writer: the agent that owns the queue updates them with release stores, so any other thread (a metrics
 * scraper, an admin command) reads consistent values with {@link #get(QueueCounter)} without locking.
 */
public final class QueueCounters
{
    private static final int COUNTER_LENGTH = Long.BYTES;

    private final AtomicBuffer values;

    /**
     * Counters in a buffer of their own, all zero.
     */
    public QueueCounters()
    {
        values = new UnsafeBuffer(BufferUtil.allocateDirectAligned(
            BitUtil.align(QueueCounter.values().length * COUNTER_LENGTH, 64), 64));
    }

    /**
     * Read a counter from any thread.
     *
     * @param counter to read.
     * @return its current value.
     */
    public long get(final QueueCounter counter)
    {
        return values.getLongVolatile(counter.ordinal() * COUNTER_LENGTH);
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

    void add(final QueueCounter counter, final long delta)
    {
        final int index = counter.ordinal() * COUNTER_LENGTH;
        values.putLongRelease(index, values.getLong(index) + delta);
    }

    void recordDrop(final DropReason reason, final int length)
    {
        final int packetsIndex = (QueueCounter.TAIL_DROP_PACKETS.ordinal() + 2 * reason.ordinal()) * COUNTER_LENGTH;
        values.putLongRelease(packetsIndex, values.getLong(packetsIndex) + 1);
        values.putLongRelease(packetsIndex + COUNTER_LENGTH, values.getLong(packetsIndex + COUNTER_LENGTH) + length);
    }

    void raiseTo(final QueueCounter counter, final long value)
    {
        final int index = counter.ordinal() * COUNTER_LENGTH;
        if (value > values.getLong(index))
        {
            values.putLongRelease(index, value);
        }
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
