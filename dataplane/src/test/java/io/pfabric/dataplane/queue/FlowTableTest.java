package io.pfabric.dataplane.queue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

class FlowTableTest
{
    private static int get(final FlowTable table, final long key)
    {
        return table.valueAt(table.find(key));
    }

    @ParameterizedTest
    @ValueSource(ints = { 1, 3, 4, 64 })
    void agreesWithAHashMapOverRandomInsertsAndRemovesAtFullLoad(final int maxEntries)
    {
        final FlowTable table = new FlowTable(maxEntries);
        final Map<Long, Integer> model = new HashMap<>();
        final SplittableRandom random = new SplittableRandom(11);
        final long[] pool = new long[16 * maxEntries + 16];
        for (int i = 0; i < pool.length; i++)
        {
            pool[i] = 0 == (i & 1) ? random.nextLong() : (long)i << 32;
        }
        for (int i = 0; i < 500_000; i++)
        {
            final long key = pool[random.nextInt(pool.length)];
            if (model.containsKey(key))
            {
                assertEquals(model.get(key), get(table, key));
                if (random.nextBoolean())
                {
                    table.remove(key);
                    model.remove(key);
                    assertEquals(FlowTable.MISSING, get(table, key));
                }
            }
            else
            {
                assertEquals(FlowTable.MISSING, get(table, key));
                if (model.size() < maxEntries)
                {
                    final int value = random.nextInt(1_000_000);
                    table.insertAt(table.find(key), key, value);
                    model.put(key, value);
                }
            }
        }
        for (final Map.Entry<Long, Integer> entry : model.entrySet())
        {
            assertEquals(entry.getValue(), get(table, entry.getKey()));
        }
    }

    @Test
    void removingAnAbsentKeyChangesNothing()
    {
        final FlowTable table = new FlowTable(4);
        table.insertAt(table.find(7), 7, 70);
        table.remove(8);
        assertEquals(70, get(table, 7));
    }
}
