package io.pfabric.dataplane.queue;

import io.pfabric.common.topology.DisciplineSpec;
import io.pfabric.common.topology.TrafficClasses;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.SplittableRandom;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * 200,000 random arrivals and departures per case against {@link ReferenceCommodityQueue}, departure by departure and
 * drop by drop, with the rank inversions and the ECN marking decisions counted alike.
 */
class CommodityQueueRandomizedTest
{
    private static final int MAX_FRAME_LENGTH = 1514;

    record Case(String label, Supplier<QueueDiscipline> queue, Supplier<ReferenceCommodityQueue> reference,
        long priorityRange)
    {
        public String toString()
        {
            return label;
        }
    }

    static Stream<Arguments> cases()
    {
        final long[] four = { 3_000, 40_000, 700_000 };
        final long[] eight = { 1_500, 5_000, 20_000, 60_000, 200_000, 1_000_000, 5_000_000 };
        return Stream.of(
            new Case("strict:4, 225 KB with 15 KB reserves",
                () -> new StrictPriorityQueue(225_000, MAX_FRAME_LENGTH, MAX_FRAME_LENGTH, four, 15_000),
                () -> ReferenceCommodityQueue.strict(225_000, four, 15_000), 2_000_000),
            new Case("strict:8, 40 KB with 4 KB reserves",
                () -> new StrictPriorityQueue(40_000, MAX_FRAME_LENGTH, MAX_FRAME_LENGTH, eight, 4_000),
                () -> ReferenceCommodityQueue.strict(40_000, eight, 4_000), 10_000_000),
            new Case("strict:2, 20 KB shared",
                () -> new StrictPriorityQueue(20_000, MAX_FRAME_LENGTH, MAX_FRAME_LENGTH, new long[]{ 50_000 }, 0),
                () -> ReferenceCommodityQueue.strict(20_000, new long[]{ 50_000 }, 0), 100_000),
            new Case("sp-pifo:8, equal split",
                () -> new SpPifoQueue(120_000, MAX_FRAME_LENGTH, MAX_FRAME_LENGTH, 8),
                () -> ReferenceCommodityQueue.spPifo(120_000, 8, 15_000), 1_000_000),
            new Case("sp-pifo:4, shared",
                () -> new SpPifoQueue(30_000, MAX_FRAME_LENGTH, MAX_FRAME_LENGTH, 4, 0),
                () -> ReferenceCommodityQueue.spPifo(30_000, 4, 0), 5_000),
            new Case("sp-pifo:8 as named, 120 KB: eight queues of ten full frames",
                () -> named("sp-pifo:8", 120_000),
                () -> ReferenceCommodityQueue.spPifo(120_000, 8, 15_000), 1_000_000),
            new Case("sp-pifo:8:shared as named, 120 KB shared",
                () -> named("sp-pifo:8:shared", 120_000),
                () -> ReferenceCommodityQueue.spPifo(120_000, 8, 0), 1_000_000),
            new Case("sp-pifo:1",
                () -> new SpPifoQueue(20_000, MAX_FRAME_LENGTH, MAX_FRAME_LENGTH, 1),
                () -> ReferenceCommodityQueue.spPifo(20_000, 1, 20_000), 1_000),
            new Case("pias:8, K 6 KB",
                () -> new PiasQueue(60_000, MAX_FRAME_LENGTH, MAX_FRAME_LENGTH, 8, 6_000),
                () -> ReferenceCommodityQueue.pias(60_000, 8, 6_000), 1_000_000),
            new Case("pias:3, K 0",
                () -> new PiasQueue(20_000, MAX_FRAME_LENGTH, MAX_FRAME_LENGTH, 3, 0),
                () -> ReferenceCommodityQueue.pias(20_000, 3, 0), 1_000),
            new Case("aifo, C 30 KB, k 0.1, W 20, S 15",
                () -> new AifoQueue(30_000, MAX_FRAME_LENGTH, MAX_FRAME_LENGTH, 0.1, 20, 15),
                () -> ReferenceCommodityQueue.aifo(30_000, 0.1, 20, 15), 1_000_000),
            new Case("aifo, C 12 KB, k 0.5, W 7, S 1",
                () -> new AifoQueue(12_000, MAX_FRAME_LENGTH, MAX_FRAME_LENGTH, 0.5, 7, 1),
                () -> ReferenceCommodityQueue.aifo(12_000, 0.5, 7, 1), 50))
            .map(Arguments::of);
    }

    private static QueueDiscipline named(final String discipline, final long capacityLength)
    {
        return DisciplineKind.newQueue(DisciplineSpec.parse(discipline), capacityLength, MAX_FRAME_LENGTH,
            MAX_FRAME_LENGTH, TrafficClasses.DEFAULT);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void departsAndDropsAsTheReference(final Case testCase)
    {
        final QueueRecorder recorder = new QueueRecorder();
        final QueueDiscipline queue = testCase.queue().get().dropHandler(recorder);
        final ReferenceCommodityQueue reference = testCase.reference().get();
        final SplittableRandom random = new SplittableRandom(testCase.label().hashCode());
        long departures = 0;
        for (long id = 0; id < 200_000; id++)
        {
            final int length = random.nextInt(4) == 0 ? MAX_FRAME_LENGTH : 60 + random.nextInt(MAX_FRAME_LENGTH - 59);
            final long priority = random.nextLong(testCase.priorityRange());
            final int dscp = random.nextInt(10);
            final boolean expected = reference.offer(id, length, priority, dscp);
            assertEquals(expected, recorder.offer(queue, id, length, priority, id % 50, dscp), "arrival " + id);
            final int takes = random.nextInt(5) < 2 ? 1 + random.nextInt(2) : 0;
            for (int i = 0; i < takes; i++)
            {
                final long expectedId = reference.take();
                assertEquals(expectedId, recorder.take(queue), "departure after arrival " + id);
                departures += expectedId >= 0 ? 1 : 0;
            }
        }
        assertEquals(reference.droppedIds, recorder.droppedIds);
        assertEquals(reference.dropReasons, recorder.dropReasons);
        assertEquals(reference.rankInversions, queue.counters().get(QueueCounter.RANK_INVERSION_PACKETS));
        assertEquals(reference.markAttempts, queue.counters().get(QueueCounter.ECN_UNMARKABLE_PACKETS));
        assertEquals(departures, queue.counters().get(QueueCounter.DEQUEUED_PACKETS));
        assertTrue(recorder.droppedIds.size() > 1_000, "the buffer overflowed: " + recorder.droppedIds.size());
        assertTrue(reference.rankInversions > 0);
    }
}
