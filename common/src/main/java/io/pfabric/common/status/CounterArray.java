package io.pfabric.common.status;

import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A fixed number of 64-bit counters by index, in an off-heap buffer: one per traffic class or per DSCP, and the
 * storage behind {@link CounterSet}'s counters named by an enum.
 * <p>
 * Single writer: the agent that owns the counters updates them through {@link #add} and {@link #raiseTo}, keeping
 * its own copy and publishing every change with a release store, so any other thread reads consistent values with
 * {@link #get} without locking, and the owner never reads back from the shared buffer. Nothing is allocated after
 * construction.
 */
public final class CounterArray
{
    private static final int COUNTER_LENGTH = Long.BYTES;

    private final AtomicBuffer values;
    private final long[] ownerValues;

    /**
     * Counters, all zero.
     *
     * @param count how many, at least 0.
     */
    public CounterArray(final int count)
    {
        if (count < 0)
        {
            throw new IllegalArgumentException("a negative number of counters: " + count);
        }
        ownerValues = new long[count];
        values = new UnsafeBuffer(BufferUtil.allocateDirectAligned(
            BitUtil.align(Math.max(count, 1) * COUNTER_LENGTH, 64), 64));
    }

    /**
     * How many counters there are.
     *
     * @return the count.
     */
    public int length()
    {
        return ownerValues.length;
    }

    /**
     * Read a counter from any thread.
     *
     * @param index from 0 to {@link #length()}.
     * @return its current value.
     */
    public long get(final int index)
    {
        return values.getLongVolatile(offset(index));
    }

    /**
     * Add to a counter. Owner thread only.
     *
     * @param index from 0 to {@link #length()}.
     * @param delta to add.
     */
    public void add(final int index, final long delta)
    {
        final long value = ownerValues[index] + delta;
        ownerValues[index] = value;
        values.putLongRelease(index * COUNTER_LENGTH, value);
    }

    /**
     * Raise a high-water counter to a value if it is higher. Owner thread only.
     *
     * @param index which counter.
     * @param value candidate maximum.
     */
    public void raiseTo(final int index, final long value)
    {
        if (value > ownerValues[index])
        {
            ownerValues[index] = value;
            values.putLongRelease(index * COUNTER_LENGTH, value);
        }
    }

    /**
     * Set a counter, such as a high-water mark that starts a new window. Owner thread only.
     *
     * @param index the counter.
     * @param value its new value.
     */
    public void set(final int index, final long value)
    {
        ownerValues[index] = value;
        values.putLongRelease(index * COUNTER_LENGTH, value);
    }

    private int offset(final int index)
    {
        if (index < 0 || index >= ownerValues.length)
        {
            throw new IndexOutOfBoundsException("counter " + index + " of " + ownerValues.length);
        }
        return index * COUNTER_LENGTH;
    }
}
