package io.pfabric.sim;

import io.pfabric.common.topology.TrafficClasses;
import io.pfabric.dataplane.queue.PfabricClassQueue;
import io.pfabric.hostd.transport.TransportConfiguration;
import io.pfabric.hostd.workload.WorkloadTrace;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

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
    private static final int RECEIVER = 0;
    private static final int LEAF = 0;
    private static final int[] WEIGHTS = { 3, 1 };

    private static List<WorkloadTrace.FlowSpec> flows()
    {
        final List<WorkloadTrace.FlowSpec> flows = new ArrayList<>();
        int index = 0;
        for (int sender = 1; sender <= 6; sender++)
        {
            final boolean classZero = sender <= 3;
            for (int k = 0; k < 2; k++)
            {
                final long segments = (classZero ? 200L : 80L) * (2 * ((sender - 1) % 3) + k + 1);
                flows.add(new WorkloadTrace.FlowSpec(index++, sender, RECEIVER, segments * 1_460, 0,
                    classZero ? 0 : 8));
            }
        }
        return flows;
    }

    @Test
    void theBothBackloggedShareAtTheBottleneckIsTheWeightsWithinDrrsBound()
    {
        final SimFabric fabric = SimFabric.paper().withShape(1, 7, 0)
            .withClasses(TrafficClasses.parse(WEIGHTS[0] + ":0-7;" + WEIGHTS[1] + ":8-15"));
        final Simulator simulator = new Simulator(fabric, TransportConfiguration.PAPER.withLineRate(), 7);
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
        simulator.run(flows(), SECOND_NS);

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
