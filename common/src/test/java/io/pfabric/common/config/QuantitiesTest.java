package io.pfabric.common.config;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class QuantitiesTest
{
    @Test
    void readsDurations()
    {
        assertEquals(100_000, Quantities.parseNanos("100us"));
        assertEquals(2_500_000, Quantities.parseNanos("2.5ms"));
        assertEquals(30_000_000_000L, Quantities.parseNanos("30s"));
        assertEquals(45, Quantities.parseNanos("45ns"));
        assertEquals(120_000_000_000L, Quantities.parseNanos("2m"));
    }

    @Test
    void readsSizes()
    {
        assertEquals(1_000_000, Quantities.parseBytes("1MB"));
        assertEquals(65_536, Quantities.parseBytes("64KiB"));
        assertEquals(1500, Quantities.parseBytes("1500"));
        assertEquals(100_000, Quantities.parseBytes("100KB"));
    }

    @Test
    void refusesWhatIsNotAQuantity()
    {
        assertThrows(IllegalArgumentException.class, () -> Quantities.parseNanos("100"));
        assertThrows(IllegalArgumentException.class, () -> Quantities.parseNanos("fast"));
        assertThrows(IllegalArgumentException.class, () -> Quantities.parseBytes("1XB"));
        assertThrows(IllegalArgumentException.class, () -> Quantities.parseBytes("-5"));
    }
}
