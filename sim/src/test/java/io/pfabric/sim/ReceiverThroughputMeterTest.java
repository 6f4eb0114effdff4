package io.pfabric.sim;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The meter counts the payload of frames leaving on a leaf's ports down to hosts, by DSCP and time bin, and nothing
 * else: not uplinks, not spines, not host NICs, not ACKs; what comes after the last bin lands in it.
 */
class ReceiverThroughputMeterTest
{
    private static final SimFabric FABRIC = SimFabric.paper().withShape(2, 4, 2);

    @Test
    void countsPayloadOnHostPortsByDscpAndBin()
    {
        final ReceiverThroughputMeter meter = new ReceiverThroughputMeter(FABRIC, 1_000, 3);
        meter.onTransmit(0, 0, 10, 1_460, 1_526, 0);
        meter.onTransmit(1, 3, 999, 1_460, 1_526, 8);
        meter.onTransmit(1, 3, 1_000, 100, 166, 8);
        meter.onTransmit(0, 4, 1_500, 1_460, 1_526, 0);
        meter.onTransmit(2, 0, 1_500, 1_460, 1_526, 0);
        meter.onTransmit(4, 1, 1_500, 1_460, 1_526, 0);
        meter.onTransmit(0, 1, 1_500, 0, 66, 0);
        meter.onTransmit(0, 2, 2_500, 1_000, 1_066, 0);
        meter.onTransmit(0, 2, 9_000, 500, 566, 0);
        meter.onTransmit(0, 1, 1_200, 200);

        assertEquals(1_460, meter.payloadBytes(0, 0));
        assertEquals(1_460, meter.payloadBytes(8, 0));
        assertEquals(100, meter.payloadBytes(8, 1));
        assertEquals(200, meter.payloadBytes(0, 1), "a frame told without its DSCP is DSCP 0");
        assertEquals(1_500, meter.payloadBytes(0, 2), "the last bin holds what comes after it");
        assertEquals(3_160, meter.payloadBytes(0, 0, 3));
        assertEquals(1_560, meter.payloadBytes(8, 0, 3));
        assertEquals(3, meter.bins());
        assertEquals(1_000, meter.binNs());
    }
}
