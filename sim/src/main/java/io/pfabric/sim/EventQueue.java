package io.pfabric.sim;

import java.util.Arrays;

/**
 * The simulator's future events, in the order of (time, order): an event's order is the count of events scheduled or
 * reserved before it, so events at the same time come out in the order they were scheduled, which keeps a run
 * deterministic; {@link #reserveOrder()} lets the simulator take an event's place in that order now and schedule it
 * later only if it turns out to be needed.
 * <p>
 * Nearly every event of a packet-level run falls within a few tens of microseconds of the present (a hop, a
 * transmission, a timeout), and there are more than one per nanosecond of virtual time, so the near future is a
 * wheel of {@value #WHEEL_SLOTS} one-nanosecond buckets from the time of the last event taken: an event in the
 * wheel costs a push onto its bucket's list (kept in order, almost always by appending) and a scan of a bitmap to
 * find the next non-empty bucket, where a heap pays a sift through several levels of unpredictable comparisons. An
 * event further ahead, or earlier than the last taken, waits in a 4-ary min-heap, and {@link #poll()} takes the
 * earlier of the wheel's next event and the heap's. Nothing is allocated once the node pool and the heap have grown
 * to the run's peak.
 */
final class EventQueue
{
    private static final int WHEEL_BITS = 16;
    private static final int WHEEL_SLOTS = 1 << WHEEL_BITS;
    private static final int WHEEL_MASK = WHEEL_SLOTS - 1;
    private static final int WORDS = WHEEL_SLOTS / Long.SIZE;
    private static final int NONE = -1;

    private static final int STRIDE = 3;
    private static final int ARITY = 4;
    private static final int NODE_BITS = 24;
    private static final int MAX_NODE = (1 << NODE_BITS) - 1;

    private static final int NODE_STRIDE = 3;
    private static final int ORDER = 0;
    private static final int PAYLOAD = 1;
    private static final int NEXT = 2;

    private final int[] buckets = new int[2 * WHEEL_SLOTS];
    private final long[] occupied = new long[WORDS];
    private long[] nodes = new long[NODE_STRIDE * 1024];
    private int nodeAllocated;
    private int freeNode = NONE;
    private int wheelSize;
    private long cursorNs;

    private long[] heap = new long[STRIDE * 64];
    private int heapSize;

    private long nextOrder;

    private long polledTimeNs;
    private long polledOrder;
    private long polledPayload;

    EventQueue()
    {
        Arrays.fill(buckets, NONE);
    }

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
        final long payload = ((long)kind << (32 + NODE_BITS)) | ((long)node << 32) | (arg & 0xFFFF_FFFFL);
        final long aheadNs = timeNs - cursorNs;
        if (aheadNs >= 0 && aheadNs < WHEEL_SLOTS)
        {
            addToWheel((int)(timeNs & WHEEL_MASK), order, payload);
        }
        else
        {
            addToHeap(timeNs, order, payload);
        }
    }

    /**
     * Whether no event is pending.
     *
     * @return true if empty.
     */
    boolean isEmpty()
    {
        return 0 == wheelSize && 0 == heapSize;
    }

    /**
     * Events pending.
     *
     * @return the count.
     */
    int size()
    {
        return wheelSize + heapSize;
    }

    /**
     * Take the earliest event; read it with {@link #timeNs()}, {@link #order()}, {@link #kind()}, {@link #node()},
     * {@link #arg()}. There must be one.
     */
    void poll()
    {
        if (0 == wheelSize)
        {
            pollHeap();
            return;
        }
        final int bucket = nextOccupiedBucket();
        final long wheelTimeNs = cursorNs + ((bucket - (int)(cursorNs & WHEEL_MASK)) & WHEEL_MASK);
        final long[] n = nodes;
        final int head = buckets[2 * bucket];
        final int h = NODE_STRIDE * head;
        if (heapSize > 0)
        {
            final long heapTimeNs = heap[0];
            if (heapTimeNs < wheelTimeNs || (heapTimeNs == wheelTimeNs && heap[1] < n[h + ORDER]))
            {
                pollHeap();
                return;
            }
        }
        polledTimeNs = wheelTimeNs;
        polledOrder = n[h + ORDER];
        polledPayload = n[h + PAYLOAD];
        final int next = (int)n[h + NEXT];
        buckets[2 * bucket] = next;
        if (NONE == next)
        {
            buckets[2 * bucket + 1] = NONE;
            occupied[bucket >>> 6] &= ~(1L << bucket);
        }
        n[h + NEXT] = freeNode;
        freeNode = head;
        wheelSize--;
        cursorNs = wheelTimeNs;
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

    private void addToWheel(final int bucket, final long order, final long payload)
    {
        final int node = newNode();
        final long[] n = nodes;
        final int b = 2 * bucket;
        final int self = NODE_STRIDE * node;
        n[self + ORDER] = order;
        n[self + PAYLOAD] = payload;
        final int tail = buckets[b + 1];
        if (NONE == tail)
        {
            n[self + NEXT] = NONE;
            buckets[b] = node;
            buckets[b + 1] = node;
            occupied[bucket >>> 6] |= 1L << bucket;
        }
        else if (n[NODE_STRIDE * tail + ORDER] < order)
        {
            n[self + NEXT] = NONE;
            n[NODE_STRIDE * tail + NEXT] = node;
            buckets[b + 1] = node;
        }
        else
        {
            int previous = NONE;
            int current = buckets[b];
            while (n[NODE_STRIDE * current + ORDER] < order)
            {
                previous = current;
                current = (int)n[NODE_STRIDE * current + NEXT];
            }
            n[self + NEXT] = current;
            if (NONE == previous)
            {
                buckets[b] = node;
            }
            else
            {
                n[NODE_STRIDE * previous + NEXT] = node;
            }
        }
        wheelSize++;
    }

    /**
     * A free node: the one freed last, whose line is likely still in cache.
     */
    private int newNode()
    {
        final int node = freeNode;
        if (NONE != node)
        {
            freeNode = (int)nodes[NODE_STRIDE * node + NEXT];
            return node;
        }
        if (NODE_STRIDE * (nodeAllocated + 1) > nodes.length)
        {
            nodes = Arrays.copyOf(nodes, 2 * nodes.length);
        }
        return nodeAllocated++;
    }

    /**
     * The first non-empty bucket at or after the cursor's, going round the wheel once; the wheel is not empty.
     */
    private int nextOccupiedBucket()
    {
        final int start = (int)(cursorNs & WHEEL_MASK);
        int word = start >>> 6;
        long bits = occupied[word] & (-1L << start);
        while (0 == bits)
        {
            word = (word + 1) & (WORDS - 1);
            bits = occupied[word];
        }
        return (word << 6) + Long.numberOfTrailingZeros(bits);
    }

    private void addToHeap(final long timeNs, final long order, final long payload)
    {
        if (STRIDE * (heapSize + 1) > heap.length)
        {
            heap = Arrays.copyOf(heap, heap.length * 2);
        }
        final long[] e = heap;
        int i = heapSize++;
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

    private void pollHeap()
    {
        final long[] e = heap;
        polledTimeNs = e[0];
        polledOrder = e[1];
        polledPayload = e[2];
        if (polledTimeNs > cursorNs)
        {
            cursorNs = polledTimeNs;
        }
        final int last = --heapSize;
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
}
