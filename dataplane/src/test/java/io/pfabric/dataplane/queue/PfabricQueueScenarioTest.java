package io.pfabric.dataplane.queue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Scripted arrivals into a pFabric queue and the exact departures and drops that must follow, for each of its
 * structures.
 */
abstract class PfabricQueueScenarioTest
{
    private static final int FULL = 1500;

    private final QueueRecorder recorder = new QueueRecorder();

    abstract PfabricQueue.Structure structure();

    private PfabricQueue queue(final long capacityLength)
    {
        final PfabricQueue queue = new PfabricQueue(capacityLength, 1514, structure());
        queue.dropHandler(recorder);
        return queue;
    }

    @Test
    void aFlowsLaterMoreUrgentPacketMakesItsEarliestPacketLeaveFirst()
    {
        final PfabricQueue queue = queue(36_000);
        recorder.offer(queue, 1, FULL, 100, 0xA);
        recorder.offer(queue, 2, FULL, 70, 0xB);
        recorder.offer(queue, 3, FULL, 50, 0xA);
        assertEquals(List.of(1L, 3L, 2L), recorder.drain(queue));
    }

    @Test
    void theEarliestPacketOfTheMostUrgentFlowLeavesEvenIfItIsTheLeastUrgentPacket()
    {
        final PfabricQueue queue = queue(36_000);
        recorder.offer(queue, 1, FULL, 9_000, 0xA);
        recorder.offer(queue, 2, FULL, 500, 0xB);
        recorder.offer(queue, 3, FULL, 600, 0xB);
        recorder.offer(queue, 4, FULL, 10, 0xA);
        recorder.offer(queue, 5, FULL, 5, 0xC);
        assertEquals(List.of(5L, 1L, 4L, 2L, 3L), recorder.drain(queue));
    }

    @Test
    void breaksPriorityTiesByArrival()
    {
        final PfabricQueue queue = queue(36_000);
        recorder.offer(queue, 1, FULL, 40, 0xA);
        recorder.offer(queue, 2, FULL, 30, 0xB);
        recorder.offer(queue, 3, FULL, 30, 0xC);
        recorder.offer(queue, 4, FULL, 30, 0xB);
        recorder.offer(queue, 5, FULL, 40, 0xD);
        assertEquals(List.of(2L, 3L, 4L, 1L, 5L), recorder.drain(queue));
    }

    @Test
    void dropsAnArrivalWhosePriorityNumberIsAtLeastEveryBufferedOne()
    {
        final PfabricQueue queue = queue(24 * FULL);
        for (int i = 0; i < 24; i++)
        {
            assertTrue(recorder.offer(queue, i, FULL, 100 + i, i));
        }
        assertFalse(recorder.offer(queue, 100, FULL, 123, 100));
        assertFalse(recorder.offer(queue, 101, FULL, 5_000, 101));
        assertFalse(recorder.offer(queue, 102, 60, 123, 23));
        assertEquals(List.of(100L, 101L, 102L), recorder.droppedIds);
        assertEquals(3, queue.counters().droppedPackets(DropReason.PRIORITY_DROP_ARRIVAL));
        assertEquals(0, queue.counters().droppedPackets(DropReason.PRIORITY_EVICTION));
        assertEquals(24, queue.packetCount());
    }

    @Test
    void evictsTheNewestAmongEqualLeastUrgentPackets()
    {
        final PfabricQueue queue = queue(4 * FULL);
        recorder.offer(queue, 1, FULL, 900, 1);
        recorder.offer(queue, 2, FULL, 10, 2);
        recorder.offer(queue, 3, FULL, 900, 3);
        recorder.offer(queue, 4, FULL, 20, 4);
        assertTrue(recorder.offer(queue, 5, FULL, 899, 5));
        assertTrue(recorder.offer(queue, 6, FULL, 899, 6));
        assertEquals(List.of(3L, 1L), recorder.droppedIds);
        assertEquals(List.of(DropReason.PRIORITY_EVICTION, DropReason.PRIORITY_EVICTION), recorder.dropReasons);
        assertEquals(List.of(2L, 4L, 5L, 6L), recorder.drain(queue));
    }

    @Test
    void evictsLeastUrgentPacketsUntilALargeArrivalFits()
    {
        final PfabricQueue queue = queue(3_000);
        recorder.offer(queue, 1, 1_514, 1, 1);
        recorder.offer(queue, 2, 200, 900, 2);
        recorder.offer(queue, 3, 200, 900, 3);
        recorder.offer(queue, 4, 300, 800, 4);
        recorder.offer(queue, 5, 700, 850, 5);
        assertEquals(2_914, queue.byteCount());
        assertTrue(recorder.offer(queue, 6, 1_000, 500, 6));
        assertEquals(List.of(3L, 2L, 5L), recorder.droppedIds);
        assertEquals(1_100, queue.counters().get(QueueCounter.PRIORITY_EVICTION_BYTES));
        assertEquals(2_814, queue.byteCount());
        assertEquals(List.of(1L, 6L, 4L), recorder.drain(queue));
    }

    @Test
    void evictsNothingWhenTheLessUrgentPacketsCannotMakeRoom()
    {
        final PfabricQueue queue = queue(3_000);
        recorder.offer(queue, 1, 1_514, 1, 1);
        recorder.offer(queue, 2, 200, 900, 2);
        recorder.offer(queue, 3, 200, 900, 3);
        recorder.offer(queue, 4, 300, 800, 4);
        recorder.offer(queue, 5, 700, 850, 5);
        assertFalse(recorder.offer(queue, 6, 1_514, 820, 6));
        assertEquals(List.of(6L), recorder.droppedIds);
        assertEquals(List.of(DropReason.PRIORITY_DROP_ARRIVAL), recorder.dropReasons);
        assertEquals(2_914, queue.byteCount());
        assertEquals(List.of(1L, 4L, 5L, 2L, 3L), recorder.drain(queue));
    }

    @Test
    void neverEvictsAPacketAsUrgentAsTheArrival()
    {
        final PfabricQueue queue = queue(2 * FULL);
        recorder.offer(queue, 1, FULL, 300, 1);
        recorder.offer(queue, 2, FULL, 300, 2);
        assertFalse(recorder.offer(queue, 3, FULL, 300, 3));
        assertTrue(recorder.offer(queue, 4, FULL, 299, 4));
        assertEquals(List.of(3L, 2L), recorder.droppedIds);
        assertEquals(List.of(4L, 1L), recorder.drain(queue));
    }

    @Test
    void servesAckPriorityZeroAheadOfDataAndDropsItLast()
    {
        final PfabricQueue queue = queue(2 * FULL + 64);
        recorder.offer(queue, 1, FULL, 50_000, 1);
        recorder.offer(queue, 2, FULL, 40_000, 2);
        assertTrue(recorder.offer(queue, 3, 64, 0, 3));
        assertTrue(recorder.offer(queue, 4, 64, 0, 4));
        assertEquals(List.of(1L), recorder.droppedIds);
        assertEquals(List.of(3L, 4L, 2L), recorder.drain(queue));
    }

    @Test
    void saturatesPriorityNumbersToThirtyTwoBits()
    {
        final PfabricQueue queue = queue(2 * FULL);
        recorder.offer(queue, 1, FULL, Long.MAX_VALUE, 1);
        recorder.offer(queue, 2, FULL, QueueDiscipline.MAX_PRIORITY - 1, 2);
        assertFalse(recorder.offer(queue, 3, FULL, 1L << 40, 3));
        assertTrue(recorder.offer(queue, 4, FULL, -7, 4));
        assertEquals(List.of(3L, 1L), recorder.droppedIds);
        assertEquals(List.of(4L, 2L), recorder.drain(queue));
    }

    @ParameterizedTest
    @ValueSource(ints = { 24, 600 })
    void aFullBufferSendsInPriorityOrderAndEvictsOnlyTheLeastUrgent(final int frames)
    {
        final PfabricQueue queue = queue((long)frames * FULL);
        final Random random = new Random(frames);
        final List<Long> priorities = new ArrayList<>();
        for (int i = 0; i < frames; i++)
        {
            long priority;
            do
            {
                priority = 2 + random.nextInt(1_000_000);
            }
            while (priorities.contains(priority));
            priorities.add(priority);
            assertTrue(recorder.offer(queue, priority, FULL, priority, priority));
        }
        assertEquals((long)frames * FULL, queue.byteCount());
        final long max = priorities.stream().mapToLong(Long::longValue).max().orElseThrow();
        assertFalse(recorder.offer(queue, max + 1, FULL, max + 1, 0));
        assertTrue(recorder.offer(queue, 1, FULL, 1, 1));
        assertEquals(List.of(max + 1, max), recorder.droppedIds);
        priorities.remove(max);
        priorities.add(1L);
        priorities.sort(Long::compare);
        assertEquals(priorities, recorder.drain(queue));
        assertEquals(frames, queue.counters().get(QueueCounter.HIGH_WATER_PACKETS));
    }

    @Test
    void aLongFlowAndShortFlowsShareTheBufferBySrpt()
    {
        final PfabricQueue queue = queue(24 * FULL);
        long remaining = 100 * FULL;
        for (int i = 0; i < 20; i++)
        {
            recorder.offer(queue, 100 + i, FULL, remaining, 0x10);
            remaining -= FULL;
        }
        recorder.offer(queue, 200, FULL, 3 * FULL, 0x5);
        recorder.offer(queue, 201, FULL, 2 * FULL, 0x5);
        recorder.offer(queue, 202, FULL, FULL, 0x5);
        final List<Long> expected = new ArrayList<>(List.of(200L, 201L, 202L));
        for (int i = 0; i < 20; i++)
        {
            expected.add(100L + i);
        }
        assertEquals(expected, recorder.drain(queue));
    }
}
