package io.pfabric.switchd.queue;

import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The counters of one egress queue, one 64-bit slot per {@link QueueCounter} in an off-heap buffer.
 * <p>
 * Single writer: the agent that owns the queue keeps its own copy and publishes every change with a release store, so
 * any other thread (a metrics scraper, an admin command) reads consistent values with {@link #get(QueueCounter)}
 * without locking, and the owner never reads back from the shared buffer.
 */
public final class QueueCounters
{
    private static final int COUNTER_LENGTH = Long.BYTES;

    private final AtomicBuffer values;
    private final long[] ownerValues = new long[QueueCounter.values().length];

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
        final int index = counter.ordinal();
        final long value = ownerValues[index] + delta;
        ownerValues[index] = value;
        values.putLongRelease(index * COUNTER_LENGTH, value);
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
        final QueueCounter packets = QueueCounter.dropPackets(reason);
        add(packets, 1);
        add(QueueCounter.dropBytes(reason), length);
    }

    void raiseTo(final QueueCounter counter, final long value)
    {
        final int index = counter.ordinal();
        if (value > ownerValues[index])
        {
            ownerValues[index] = value;
            values.putLongRelease(index * COUNTER_LENGTH, value);
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
