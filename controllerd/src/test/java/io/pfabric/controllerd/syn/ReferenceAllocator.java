package io.pfabric.controllerd.syn;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The allocator's batch written the plain way, to compare against: every pair with backlog sorted by the metric as
 * {@link DemandTable} reports it (then by source, then destination), each in turn taking the earliest slots of the
 * batch where its source, destination and, across leaves, both leaves' paths are free. No spines.
 */
final class ReferenceAllocator
{
    private ReferenceAllocator()
    {
    }

    /**
     * @return grants as "slot:src>dst", slot by slot, within a slot in the order of the pairs; the table is left as
     * it was.
     */
    static List<String> batch(
        final DemandTable demand, final LeafSpineFabric fabric, final Metric metric, final long firstSlot,
        final int batchSlots)
    {
        final int hosts = fabric.hostCount();
        final List<long[]> pairs = new ArrayList<>();
        for (int src = 0; src < hosts; src++)
        {
            for (int dst = 0; dst < hosts; dst++)
            {
                final int backlog = demand.backlogCells(src, dst);
                if (backlog > 0)
                {
                    final long value = switch (metric)
                    {
                        case OCF -> demand.oldestArrivalSlot(src, dst);
                        case SRJF -> backlog;
                        case MMF -> demand.lastServedSlot(src, dst);
                    };
                    pairs.add(new long[]{ value, src, dst, backlog });
                }
            }
        }
        pairs.sort(Comparator.<long[]>comparingLong(p -> p[0]).thenComparingLong(p -> p[1])
            .thenComparingLong(p -> p[2]));

        final boolean[][] srcBusy = new boolean[batchSlots][hosts];
        final boolean[][] dstBusy = new boolean[batchSlots][hosts];
        final int[][] up = new int[batchSlots][fabric.leafCount()];
        final int[][] down = new int[batchSlots][fabric.leafCount()];
        final List<List<String>> slots = new ArrayList<>();
        for (int t = 0; t < batchSlots; t++)
        {
            slots.add(new ArrayList<>());
        }
        for (final long[] pair : pairs)
        {
            final int src = (int)pair[1];
            final int dst = (int)pair[2];
            final int srcLeaf = fabric.leafOf(src);
            final int dstLeaf = fabric.leafOf(dst);
            final boolean crossing = srcLeaf != dstLeaf;
            long backlog = pair[3];
            for (int t = 0; t < batchSlots && backlog > 0; t++)
            {
                if (srcBusy[t][src] || dstBusy[t][dst] ||
                    (crossing && (up[t][srcLeaf] == fabric.pathCount() || down[t][dstLeaf] == fabric.pathCount())))
                {
                    continue;
                }
                srcBusy[t][src] = true;
                dstBusy[t][dst] = true;
                if (crossing)
                {
                    up[t][srcLeaf]++;
                    down[t][dstLeaf]++;
                }
                slots.get(t).add((firstSlot + t) + ":" + src + ">" + dst);
                backlog--;
            }
        }
        final List<String> grants = new ArrayList<>();
        slots.forEach(grants::addAll);
        return grants;
    }
}
