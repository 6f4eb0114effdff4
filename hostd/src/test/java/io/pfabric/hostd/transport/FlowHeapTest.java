package io.pfabric.hostd.transport;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FlowHeapTest
{
    @Test
    void agreesWithAMapScannedInFullOverRandomOperations()
    {
        final SplittableRandom random = new SplittableRandom(42);
        final FlowHeap heap = new FlowHeap(4);
        final Map<Integer, Long> reference = new HashMap<>();
        for (int step = 0; step < 200_000; step++)
        {
            final int slot = random.nextInt(300);
            final int operation = random.nextInt(10);
            if (operation < 6)
            {
                final long key = random.nextLong(1_000_000);
                heap.upsert(slot, key);
                reference.put(slot, key);
            }
            else
            {
                heap.remove(slot);
                reference.remove(slot);
            }
            assertEquals(reference.size(), heap.size());
            assertEquals(reference.containsKey(slot), heap.contains(slot));
            if (!reference.isEmpty())
            {
                final long min = reference.values().stream().mapToLong(Long::longValue).min().orElseThrow();
                assertEquals(min, heap.key(heap.minSlot()));
                assertEquals(min, reference.get(heap.minSlot()));
            }
            else
            {
                assertTrue(heap.isEmpty());
            }
        }
        assertFalse(heap.contains(100_000), "a slot never used is absent");
    }
}
