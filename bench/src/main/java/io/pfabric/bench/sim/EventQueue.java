package io.pfabric.bench.sim;

import java.util.Arrays;

/**
 * The simulator's future events: a 4-ary min-heap on (time, order) with each entry's time, order and packed
 * (kind, node, arg) side by side in one primitive array, so that a level of the heap is one or two cache lines and
 * scheduling allocates nothing once the array has grown to the run's peak. An event's order is the count of events
 * scheduled or reserved before it, so events at the same time come out in the order they were scheduled, which keeps
 * a run deterministic; {@link #reserveOrder()} lets the simulator take an event's place in that order now and
 * schedule it later only if it turns out to be needed.
 */
final class EventQueue
{
    private static final int STRIDE = 3;
    private static final int ARITY = 4;
    private static final int NODE_BITS = 24;
    private static final int MAX_NODE = (1 << NODE_BITS) - 1;

    private long[] entries = new long[STRIDE * 1024];
    private int size;
    private long nextOrder;

    private long polledTimeNs;
    private long polledOrder;
    private long polledPayload;

    /**
     * Schedule an event after every event scheduled so far at the same time.
     *
     * @param timeNs when.
     * @param kind   what, a constant of the simulator, 0 to 127.
     * @param node   where, 0 to 2^24 - 1.
     * @param arg    with what (a packet, a port, a flow).
     */
    void schedule(final long timeNs, final int kind, final int node, final int arg)
    {
        schedule(timeNs, nextOrder++, kind, node, arg);
    }

    /**
     * Take the place in the order of the next event to be scheduled, for an event that may be scheduled later with
     * {@link #schedule(long, long, int, int, int)}.
     *
     * @return the order.
     */
    long reserveOrder()
    {
        return nextOrder++;
    }

    /**
     * Take the places in the order of the next events to be scheduled.
     *
     * @param count how many.
     * @return the first of them.
     */
    long reserveOrders(final int count)
    {
        final long first = nextOrder;
        nextOrder += count;
        return first;
    }

    /**
     * Schedule an event at a reserved place in the order; it must come after the event being handled.
     *
     * @param timeNs when.
     * @param order  from {@link #reserveOrder()}.
     * @param kind   what, a constant of the simulator, 0 to 127.
     * @param node   where, 0 to 2^24 - 1.
     * @param arg    with what (a packet, a port, a flow).
     */
    void schedule(final long timeNs, final long order, final int kind, final int node, final int arg)
    {
        if (node < 0 || node > MAX_NODE)
        {
            throw new IllegalArgumentException("node out of range: " + node);
        }
        if (STRIDE * (size + 1) > entries.length)
        {
            entries = Arrays.copyOf(entries, entries.length * 2);
        }
        final long[] e = entries;
        final long payload = ((long)kind << (32 + NODE_BITS)) | ((long)node << 32) | (arg & 0xFFFF_FFFFL);
        int i = size++;
        while (i > 0)
        {
            final int parent = (i - 1) / ARITY;
            final int p = STRIDE * parent;
            final long parentTime = e[p];
            if (parentTime < timeNs || (parentTime == timeNs && e[p + 1] < order))
            {
                break;
            }
            final int c = STRIDE * i;
            e[c] = parentTime;
            e[c + 1] = e[p + 1];
            e[c + 2] = e[p + 2];
            i = parent;
        }
        final int c = STRIDE * i;
        e[c] = timeNs;
        e[c + 1] = order;
        e[c + 2] = payload;
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
     * Take the earliest event; read it with {@link #timeNs()}, {@link #order()}, {@link #kind()}, {@link #node()},
     * {@link #arg()}.
     */
    void poll()
    {
        final long[] e = entries;
        polledTimeNs = e[0];
        polledOrder = e[1];
        polledPayload = e[2];
        final int last = --size;
        if (0 == last)
        {
            return;
        }
        final int l = STRIDE * last;
        final long time = e[l];
        final long order = e[l + 1];
        final long payload = e[l + 2];
        int i = 0;
        while (true)
        {
            final int first = ARITY * i + 1;
            if (first >= last)
            {
                break;
            }
            final int end = Math.min(first + ARITY, last);
            int best = first;
            int b = STRIDE * first;
            long bestTime = e[b];
            long bestOrder = e[b + 1];
            for (int child = first + 1; child < end; child++)
            {
                final int c = STRIDE * child;
                final long childTime = e[c];
                if (childTime < bestTime || (childTime == bestTime && e[c + 1] < bestOrder))
                {
                    best = child;
                    b = c;
                    bestTime = childTime;
                    bestOrder = e[c + 1];
                }
            }
            if (time < bestTime || (time == bestTime && order < bestOrder))
            {
                break;
            }
            final int s = STRIDE * i;
            e[s] = bestTime;
            e[s + 1] = bestOrder;
            e[s + 2] = e[b + 2];
            i = best;
        }
        final int s = STRIDE * i;
        e[s] = time;
        e[s + 1] = order;
        e[s + 2] = payload;
    }

    long timeNs()
    {
        return polledTimeNs;
    }

    long order()
    {
        return polledOrder;
    }

    int kind()
    {
        return (int)(polledPayload >>> (32 + NODE_BITS));
    }

    int node()
    {
        return (int)(polledPayload >>> 32) & MAX_NODE;
    }

    int arg()
    {
        return (int)polledPayload;
    }
}
