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
    void theProbabilitiesOfEachSizeAreThoseOfTheSampler() throws Exception
    {
        for (final String name : new String[]{ "websearch", "datamining" })
        {
            final FlowSizeDistribution sizes = FlowSizeDistribution.load(name);
            final double[] probabilities = sizes.packetProbabilities();
            double total = 0;
            double mean = 0;
            for (int n = 0; n < probabilities.length; n++)
            {
                total += probabilities[n];
                mean += n * probabilities[n];
            }
            assertEquals(1.0, total, 1e-9, name);
            assertEquals(sizes.exactMeanPackets(), mean, 1e-6 * mean, name);
            assertEquals(0.0, probabilities[0]);
        }
        final double[] web = FlowSizeDistribution.load("websearch").packetProbabilities();
        assertEquals(0.15, web[6], 1e-12, "the first row's mass sits at 6 packets");
        assertEquals(0.05 / 7, web[7], 1e-12, "6 to 13 packets hold 0.05, one seventh per packet");
        assertEquals(20_001, web.length);
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
