package io.pfabric.switchd.queue;

import org.junit.jupiter.api.Test;

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

    @Test
    void agreesWithAHashMapOverRandomInsertsAndRemovesAtFullLoad()
    {
        final int maxEntries = 64;
        final FlowTable table = new FlowTable(maxEntries);
        final Map<Long, Integer> model = new HashMap<>();
        final SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < 500_000; i++)
        {
            final long key = random.nextInt(4) == 0 ? random.nextLong() : random.nextInt(200) * 0x1_0000_0000L;
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
