package io.pfabric.dataplane.queue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The commodity-switch disciplines written as plainly as their papers state them, over lists scanned in full, to
 * check {@link StrictPriorityQueue}, {@link SpPifoQueue}, {@link PiasQueue} and {@link AifoQueue} against: which
 * frame leaves, which is dropped and why, how many were sent ahead of a more urgent one, and how many arrivals found
 * more than K bytes in their queue. Public for switchd's namespace tests, which check a port's departures against it.
 */
public final class ReferenceCommodityQueue
{
    enum Kind
    {
        STRICT, SP_PIFO, PIAS, AIFO
    }

    private record Frame(long id, int length, long priority)
    {
    }

    public final List<Long> droppedIds = new ArrayList<>();
    final List<DropReason> dropReasons = new ArrayList<>();
    long rankInversions;
    long markAttempts;

    private final Kind kind;
    private final long capacityLength;
    private final long reservedLength;
    private final long[] thresholds;
    private final long[] bounds;
    private final long markingLength;
    private final double headroom;
    private final int windowRanks;
    private final int sampleEvery;
    private final List<List<Frame>> queues = new ArrayList<>();
    private final ArrayDeque<Long> window = new ArrayDeque<>();
    private long arrivals;

    private ReferenceCommodityQueue(final Kind kind, final long capacityLength, final int queueCount,
        final long reservedLength, final long[] thresholds, final long markingLength, final double headroom,
        final int windowRanks, final int sampleEvery)
    {
        this.kind = kind;
        this.capacityLength = capacityLength;
        this.reservedLength = reservedLength;
        this.thresholds = thresholds;
        this.bounds = new long[queueCount];
        this.markingLength = markingLength;
        this.headroom = headroom;
        this.windowRanks = windowRanks;
        this.sampleEvery = sampleEvery;
        for (int i = 0; i < queueCount; i++)
        {
            queues.add(new ArrayList<>());
        }
    }

    public static ReferenceCommodityQueue strict(final long capacityLength, final long[] thresholds,
        final long reserved)
    {
        return new ReferenceCommodityQueue(Kind.STRICT, capacityLength, thresholds.length + 1, reserved, thresholds,
            0, 0, 0, 0);
    }

    public static ReferenceCommodityQueue spPifo(final long capacityLength, final int queueCount,
        final long reserved)
    {
        return new ReferenceCommodityQueue(Kind.SP_PIFO, capacityLength, queueCount, reserved, null, 0, 0, 0, 0);
    }

    public static ReferenceCommodityQueue pias(final long capacityLength, final int queueCount,
        final long markingLength)
    {
        return new ReferenceCommodityQueue(Kind.PIAS, capacityLength, queueCount, 0, null, markingLength, 0, 0, 0);
    }

    public static ReferenceCommodityQueue aifo(final long capacityLength, final double headroom, final int windowRanks,
        final int sampleEvery)
    {
        return new ReferenceCommodityQueue(Kind.AIFO, capacityLength, 1, 0, null, 0, headroom, windowRanks,
            sampleEvery);
    }

    public boolean offer(final long id, final int length, final long priority, final int dscp)
    {
        final int queue = switch (kind)
        {
            case STRICT -> thresholdQueue(priority);
            case SP_PIFO -> spPifoQueue(priority);
            case PIAS -> Math.min(dscp, queues.size() - 1);
            case AIFO -> 0;
        };
        if (Kind.AIFO == kind)
        {
            final boolean admitted = aifoAdmits(priority);
            if (0 == arrivals++ % sampleEvery)
            {
                window.addLast(priority);
                if (window.size() > windowRanks)
                {
                    window.removeFirst();
                }
            }
            if (!admitted)
            {
                return drop(id, DropReason.RANK_ADMISSION);
            }
        }
        final long[] after = new long[queues.size()];
        long total = 0;
        for (int i = 0; i < queues.size(); i++)
        {
            after[i] = bytes(i) + (i == queue ? length : 0);
            total += after[i];
        }
        long shared = 0;
        for (final long bytes : after)
        {
            shared += Math.max(0, bytes - reservedLength);
        }
        if (total > capacityLength || shared > capacityLength - reservedLength * queues.size())
        {
            return drop(id, DropReason.TAIL_DROP);
        }
        if (Kind.PIAS == kind && bytes(queue) > markingLength)
        {
            markAttempts++;
        }
        queues.get(queue).add(new Frame(id, length, priority));
        return true;
    }

    public long take()
    {
        for (final List<Frame> queue : queues)
        {
            if (!queue.isEmpty())
            {
                final Frame next = queue.remove(0);
                boolean inverted = false;
                for (final List<Frame> other : queues)
                {
                    for (final Frame waiting : other)
                    {
                        inverted |= waiting.priority() < next.priority();
                    }
                }
                rankInversions += inverted ? 1 : 0;
                return next.id();
            }
        }
        return -1;
    }

    private long bytes(final int queue)
    {
        long bytes = 0;
        for (final Frame frame : queues.get(queue))
        {
            bytes += frame.length();
        }
        return bytes;
    }

    private long totalBytes()
    {
        long bytes = 0;
        for (int i = 0; i < queues.size(); i++)
        {
            bytes += bytes(i);
        }
        return bytes;
    }

    private boolean drop(final long id, final DropReason reason)
    {
        droppedIds.add(id);
        dropReasons.add(reason);
        return false;
    }

    private int thresholdQueue(final long priority)
    {
        int queue = 0;
        for (final long threshold : thresholds)
        {
            queue += priority >= threshold ? 1 : 0;
        }
        return queue;
    }

    /**
     * SP-PIFO's Algorithm 1: from the lowest-priority queue up, the first whose bound the rank reaches takes the
     * packet and the rank as its bound (push-up); a rank below the top queue's bound lowers every bound by the
     * difference (push-down).
     */
    private int spPifoQueue(final long rank)
    {
        for (int i = bounds.length - 1; i >= 0; i--)
        {
            if (rank >= bounds[i])
            {
                bounds[i] = rank;
                return i;
            }
        }
        final long cost = bounds[0] - rank;
        for (int i = 0; i < bounds.length; i++)
        {
            bounds[i] -= cost;
        }
        return 0;
    }

    private boolean aifoAdmits(final long rank)
    {
        final long occupancy = totalBytes();
        if (occupancy <= headroom * capacityLength || window.isEmpty())
        {
            return true;
        }
        long below = 0;
        for (final long sampled : window)
        {
            below += sampled < rank ? 1 : 0;
        }
        final double quantile = (double)below / window.size();
        return quantile <= (capacityLength - occupancy) / ((1 - headroom) * capacityLength);
    }
}
