package io.pfabric.common.topology;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DisciplineSpecTest
{
    @Test
    void readsStrictWithModelEqualOrGivenThresholds()
    {
        final DisciplineSpec model = DisciplineSpec.parse("strict:4");
        assertEquals(4, model.queueCount());
        assertEquals(DisciplineSpec.Thresholds.MODEL, model.thresholds());
        assertTrue(model.needsWorkload());
        assertEquals(model, DisciplineSpec.parse("STRICT:4:model"));
        assertEquals(DisciplineSpec.Thresholds.EQUAL, DisciplineSpec.parse("strict:2:equal").thresholds());
        final DisciplineSpec given = DisciplineSpec.parse("strict:3:1000,20000");
        assertFalse(given.needsWorkload());
        assertArrayEquals(new long[]{ 1000, 20000 }, given.given());
        assertEquals("strict:3:1000,20000", given.toString());
        assertEquals(given, DisciplineSpec.parse(given.toString()));
        assertArrayEquals(new long[]{ 5, 6, 7 }, model.withThresholds(new long[]{ 5, 6, 7 }).given());
        assertFalse(DisciplineSpec.parse("strict:1").needsWorkload(), "one queue has no thresholds");
        assertEquals(8, DisciplineSpec.parse("strict").queueCount());
    }

    @Test
    void readsTheOtherDisciplinesAndTheirDefaults()
    {
        assertEquals(8, DisciplineSpec.parse("sp-pifo").queueCount());
        assertEquals(4, DisciplineSpec.parse("sp-pifo:4").queueCount());
        assertFalse(DisciplineSpec.parse("sp-pifo:8").sharedBuffer());
        assertEquals("sp-pifo:8", DisciplineSpec.parse("sp-pifo").toString());
        final DisciplineSpec shared = DisciplineSpec.parse("SP-PIFO:4:shared");
        assertTrue(shared.sharedBuffer());
        assertEquals(4, shared.queueCount());
        assertEquals("sp-pifo:4:shared", shared.toString());
        assertEquals(shared, DisciplineSpec.parse(shared.toString()));
        assertNotEquals(shared, DisciplineSpec.parse("sp-pifo:4"));
        final DisciplineSpec aifo = DisciplineSpec.parse("aifo");
        assertEquals(0.1, aifo.headroom());
        assertEquals(20, aifo.windowRanks());
        assertEquals(15, aifo.sampleEvery());
        final DisciplineSpec tuned = DisciplineSpec.parse("aifo:k=0.3,w=40,s=1");
        assertEquals(0.3, tuned.headroom());
        assertEquals(40, tuned.windowRanks());
        assertEquals(1, tuned.sampleEvery());
        assertEquals(tuned, DisciplineSpec.parse(tuned.toString()));
        assertEquals(22_500, DisciplineSpec.parse("pias").markingLength());
        assertEquals(30_000, DisciplineSpec.parse("pias:4:30000").markingLength());
        assertEquals("pfabric", DisciplineSpec.parse("pfabric").toString());
    }

    @Test
    void rejectsBadParametersInOneLine()
    {
        assertRejected("strict:0", "the number of queues must be 1 to 8");
        assertRejected("strict:9", "the number of queues must be 1 to 8");
        assertRejected("strict:3:500,500", "strictly increasing");
        assertRejected("strict:3:900,500", "strictly increasing");
        assertRejected("strict:3:500", "3 queues need 2 thresholds, got 1");
        assertRejected("strict:3:500,x", "not 'x'");
        assertRejected("sp-pifo:12", "the number of queues must be 1 to 8");
        assertRejected("sp-pifo:8:half", "split the buffer equally unless 'shared' follows the number of queues");
        assertRejected("sp-pifo:shared", "the number of queues must be 1 to 8");
        assertRejected("aifo:k=0", "headroom k must be in (0, 1)");
        assertRejected("aifo:k=1.5", "headroom k must be in (0, 1)");
        assertRejected("aifo:q=3", "aifo takes k=K, w=W and s=S");
        assertRejected("pias:4:-1", "marking threshold");
        assertRejected("pfabric:3", "takes no parameters");
        assertRejected("fifo", "is not a queue discipline");
        assertThrows(IllegalArgumentException.class,
            () -> DisciplineSpec.parse("strict:4").withThresholds(new long[]{ 1, 2 }));
    }

    private static void assertRejected(final String text, final String phrase)
    {
        final IllegalArgumentException ex =
            assertThrows(IllegalArgumentException.class, () -> DisciplineSpec.parse(text));
        assertTrue(ex.getMessage().contains(phrase), ex.getMessage());
        assertFalse(ex.getMessage().contains("\n"));
    }
}
