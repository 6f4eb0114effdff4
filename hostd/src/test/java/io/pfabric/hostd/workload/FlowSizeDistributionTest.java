package io.pfabric.hostd.workload;

import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FlowSizeDistributionTest
{
    @Test
    void theExactMeansAreThoseOfTheNs2Sampler() throws Exception
    {
        assertEquals(1141.41, FlowSizeDistribution.load("websearch").exactMeanPackets(), 0.005);
        assertEquals(5116.85, FlowSizeDistribution.load("datamining").exactMeanPackets(), 0.005);
    }

    @Test
    void samplesInterpolateBetweenEntriesAndRoundUp() throws Exception
    {
        final FlowSizeDistribution web = FlowSizeDistribution.load("websearch");
        assertEquals(6, web.samplePackets(0.0));
        assertEquals(6, web.samplePackets(0.10));
        assertEquals(6, web.samplePackets(0.15));
        assertEquals(10, web.samplePackets(0.175), "6 + (13 - 6) * 0.5 = 9.5, rounded up");
        assertEquals(13, web.samplePackets(0.2));
        assertEquals(3334, web.samplePackets(0.9000001));
        assertEquals(20000, web.samplePackets(0.9999999));
        final FlowSizeDistribution mining = FlowSizeDistribution.load("datamining");
        assertEquals(1, mining.samplePackets(0.3));
        assertEquals(2, mining.samplePackets(0.55));
    }

    @Test
    void theEmpiricalMeanOfAMillionDrawsIsWithinOnePercentOfTheExactMean() throws Exception
    {
        final FlowSizeDistribution web = FlowSizeDistribution.load("websearch");
        final SplittableRandom random = new SplittableRandom(1);
        double sum = 0;
        final int draws = 1_000_000;
        for (int i = 0; i < draws; i++)
        {
            final long packets = web.samplePackets(random);
            assertTrue(packets >= 1);
            sum += packets;
        }
        assertEquals(web.exactMeanPackets(), sum / draws, web.exactMeanPackets() * 0.01);
    }

    @Test
    void aMalformedTableNamesItsLine()
    {
        final IllegalArgumentException notANumber = assertThrows(IllegalArgumentException.class,
            () -> FlowSizeDistribution.parse("bad.cdf", new StringReader("# comment\n1 0\nten 0.5\n")));
        assertTrue(notANumber.getMessage().startsWith("bad.cdf:3:"), notANumber.getMessage());
        final IllegalArgumentException decreasing = assertThrows(IllegalArgumentException.class,
            () -> FlowSizeDistribution.parse("bad.cdf", new StringReader("1 0\n5 0.6\n7 0.5\n")));
        assertTrue(decreasing.getMessage().startsWith("bad.cdf:3:"), decreasing.getMessage());
        assertThrows(IllegalArgumentException.class,
            () -> FlowSizeDistribution.parse("bad.cdf", new StringReader("1 0\n5 0.9\n")), "must end at 1");
        assertThrows(IllegalArgumentException.class,
            () -> FlowSizeDistribution.parse("bad.cdf", new StringReader("-1 0\n5 1\n")));
        assertThrows(IllegalArgumentException.class, () -> FlowSizeDistribution.load("no-such-workload"));
    }
}
