package io.pfabric.common.topology;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TrafficClassesTest
{
    @Test
    void readsWeightsValuesAndRangesAndSendsUnlistedDscpsToClassZero()
    {
        final TrafficClasses classes = TrafficClasses.parse("3:0-7; 1:8-15,46 ;2");
        assertEquals(3, classes.classCount());
        assertEquals(3, classes.weight(0));
        assertEquals(1, classes.weight(1));
        assertEquals(2, classes.weight(2));
        assertEquals(6, classes.totalWeight());
        assertEquals(0, classes.classOf(0));
        assertEquals(0, classes.classOf(7));
        assertEquals(1, classes.classOf(8));
        assertEquals(1, classes.classOf(15));
        assertEquals(1, classes.classOf(46));
        assertEquals(0, classes.classOf(16));
        assertEquals(0, classes.classOf(63));
    }

    @Test
    void theDefaultIsTheEightPrecedencesOfEqualWeight()
    {
        final TrafficClasses classes = TrafficClasses.DEFAULT;
        assertEquals(8, classes.classCount());
        for (int dscp = 0; dscp < TrafficClasses.DSCP_COUNT; dscp++)
        {
            assertEquals(dscp / 8, classes.classOf(dscp), "DSCP " + dscp);
        }
        for (int k = 0; k < 8; k++)
        {
            assertEquals(1, classes.weight(k));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = { "1", "3:0-7;1:8-15,46;2", "1;1:8", "2:0,2,4-6;1:1,3" })
    void writesAFormThatReadsBackToEqualClasses(final String spec)
    {
        final TrafficClasses classes = TrafficClasses.parse(spec);
        assertEquals(classes, TrafficClasses.parse(classes.toString()));
        assertEquals(classes.hashCode(), TrafficClasses.parse(classes.toString()).hashCode());
    }

    @Test
    void writesEveryDscpWithItsClass()
    {
        assertEquals("3:0-7,16-45,47-63;1:8-15,46;2", TrafficClasses.parse("3:0-7;1:8-15,46;2").toString());
    }

    @ParameterizedTest
    @ValueSource(strings = { "", " ", "0", "1001", "x", "1:64", "1:-1", "1:5-3", "1:3;1:3", "1:0-7;1:7", "1:", "1;;1",
        "1:a" })
    void rejectsWhatIsNotAClassList(final String spec)
    {
        final IllegalArgumentException error =
            assertThrows(IllegalArgumentException.class, () -> TrafficClasses.parse(spec));
        assertTrue(error.getMessage().startsWith("'" + spec + "'"), error.getMessage());
    }

    @Test
    void rejectsMoreClassesThanDscps()
    {
        assertThrows(IllegalArgumentException.class, () -> TrafficClasses.parse("1;".repeat(64) + "1"));
    }
}
