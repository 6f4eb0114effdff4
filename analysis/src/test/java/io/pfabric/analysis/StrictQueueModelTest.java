package io.pfabric.analysis;

import io.pfabric.common.topology.DisciplineSpec;
import io.pfabric.hostd.workload.FlowSizeDistribution;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StrictQueueModelTest
{
    /** Half the flows 1 packet, half 10: mean 5.5, second moment 50.5. */
    private static final double[] ONE_OR_TEN = new double[11];

    static
    {
        ONE_OR_TEN[1] = 0.5;
        ONE_OR_TEN[10] = 0.5;
    }

    private final StrictQueueModel model = new StrictQueueModel(ONE_OR_TEN);

    @Test
    void oneQueueIsTheMG1QueueOfPollaczekAndKhintchine()
    {
        final double lambda = 0.5 / 5.5;
        final double wait = lambda * 50.5 / 2 / (1 - 0.5);
        final StrictQueueModel.Prediction fifo = model.predict(0.5, new long[0]);
        assertEquals(0.5 * (1 + wait) + 0.5 * (10 + wait) / 10, fifo.overall(), 1e-12);
        assertEquals(5.5 + wait, fifo.meanPacketTimes(), 1e-12);
        assertEquals(fifo.overall(), fifo.small(), 1e-12, "every flow is at most 100 KB");
    }

    @Test
    void twoQueuesSplitTheLargeFlowsIntoAJobPerQueueWithPreemptivePriority()
    {
        final StrictQueueModel.Prediction split = model.predict(0.5, new long[]{ 2 });
        assertEquals(0.5 * 1.05 + 0.5 * 15.1 / 10, split.overall(), 1e-12, "worked by hand in the comment below");
        assertEquals(0.5 * 1.05 + 0.5 * 15.1, split.meanPacketTimes(), 1e-12);
        assertEquals(split.overall(), model.meanNormalizedFct(0.5, new long[]{ 2 }), 1e-12);
        // λ = 1/11; queue 0 takes one packet of every flow: σ0 = 1/11, R0 = λ/2, W0 = R0 / (1 - σ0) = 0.05;
        // queue 1 takes 9 packets of the 10-packet flows: σ1 = 0.5, R1 = λ/2 (1 + 40.5), W1 = R1 / (10/11 × 0.5) = 4.15;
        // FCT(1) = 1 + 0.05, FCT(10) = 1.05 + 9 × 11/10 + 4.15 = 15.1.
        assertArrayEquals(new long[]{ 1460 * 2 }, split.thresholdsBytes());
    }

    @Test
    void theOptimumOfTwoQueuesPutsOnlyTheLastPacketOfEveryFlowAbove()
    {
        final StrictQueueModel.Prediction best = model.optimal(0.5, 2);
        assertArrayEquals(new long[]{ 2 }, best.thresholdsPackets());
        for (final long t : model.candidateGrid())
        {
            assertTrue(model.meanNormalizedFct(0.5, new long[]{ t }) >= best.overall() - 1e-12, "t = " + t);
        }
        assertEquals(model.predict(0.5, new long[0]).overall(), model.predict(0.5, new long[]{ 11 }).overall(),
            1e-12, "a threshold above every flow is one FIFO");
    }

    @Test
    void morePriorityQueuesNeverPredictWorseOnTheWebSearchWorkload() throws IOException
    {
        final FlowSizeDistribution sizes = FlowSizeDistribution.load("websearch");
        final StrictQueueModel websearch = new StrictQueueModel(sizes.packetProbabilities());
        double previous = Double.POSITIVE_INFINITY;
        for (int queues = 1; queues <= 8; queues *= 2)
        {
            final StrictQueueModel.Prediction best = websearch.optimal(0.6, queues);
            assertEquals(queues - 1, best.thresholdsPackets().length);
            assertTrue(best.overall() <= previous + 1e-12, queues + " queues: " + best.overall());
            previous = best.overall();
        }
        assertEquals(20_000, websearch.largestPackets());
    }

    @Test
    void resolvesTheThresholdsAStrictDisciplineLeavesToTheRun() throws IOException
    {
        final FlowSizeDistribution sizes = FlowSizeDistribution.load("websearch");
        final DisciplineSpec resolved = StrictThresholds.resolve(DisciplineSpec.parse("strict:4"), sizes, 0.6);
        assertEquals(3, resolved.given().length);
        final long[] expected = new StrictQueueModel(sizes.packetProbabilities()).optimal(0.6, 4).thresholdsBytes();
        assertArrayEquals(expected, resolved.given());
        final DisciplineSpec equal = StrictThresholds.resolve(DisciplineSpec.parse("strict:4:equal"), sizes, 0.6);
        assertArrayEquals(new long[]{ 5_005 * 1460L, 10_003 * 1460L, 15_002 * 1460L }, equal.given(),
            "6 to 20,000 packets in four equal parts");
        final DisciplineSpec given = DisciplineSpec.parse("strict:2:5000");
        assertEquals(given, StrictThresholds.resolve(given, sizes, 0.6));
        assertThrows(IllegalArgumentException.class,
            () -> StrictThresholds.resolve(DisciplineSpec.parse("strict:4"), sizes, 1.0));
    }
}
