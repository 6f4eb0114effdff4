package io.pfabric.dataplane.pacer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EgressPacerTest
{
    private static final long GBPS = 1_000_000_000L;

    /**
     * A backlogged port polled at the given intervals: the release times of the frames.
     */
    private static List<Long> releases(
        final EgressPacer pacer, final int frames, final int frameLength, final long maxPollGapNs, final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final List<Long> times = new ArrayList<>();
        long nowNs = 1_000_000;
        while (times.size() < frames)
        {
            while (times.size() < frames && pacer.mayRelease(nowNs))
            {
                pacer.onRelease(nowNs, frameLength);
                times.add(nowNs);
            }
            nowNs += maxPollGapNs <= 1 ? 1 : 1 + random.nextLong(maxPollGapNs);
        }
        return times;
    }

    private static double rateBitsPerSec(final List<Long> times, final int frameLength)
    {
        final long wireBits = 8L * (Math.max(frameLength, 60) + 24);
        return (times.size() - 1) * wireBits * 1e9 / (times.get(times.size() - 1) - times.get(0));
    }

    @Test
    void spacesFramesByTheirExactWireTimeCarryingFractionsOfANanosecond()
    {
        final EgressPacer pacer = new EgressPacer(10 * GBPS);
        pacer.onRelease(0, 1500);
        assertEquals(0, pacer.nextDepartureNs());
        pacer.onRelease(0, 1500);
        assertEquals(1219, pacer.nextDepartureNs());
        for (int i = 0; i < 4; i++)
        {
            pacer.onRelease(pacer.nextDepartureNs(), 1500);
        }
        assertEquals(1219 + 4877, pacer.nextDepartureNs());
        assertFalse(pacer.mayRelease(6095));
        assertTrue(pacer.mayRelease(6096));
    }

    @Test
    void countsShortFramesAsPaddedToTheEthernetMinimum()
    {
        final EgressPacer pacer = new EgressPacer(GBPS, 1);
        pacer.onRelease(0, 42);
        assertEquals(672, pacer.nextDepartureNs());
        assertEquals(672, pacer.wireTimeNs(60));
    }

    @ParameterizedTest
    @ValueSource(longs = { 100_000_000L, 1_000_000_000L, 10_000_000_000L })
    void holdsTheLongRunRateWhenPolledOften(final long rateBitsPerSec)
    {
        final EgressPacer pacer = new EgressPacer(rateBitsPerSec);
        final List<Long> times = releases(pacer, 100_000, 1500, 50, 1);
        assertEquals(rateBitsPerSec, rateBitsPerSec(times, 1500), rateBitsPerSec * 0.001);
    }

    @Test
    void catchesUpOnPollsUpToAFrameTimeLateAndNeverSendsThreeFramesInOneFrameTime()
    {
        final EgressPacer pacer = new EgressPacer(GBPS);
        final long frameTimeNs = pacer.wireTimeNs(1500);
        final List<Long> times = releases(pacer, 100_000, 1500, frameTimeNs, 7);
        assertEquals(GBPS, rateBitsPerSec(times, 1500), GBPS * 0.001);
        int caughtUp = 0;
        for (int i = 2; i < times.size(); i++)
        {
            assertTrue(times.get(i) - times.get(i - 2) >= frameTimeNs,
                "frames " + (i - 2) + ".." + i + " within one frame time");
            caughtUp += times.get(i) - times.get(i - 1) < frameTimeNs ? 1 : 0;
        }
        assertTrue(caughtUp > 1_000, "frames sent early to catch up: " + caughtUp);
    }

    @Test
    void losesRateButStillBurstsAtMostTwoFramesWhenPolledLaterThanAFrameTime()
    {
        final EgressPacer pacer = new EgressPacer(GBPS);
        final long frameTimeNs = pacer.wireTimeNs(1500);
        final List<Long> times = releases(pacer, 100_000, 1500, 3 * frameTimeNs, 9);
        assertTrue(rateBitsPerSec(times, 1500) < 0.99 * GBPS);
        for (int i = 2; i < times.size(); i++)
        {
            assertTrue(times.get(i) - times.get(i - 2) >= frameTimeNs);
        }
    }

    @Test
    void banksNoMoreThanOneExtraFrameAfterIdling()
    {
        final EgressPacer pacer = new EgressPacer(GBPS);
        pacer.onRelease(0, 1500);
        final long afterIdleNs = 1_000_000_000L;
        assertTrue(pacer.mayRelease(afterIdleNs));
        pacer.onRelease(afterIdleNs, 1500);
        assertTrue(pacer.mayRelease(afterIdleNs));
        pacer.onRelease(afterIdleNs, 1500);
        assertFalse(pacer.mayRelease(afterIdleNs));
        assertEquals(afterIdleNs + pacer.wireTimeNs(1500), pacer.nextDepartureNs());
    }

    @Test
    void withABurstOfOneNeverReleasesBackToBack()
    {
        final EgressPacer pacer = new EgressPacer(GBPS, 1);
        final long frameTimeNs = pacer.wireTimeNs(1500);
        final List<Long> times = releases(pacer, 10_000, 1500, 2 * frameTimeNs, 3);
        for (int i = 1; i < times.size(); i++)
        {
            assertTrue(times.get(i) - times.get(i - 1) >= frameTimeNs);
        }
    }

    @Test
    void holdsTheRateForMixedFrameSizes()
    {
        final EgressPacer pacer = new EgressPacer(GBPS);
        final SplittableRandom random = new SplittableRandom(5);
        long nowNs = 0;
        long wireBits = 0;
        long firstNs = -1;
        long lastLength = 0;
        int frames = 0;
        while (frames < 100_000)
        {
            if (pacer.mayRelease(nowNs))
            {
                final int length = 0 == random.nextInt(3) ? 64 : 60 + random.nextInt(1455);
                pacer.onRelease(nowNs, length);
                firstNs = firstNs < 0 ? nowNs : firstNs;
                wireBits += 8L * (Math.max(length, 60) + 24);
                lastLength = 8L * (Math.max(length, 60) + 24);
                frames++;
            }
            nowNs += 1 + random.nextInt(400);
        }
        final double rate = (wireBits - lastLength) * 1e9 / (pacer.nextDepartureNs() - firstNs - lastLength);
        assertEquals(GBPS, rate, GBPS * 0.01);
    }

    @Test
    void appliesANewRateToTheNextFrame()
    {
        final EgressPacer pacer = new EgressPacer(GBPS);
        pacer.onRelease(0, 1500);
        pacer.rate(100_000_000L);
        final long departureNs = pacer.nextDepartureNs();
        pacer.onRelease(departureNs, 1500);
        assertEquals(departureNs + 121_920, pacer.nextDepartureNs());
    }

    @Test
    void aBackloggedReleaseMakesUpEveryFrameTimeSinceTheBacklogBeganButNoIdleTime()
    {
        final EgressPacer pacer = new EgressPacer(GBPS);
        final long wireNs = pacer.wireTimeNs(1500);
        pacer.onBackloggedRelease(0, 1500, 0);
        final long lateNs = 10 * wireNs + wireNs / 2;
        int backToBack = 0;
        while (pacer.mayRelease(lateNs))
        {
            pacer.onBackloggedRelease(lateNs, 1500, 0);
            backToBack++;
        }
        assertEquals(10 + EgressPacer.DEFAULT_BURST_FRAMES - 1, backToBack,
            "ten frame times late, ten frames leave at once, besides the burst the first frame was allowed");

        final long idleUntilNs = lateNs + 100 * wireNs;
        int afterIdle = 0;
        while (pacer.mayRelease(idleUntilNs))
        {
            pacer.onBackloggedRelease(idleUntilNs, 1500, idleUntilNs);
            afterIdle++;
        }
        assertEquals(EgressPacer.DEFAULT_BURST_FRAMES, afterIdle, "a backlog that began now banks only the burst");
    }

    @Test
    void rejectsImpossibleRatesAndBursts()
    {
        assertThrows(IllegalArgumentException.class, () -> new EgressPacer(0));
        assertThrows(IllegalArgumentException.class, () -> new EgressPacer(-1));
        assertThrows(IllegalArgumentException.class, () -> new EgressPacer(GBPS, 0));
    }
}
