package io.pfabric.hostd.control;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ASY buckets on scripted time: a destination with no rate admits nothing, and a backlogged sender polled every
 * microsecond gets its granted rate over a long window within 1%.
 */
class AsyAdmissionTest
{
    private static final int WIRE_LENGTH = 1_476;

    private static long bitsPerSecondOver(final AsyAdmission asy, final int destination, final long durationNs)
    {
        long bytes = 0;
        for (long now = 1_000; now < durationNs; now += 1_000)
        {
            while (asy.mayAdmit(destination, now))
            {
                asy.onAdmitted(destination, now, WIRE_LENGTH);
                bytes += WIRE_LENGTH + AsyAdmission.FRAME_OVERHEAD_LENGTH;
            }
        }
        return (long)(bytes * 8 * 1e9 / durationNs);
    }

    @Test
    void noRateNoPacket()
    {
        final AsyAdmission asy = new AsyAdmission(3, AsyAdmission.DEFAULT_DEPTH_BYTES, 0);
        assertFalse(asy.mayAdmit(1, 1_000_000_000L));
        asy.rate(1, 1_000_000, 1_000_000_000L);
        asy.rate(1, 0, 1_000_000_000L);
        assertFalse(asy.mayAdmit(1, 2_000_000_000L), "a rate of 0 stops it");
    }

    @Test
    void theBucketKeepsTheGrantedRateOverALongWindowWithinOnePercent()
    {
        for (final long rate : new long[] { 1_000_000L, 37_000_000L, 600_000_000L, 9_000_000_000L })
        {
            final AsyAdmission asy = new AsyAdmission(2, AsyAdmission.DEFAULT_DEPTH_BYTES, 0);
            asy.rate(1, rate, 0);
            final long measured = bitsPerSecondOver(asy, 1, 2_000_000_000L);
            assertEquals(rate, measured, rate * 0.01, "rate " + rate);
        }
    }

    @Test
    void aBurstIsAtMostTheDepthAndOnePacket()
    {
        final AsyAdmission asy = new AsyAdmission(2, AsyAdmission.DEFAULT_DEPTH_BYTES, 0);
        asy.rate(1, 100_000_000L, 0);
        int packets = 0;
        while (asy.mayAdmit(1, 1_000_000_000L))
        {
            asy.onAdmitted(1, 1_000_000_000L, WIRE_LENGTH);
            packets++;
        }
        assertTrue(packets <= 3, packets + " packets in a burst after a long idle");
    }
}
