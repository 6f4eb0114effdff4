package io.pfabric.hostd.transport;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PiasThresholdsTest
{
    @Test
    void aPacketTakesTheFirstThresholdItsOffsetDoesNotExceed()
    {
        final PiasThresholds thresholds = PiasThresholds.of(1_000, 5_000);
        assertEquals(0, thresholds.dscpOf(0));
        assertEquals(0, thresholds.dscpOf(1_000));
        assertEquals(1, thresholds.dscpOf(1_001));
        assertEquals(1, thresholds.dscpOf(5_000));
        assertEquals(2, thresholds.dscpOf(5_001));
        assertEquals(2, thresholds.dscpOf(Long.MAX_VALUE));
        assertEquals(3, thresholds.priorities());
    }

    @Test
    void theScriptsThresholdsArePacketsOf1460Bytes()
    {
        assertArrayEquals(new long[]{ 46 * 1_460, 1_084 * 1_460, 1_717 * 1_460, 1_943 * 1_460, 1_989 * 1_460,
            1_999 * 1_460, 2_001 * 1_460 }, PiasThresholds.forWorkload("websearch", 0.3).thresholdsBytes());
        assertEquals(PiasThresholds.WEB_SEARCH, PiasThresholds.forWorkload("websearch", 0.8));
        assertEquals(805 * 1_460, PiasThresholds.forWorkload("datamining", 0.2).thresholdsBytes()[0]);
        assertEquals(805 * 1_460, PiasThresholds.forWorkload("datamining", 0.5).thresholdsBytes()[0]);
        assertEquals(745 * 1_460, PiasThresholds.forWorkload("datamining", 0.8).thresholdsBytes()[0]);
        assertEquals(750 * 1_460, PiasThresholds.forWorkload("datamining", 0.95).thresholdsBytes()[0]);
        assertNull(PiasThresholds.forWorkload("sizes.cdf", 0.5));
        assertEquals(8, PiasThresholds.WEB_SEARCH.priorities());
    }

    @Test
    void parsedThresholdsReadBackAndBadOnesAreNamed()
    {
        assertEquals("100,2000", PiasThresholds.parse(" 100, 2000 ").toString());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PiasThresholds.parse("100,50")).getMessage()
            .contains("increasing"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PiasThresholds.parse("1k")).getMessage()
            .contains("'1k'"));
        assertThrows(IllegalArgumentException.class, () -> PiasThresholds.parse("1,2,3,4,5,6,7,8"));
        assertThrows(IllegalArgumentException.class, () -> PiasThresholds.parse("0"));
    }

    @Test
    void thresholdsAreGivenInBytesOrByAWorkloadOfTheScripts()
    {
        assertEquals(PiasThresholds.WEB_SEARCH, PiasThresholds.parseOrNamed("websearch"));
        assertEquals(PiasThresholds.forWorkload("datamining", 0.8), PiasThresholds.parseOrNamed("datamining:0.8"));
        assertEquals("10,20", PiasThresholds.parseOrNamed("10,20").toString());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PiasThresholds.parseOrNamed("cache"))
            .getMessage().contains("websearch"));
        assertThrows(IllegalArgumentException.class, () -> PiasThresholds.parseOrNamed("datamining:x"));
    }
}
