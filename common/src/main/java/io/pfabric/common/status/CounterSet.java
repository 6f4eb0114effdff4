package io.pfabric.common.status;

import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One 64-bit counter per constant of an enum, in an off-heap buffer.
 * <p>
 * Single writer: the agent that owns the counters updates them through {@link #add} and {@link #raiseTo}, keeping its
 * own copy and publishing every change with a release store, so any other thread (a metrics scraper, an admin
 * command) reads consistent values with {@link #get} without locking, and the owner never reads back from the shared
 * buffer.
 *
 * @param <E> the enum naming the counters.
 */
public class CounterSet<E extends Enum<E>>
{
    private static final int COUNTER_LENGTH = Long.BYTES;

    private final AtomicBuffer values;
    private final long[] ownerValues;

    /**
     * Counters for every constant of an enum, all zero.
     *
     * @param type the enum.
     */
    public CounterSet(final Class<E> type)
    {
        final int count = type.getEnumConstants().length;
        ownerValues = new long[count];
        values = new UnsafeBuffer(BufferUtil.allocateDirectAligned(
            BitUtil.align(Math.max(count, 1) * COUNTER_LENGTH, 64), 64));
    }

    /**
     * Read a counter from any thread.
     *
     * @param counter to read.
     * @return its current value.
     */
    public final long get(final E counter)
    {
        return values.getLongVolatile(counter.ordinal() * COUNTER_LENGTH);
    }

    /**
     * Add to a counter. Owner thread only.
     *
     * @param counter to change.
     * @param delta   to add.
     */
    public final void add(final E counter, final long delta)
    {
        final int index = counter.ordinal();
        final long value = ownerValues[index] + delta;
        ownerValues[index] = value;
        values.putLongRelease(index * COUNTER_LENGTH, value);
    }

    /**
     * Raise a high-water counter to a value if it is higher. Owner thread only.
     *
     * @param counter to change.
     * @param value   candidate maximum.
     */
    public final void raiseTo(final E counter, final long value)
    {
        final int index = counter.ordinal();
        if (value > ownerValues[index])
        {
            ownerValues[index] = value;
            values.putLongRelease(index * COUNTER_LENGTH, value);
        }
    }
}
