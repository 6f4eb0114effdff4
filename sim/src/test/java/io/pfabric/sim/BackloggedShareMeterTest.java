package io.pfabric.sim;

import io.pfabric.dataplane.queue.PfabricClassQueue;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The share of each class in the bytes a port sends while both classes are backlogged there, on the star of
 * {@link TrafficClassSimulatorTest}: classes of weights 3 and 1 from three senders each into one receiver, hosts
 * sending at line rate. Deficit round robin's fairness bound (Shreedhar and Varghese, 1995) holds over each stretch in
 * which both classes stay backlogged: with quanta of weight × the longest frame M, the classes' bytes per unit weight
 * differ by at most M + 2M, so over s stretches by at most 3sM, and the share of class 0 is 3/4 within that.
 */
class BackloggedShareMeterTest
{
    private static final long SECOND_NS = 1_000_000_000L;
    private static final int RECEIVER = TrafficClassSimulatorTest.RECEIVER;
    private static final int LEAF = TrafficClassSimulatorTest.LEAF;
    private static final int[] WEIGHTS = TrafficClassSimulatorTest.WEIGHTS;

    @Test
    void theBothBackloggedShareAtTheBottleneckIsTheWeightsWithinDrrsBound()
    {
        final Simulator simulator = TrafficClassSimulatorTest.saturatedSimulator();
        final PfabricClassQueue queue = assertInstanceOf(PfabricClassQueue.class, simulator.queue(LEAF, RECEIVER));
        final long[] independent = new long[2];
        final long[] all = new long[2];
        final int[] stretches = new int[1];
        final int[] longestFrame = new int[1];
        final BackloggedShareMeter meter = new BackloggedShareMeter();
        simulator.transmitObserver(TransmitObserver.both(meter, new TransmitObserver()
        {
            private boolean inStretch;

            public void onTransmit(final int switchIndex, final int port, final long nowNs, final int payloadLength)
            {
            }

            public void onTransmit(final int switchIndex, final int port, final long nowNs, final int payloadLength,
                final int frameLength, final int dscp)
            {
                if (LEAF == switchIndex && RECEIVER == port)
                {
                    final int k = queue.classOf(dscp);
                    all[k] += frameLength;
                    longestFrame[0] = Math.max(longestFrame[0], frameLength);
                    final boolean both = queue.classPacketCount(1 - k) > 0;
                    if (both)
                    {
                        independent[k] += frameLength;
                        stretches[0] += inStretch ? 0 : 1;
                    }
                    inStretch = both && queue.classPacketCount(k) > 0;
                }
            }
        }));
        simulator.run(TrafficClassSimulatorTest.flows(), SECOND_NS);

        int index = -1;
        for (int i = 0; i < meter.ports(); i++)
        {
            if (LEAF == meter.switchIndex(i) && RECEIVER == meter.port(i))
            {
                index = i;
            }
        }
        assertEquals(2, meter.classCount(index));
        final long b0 = meter.backloggedBytes(index, 0);
        final long b1 = meter.backloggedBytes(index, 1);
        assertEquals(independent[0], b0);
        assertEquals(independent[1], b1);
        assertEquals(all[0], meter.departedBytes(index, 0));
        assertEquals(all[1], meter.departedBytes(index, 1));
        assertEquals(stretches[0], meter.stretches(index));
        assertEquals(b0, meter.backloggedBytes(0), "no other port had both classes backlogged");
        assertEquals(b1, meter.backloggedBytes(1));
        assertTrue(b0 + b1 > (all[0] + all[1]) / 2, "both classes were backlogged for most of the port's bytes: " +
            (b0 + b1) + " of " + (all[0] + all[1]));

        final long bound = 3L * stretches[0] * longestFrame[0];
        final double perWeightGap = Math.abs((double)b0 / WEIGHTS[0] - (double)b1 / WEIGHTS[1]);
        assertTrue(perWeightGap <= bound, "bytes per unit weight " + (double)b0 / WEIGHTS[0] + " and " +
            (double)b1 / WEIGHTS[1] + ", over " + stretches[0] + " stretches");
        final double share = (double)b0 / (b0 + b1);
        assertEquals(0.75, share, (double)bound / (b0 + b1), "class 0's share while both were backlogged");
        assertEquals(0.75, share, 0.01);
    }
}
