package io.pfabric.common.topology;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RatesTest
{
    @Test
    void shouldParseDecimalSuffixes()
    {
        assertEquals(100_000_000L, Rates.parseBitsPerSec("100m"));
        assertEquals(1_000_000_000L, Rates.parseBitsPerSec("1g"));
        assertEquals(1_000_000_000L, Rates.parseBitsPerSec("1G"));
        assertEquals(10_000_000_000L, Rates.parseBitsPerSec("10g"));
        assertEquals(40_000_000_000L, Rates.parseBitsPerSec("40g"));
        assertEquals(2_500_000_000L, Rates.parseBitsPerSec("2.5g"));
        assertEquals(1_500L, Rates.parseBitsPerSec("1.5k"));
        assertEquals(10_000_000L, Rates.parseBitsPerSec("10000000"));
        assertEquals(0L, Rates.parseBitsPerSec("0"));
    }

    @Test
    void shouldFormatWithTheLargestSuffix()
    {
        assertEquals("10g", Rates.format(10_000_000_000L));
        assertEquals("2.5g", Rates.format(2_500_000_000L));
        assertEquals("100m", Rates.format(100_000_000L));
        assertEquals("1.234567m", Rates.format(1_234_567L));
        assertEquals("1k", Rates.format(1_000L));
        assertEquals("999", Rates.format(999L));
        assertEquals("0", Rates.format(0L));
    }

    @Test
    void shouldRoundTrip()
    {
        final long[] rates = { 0, 1, 999, 1_000, 1_001, 56_000, 100_000_000, 1_000_000_000, 2_500_000_000L,
            10_000_000_000L, 40_000_000_000L, 123_456_789_012L, Long.MAX_VALUE };
        for (final long rate : rates)
        {
            assertEquals(rate, Rates.parseBitsPerSec(Rates.format(rate)), Rates.format(rate));
        }
        for (final String text : new String[]{ "1g", "100m", "2.5g", "56k", "999", "0" })
        {
            assertEquals(text, Rates.format(Rates.parseBitsPerSec(text)));
        }
    }

    @Test
    void shouldRejectWhatIsNotARate()
    {
        assertRejected("-1g", "is negative");
        assertRejected("-5", "is negative");
        assertRejected("1t", "is not a rate like 100m, 1g or 2.5g");
        assertRejected("1gb", "is not a rate");
        assertRejected("0x", "is not a rate");
        assertRejected("0junk", "is not a rate");
        assertRejected("g", "is not a rate");
        assertRejected("", "is not a rate");
        assertRejected(" 1g", "is not a rate");
        assertRejected("1e9", "is not a rate");
        assertRejected("1.", "is not a rate");
        assertRejected("1.5", "is not a whole number of bits per second");
        assertRejected("0.0001k", "is not a whole number of bits per second");
        assertRejected("10000000000g", "is too large");
        assertThrows(IllegalArgumentException.class, () -> Rates.format(-1));
    }

    private static void assertRejected(final String text, final String phrase)
    {
        final IllegalArgumentException ex =
            assertThrows(IllegalArgumentException.class, () -> Rates.parseBitsPerSec(text));
        assertTrue(ex.getMessage().startsWith("'" + text + "' "), ex.getMessage());
        assertTrue(ex.getMessage().contains(phrase), ex.getMessage());
    }
}
