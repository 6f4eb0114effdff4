package io.pfabric.dataplane.queue;

import org.junit.jupiter.api.Test;

import static io.pfabric.dataplane.queue.PfabricQueue.Structure.HEAPS;
import static io.pfabric.dataplane.queue.PfabricQueue.Structure.SORTED;
import static org.junit.jupiter.api.Assertions.assertEquals;

class PfabricQueueStructureTest
{
    @Test
    void keepsSmallBuffersInASortedArrayAndLargeOnesInHeapsByDefault()
    {
        final long largestSorted = PfabricQueue.SORTED_INDEX_MAX_FULL_FRAMES * 1514L;
        assertEquals(SORTED, new PfabricQueue(PfabricQueue.DEFAULT_CAPACITY_LENGTH).structure());
        assertEquals(SORTED, new PfabricQueue(largestSorted).structure());
        assertEquals(HEAPS, new PfabricQueue(largestSorted + 1514).structure());
        assertEquals(HEAPS, new PfabricQueue(600 * 1500L).structure());
        assertEquals(HEAPS, new PfabricQueue(PfabricQueue.DEFAULT_CAPACITY_LENGTH, 1514, HEAPS).structure());
    }
}
