package io.pfabric.bench.sim;

import java.util.Arrays;

/**
 * The simulator's future events: a binary min-heap on (time, insertion order) over parallel primitive arrays, so
 * that scheduling allocates nothing once the arrays have grown to the run's peak. Events at the same time come out in
 * the order they were scheduled, which keeps a run deterministic.
 */
final class EventQueue
{
    private long[] times = new long[1024];
    private long[] orders = new long[1024];
    private int[] kinds = new int[1024];
    private int[] nodes = new int[1024];
    private int[] args = new int[1024];
    private int size;
    private long nextOrder;

    private int polledKind;
    private int polledNode;
    private int polledArg;
    private long polledTimeNs;

    /**
     * Schedule an event.
     *
     * @param timeNs when.
     * @param kind   what, a constant of the simulator.
     * @param node   where.
     * @param arg    with what (a packet, a port, a flow).
     */
    void schedule(final long timeNs, final int kind, final int node, final int arg)
    {
        if (size == times.length)
        {
            final int capacity = size * 2;
            times = Arrays.copyOf(times, capacity);
            orders = Arrays.copyOf(orders, capacity);
            kinds = Arrays.copyOf(kinds, capacity);
            nodes = Arrays.copyOf(nodes, capacity);
            args = Arrays.copyOf(args, capacity);
        }
        int i = size++;
        final long order = nextOrder++;
        while (i > 0)
        {
            final int parent = (i - 1) >>> 1;
            if (!before(timeNs, order, times[parent], orders[parent]))
            {
                break;
            }
            move(parent, i);
            i = parent;
        }
        set(i, timeNs, order, kind, node, arg);
    }

    /**
     * Whether no event is pending.
     *
     * @return true if empty.
     */
    boolean isEmpty()
    {
        return 0 == size;
    }

    /**
     * Events pending.
     *
     * @return the count.
     */
    int size()
    {
        return size;
    }

    /**
     * Take the earliest event; read it with {@link #timeNs()}, {@link #kind()}, {@link #node()}, {@link #arg()}.
     */
    void poll()
    {
        polledTimeNs = times[0];
        polledKind = kinds[0];
        polledNode = nodes[0];
        polledArg = args[0];
        final int last = --size;
        if (0 == last)
        {
            return;
        }
        final long time = times[last];
        final long order = orders[last];
        final int kind = kinds[last];
        final int node = nodes[last];
        final int arg = args[last];
        int i = 0;
        while (true)
        {
            int child = 2 * i + 1;
            if (child >= last)
            {
                break;
            }
            if (child + 1 < last && before(times[child + 1], orders[child + 1], times[child], orders[child]))
            {
                child++;
            }
            if (!before(times[child], orders[child], time, order))
            {
                break;
            }
            move(child, i);
            i = child;
        }
        set(i, time, order, kind, node, arg);
    }

    long timeNs()
    {
        return polledTimeNs;
    }

    int kind()
    {
        return polledKind;
    }

    int node()
    {
        return polledNode;
    }

    int arg()
    {
        return polledArg;
    }

    private static boolean before(final long timeA, final long orderA, final long timeB, final long orderB)
    {
        return timeA < timeB || (timeA == timeB && orderA < orderB);
    }

    private void move(final int from, final int to)
    {
        set(to, times[from], orders[from], kinds[from], nodes[from], args[from]);
    }

    private void set(final int i, final long time, final long order, final int kind, final int node, final int arg)
    {
        times[i] = time;
        orders[i] = order;
        kinds[i] = kind;
        nodes[i] = node;
        args[i] = arg;
    }
}
