package io.pfabric.common.status;

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
    private final CounterArray values;

    /**
     * Counters for every constant of an enum, all zero.
     *
     * @param type the enum.
     */
    public CounterSet(final Class<E> type)
    {
        values = new CounterArray(type.getEnumConstants().length);
    }

    /**
     * Read a counter from any thread.
     *
     * @param counter to read.
     * @return its current value.
     */
    public final long get(final E counter)
    {
        return values.get(counter.ordinal());
    }

    /**
     * Add to a counter. Owner thread only.
     *
     * @param counter to change.
     * @param delta   to add.
     */
    public final void add(final E counter, final long delta)
    {
        values.add(counter.ordinal(), delta);
    }

    /**
     * Raise a high-water counter to a value if it is higher. Owner thread only.
     *
     * @param counter to change.
     * @param value   candidate maximum.
     */
    public final void raiseTo(final E counter, final long value)
    {
        values.raiseTo(counter.ordinal(), value);
    }

    /**
     * Set a counter, such as a high-water mark that starts a new window. Owner thread only.
     *
     * @param counter to change.
     * @param value   its new value.
     */
    public final void set(final E counter, final long value)
    {
        values.set(counter.ordinal(), value);
    }
}
