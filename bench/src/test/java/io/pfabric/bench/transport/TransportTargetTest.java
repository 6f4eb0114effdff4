package io.pfabric.bench.transport;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each target's largest goodput, the labels, and the median the round trips are reported as.
 */
class TransportTargetTest
{
    @Test
    void maxGoodputPaysEveryFullPacketsHeadersPreambleAndGap()
    {
        final long rate = 1_000_000_000L;

        assertEquals(rate * 1440.0 / 1538, TransportTarget.HOSTD.maxGoodputBitsPerSec(rate), 1e-3,
            "1440 B of payload behind 32 of pFabric, 8 of UDP, 20 of IPv4, 14 of Ethernet, plus 24");
        assertEquals(rate * 1440.0 / 1538, TransportTarget.HOSTD_PFABRIC.maxGoodputBitsPerSec(rate), 1e-3);
        assertEquals(rate * 1448.0 / 1538, TransportTarget.HOSTD_RAW.maxGoodputBitsPerSec(rate), 1e-3,
            "1448 B behind 32 of pFabric, 20 of IPv4 and 14 of Ethernet");
        assertEquals(rate * 1448.0 / 1538, TransportTarget.KERNEL_TCP.maxGoodputBitsPerSec(rate), 1e-3,
            "1448 B behind 32 of TCP with timestamps, 20 of IPv4 and 14 of Ethernet");
        assertTrue(Double.isNaN(TransportTarget.HOSTD.maxGoodputBitsPerSec(0)), "unpaced has no maximum");
    }

    @Test
    void labelsNameTheRowsInOrder()
    {
        assertEquals(List.of("hostd", "hostd-pfabric", "hostd-raw", "kernel-tcp"), TransportTarget.labels());
        assertEquals(TransportTarget.HOSTD_RAW, TransportTarget.byLabel("HOSTD-RAW"));
        assertThrows(IllegalArgumentException.class, () -> TransportTarget.byLabel("iperf"));
    }

    @Test
    void medianIsTheMiddleSampleOrTheMeanOfTheTwo()
    {
        final long[] odd = { 30, 10, 20 };

        assertEquals(20.0, TransportBench.median(odd));
        assertEquals(30, odd[0], "the samples are not reordered");
        assertEquals(25.0, TransportBench.median(new long[]{ 40, 10, 20, 30 }));
        assertEquals(7.0, TransportBench.median(new long[]{ 7 }));
    }
}
