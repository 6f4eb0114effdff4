package io.pfabric.dataplane.queue;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Scripted arrivals into a queue with traffic classes and the exact departures and drops that must follow: deficit
 * round robin between the classes, pFabric inside each, and the shared buffer's rule.
 */
class PfabricClassQueueScenarioTest
{
    private static final int FULL = 1500;
    private static final int MAX_FRAME = QueueDiscipline.DEFAULT_MAX_FRAME_LENGTH;
    private static final int CLASS_0 = 0;
    private static final int CLASS_1 = 8;
    private static final int CLASS_2 = 16;

    private final QueueRecorder recorder = new QueueRecorder();

    @Test
    void equalWeightsAlternateFrameByFrameWithPfabricsOrderInsideEachClass()
    {
        final PfabricClassQueue queue = recorder.classQueue(36_000, "1;1:8");
        recorder.offer(queue, 1, FULL, 50, 0xA, CLASS_0);
        recorder.offer(queue, 2, FULL, 10, 0xB, CLASS_1);
        recorder.offer(queue, 3, FULL, 20, 0xC, CLASS_0);
        recorder.offer(queue, 4, FULL, 30, 0xD, CLASS_1);
        recorder.offer(queue, 5, FULL, 5, 0xE, CLASS_1);
        recorder.offer(queue, 6, FULL, 40, 0xF, CLASS_0);
        assertEquals(List.of(3L, 5L, 6L, 2L, 1L, 4L), recorder.drain(queue));
    }

    @Test
    void aClassOfWeightThreeSendsThreeFullFramesPerTurnAgainstOne()
    {
        final PfabricClassQueue queue = recorder.classQueue(20_000, "3;1:8");
        for (int i = 1; i <= 7; i++)
        {
            assertTrue(recorder.offer(queue, i, FULL, 100, i, CLASS_0));
        }
        for (int i = 11; i <= 14; i++)
        {
            assertTrue(recorder.offer(queue, i, FULL, 1, i, CLASS_1));
        }
        assertEquals(4542, queue.quantumLength(0));
        assertEquals(1514, queue.quantumLength(1));
        assertEquals(List.of(1L, 2L, 3L, 11L, 4L, 5L, 6L, 12L, 7L, 13L, 14L), recorder.drain(queue));
    }

    @Test
    void aClassThatBecomesBackloggedJoinsTheRoundBehindTheOthers()
    {
        final PfabricClassQueue queue = recorder.classQueue(36_000, "1;1:8;1:16");
        recorder.offer(queue, 1, FULL, 10, 1, CLASS_0);
        recorder.offer(queue, 2, FULL, 10, 2, CLASS_0);
        recorder.offer(queue, 31, FULL, 10, 31, CLASS_2);
        assertEquals(1, recorder.take(queue));
        recorder.offer(queue, 21, FULL, 10, 21, CLASS_1);
        recorder.offer(queue, 22, FULL, 10, 22, CLASS_1);
        assertEquals(List.of(31L, 21L, 2L, 22L), recorder.drain(queue));
    }

    @Test
    void aFlowsEarliestFrameLeavesFirstWithinItsClass()
    {
        final PfabricClassQueue queue = recorder.classQueue(36_000, "1;1:8");
        recorder.offer(queue, 10, FULL, 0, 0xA, CLASS_0);
        recorder.offer(queue, 1, FULL, 900, 0xA, CLASS_1);
        recorder.offer(queue, 2, FULL, 500, 0xB, CLASS_1);
        recorder.offer(queue, 3, FULL, 100, 0xA, CLASS_1);
        recorder.offer(queue, 4, FULL, 500, 0xC, CLASS_1);
        assertEquals(List.of(10L, 1L, 3L, 2L, 4L), recorder.drain(queue));
    }

    @Test
    void anArrivalWithinItsSharePushesOutAnotherClassAndBeyondItMeetsPfabricsRuleInItsOwnClass()
    {
        final PfabricClassQueue queue = recorder.classQueue(6_000, "1;1:8");
        assertEquals(3_000, queue.shareLength(0));
        for (int i = 1; i <= 4; i++)
        {
            assertTrue(recorder.offer(queue, i, FULL, 10 * i, i, CLASS_0));
        }
        assertTrue(recorder.offer(queue, 11, FULL, 1_000_000, 11, CLASS_1), "within its share, whatever priority");
        assertTrue(recorder.offer(queue, 12, FULL, 1_000_000, 12, CLASS_1), "exactly at its share");
        assertTrue(recorder.offer(queue, 13, FULL, 500, 13, CLASS_1), "beyond: evicts its own class's least urgent");
        assertFalse(recorder.offer(queue, 14, FULL, 2_000_000, 14, CLASS_1), "beyond, and least urgent of its class");
        assertTrue(recorder.offer(queue, 5, FULL, 1, 5, CLASS_0), "beyond its share: evicts in its own class");
        assertEquals(List.of(4L, 3L, 12L, 14L, 2L), recorder.droppedIds);
        assertEquals(List.of(DropReason.CLASS_SHARE_EVICTION, DropReason.CLASS_SHARE_EVICTION,
            DropReason.PRIORITY_EVICTION, DropReason.PRIORITY_DROP_ARRIVAL, DropReason.PRIORITY_EVICTION),
            recorder.dropReasons);
        assertEquals(2, queue.counters().droppedPackets(DropReason.CLASS_SHARE_EVICTION));
        assertEquals(3_000, queue.counters().get(QueueCounter.CLASS_SHARE_EVICTION_BYTES));
        assertEquals(3_000, queue.classByteCount(0));
        assertEquals(3_000, queue.classByteCount(1));
        assertEquals(6_000, queue.byteCount());
        assertEquals(List.of(5L, 13L, 1L, 11L), recorder.drain(queue));
    }

    @Test
    void theClassFurthestOverItsShareLosesItsLeastUrgentFrameNewestFirst()
    {
        final PfabricClassQueue queue = recorder.classQueue(9_000, "1;1:8;1:16");
        recorder.offer(queue, 1, FULL, 5, 1, CLASS_0);
        recorder.offer(queue, 2, FULL, 6, 2, CLASS_0);
        recorder.offer(queue, 11, FULL, 10, 11, CLASS_1);
        recorder.offer(queue, 12, FULL, 40, 12, CLASS_1);
        recorder.offer(queue, 13, FULL, 40, 13, CLASS_1);
        recorder.offer(queue, 14, FULL, 20, 14, CLASS_1);
        assertTrue(recorder.offer(queue, 21, FULL, 100, 21, CLASS_2));
        assertTrue(recorder.offer(queue, 22, FULL, 100, 22, CLASS_2));
        assertFalse(recorder.offer(queue, 23, FULL, 100, 23, CLASS_2));
        assertTrue(recorder.offer(queue, 3, FULL, 1, 3, CLASS_0));
        assertEquals(List.of(13L, 12L, 23L, 2L), recorder.droppedIds);
        assertEquals(List.of(3_000L, 3_000L, 3_000L),
            List.of(queue.classByteCount(0), queue.classByteCount(1), queue.classByteCount(2)));
        assertEquals(List.of(3L, 11L, 21L, 1L, 14L, 22L), recorder.drain(queue));
    }

    @Test
    void mapsEachDscpToItsClassAndUnlistedOnesToClassZero()
    {
        final PfabricClassQueue queue = recorder.classQueue(36_000, "3:0-7;1:8-15,46");
        assertEquals(0, queue.classOf(0));
        assertEquals(0, queue.classOf(7));
        assertEquals(1, queue.classOf(8));
        assertEquals(1, queue.classOf(15));
        assertEquals(1, queue.classOf(46));
        assertEquals(0, queue.classOf(16));
        assertEquals(0, queue.classOf(63));
        recorder.offer(queue, 1, 100, 1, 1, 46);
        recorder.offer(queue, 2, 100, 1, 2, 8 | 64);
        recorder.offer(queue, 3, 100, 1, 3, 20);
        recorder.offer(queue, 4, 100, 1, 4);
        assertEquals(2, queue.classPacketCount(1));
        assertEquals(2, queue.classPacketCount(0));
    }

    @Test
    void allocatesNothingAfterConstructionWithFramesOfEveryClass()
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)java.lang.management.ManagementFactory.getThreadMXBean();
        final PfabricClassQueue queue = recorder.classQueue(36_000, "1:0-7;2:8-15;3:16-23;1:24-31");
        final SplittableRandom random = new SplittableRandom(7);
        final UnsafeBuffer frame = recorder.frame(1, MAX_FRAME);
        final UnsafeBuffer out = new UnsafeBuffer(new byte[2048]);
        final int[] lengths = new int[4096];
        final long[] priorities = new long[4096];
        final int[] dscps = new int[4096];
        for (int i = 0; i < lengths.length; i++)
        {
            lengths[i] = 60 + random.nextInt(MAX_FRAME - 59);
            priorities[i] = random.nextInt(1 << 20);
            dscps[i] = random.nextInt(32);
        }
        final List<Long> allocatedByRound = new ArrayList<>();
        int quietRounds = 0;
        for (int round = 0; round < 10 && quietRounds < 2; round++)
        {
            final long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 200_000; i++)
            {
                final int j = i & 4095;
                queue.enqueue(frame, 0, lengths[j], lengths[j], priorities[j], j & 63, dscps[j]);
                if (0 != (i & 3))
                {
                    queue.dequeue(out, 0);
                }
            }
            final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            allocatedByRound.add(allocated);
            quietRounds = round > 0 && 0 == allocated ? quietRounds + 1 : 0;
        }
        assertTrue(queue.counters().droppedPackets(DropReason.CLASS_SHARE_EVICTION) > 0);
        assertEquals(2, quietRounds, () -> "bytes allocated by round: " + allocatedByRound);
    }

    @Test
    void eachTurnSendsTheClassesQuantumWithinOneLongestFrame()
    {
        final int[] weights = { 5, 2, 1 };
        final PfabricClassQueue queue = recorder.classQueue(200 * MAX_FRAME, "5;2:8;1:16");
        final SplittableRandom random = new SplittableRandom(17);
        final UnsafeBuffer out = new UnsafeBuffer(new byte[MAX_FRAME]);
        long id = 0;
        for (int k = 0; k < weights.length; k++)
        {
            for (int i = 0; i < 20; i++)
            {
                assertTrue(queue.enqueue(recorder.frame(k, 60), 0, 8, 60 + random.nextInt(MAX_FRAME - 59),
                    random.nextInt(1000), id++, 8 * k));
            }
        }
        final List<int[]> turns = new ArrayList<>();
        final long[] sentLength = new long[weights.length];
        for (int departure = 0; departure < 20_000; departure++)
        {
            final int length = queue.dequeue(out, 0);
            final int trafficClass = (int)out.getLong(0, ByteOrder.BIG_ENDIAN);
            sentLength[trafficClass] += length;
            if (turns.isEmpty() || turns.get(turns.size() - 1)[0] != trafficClass)
            {
                turns.add(new int[]{ trafficClass, 0 });
            }
            turns.get(turns.size() - 1)[1] += length;
            assertTrue(queue.enqueue(recorder.frame(trafficClass, 60), 0, 8, 60 + random.nextInt(MAX_FRAME - 59),
                random.nextInt(1000), id++, 8 * trafficClass));
        }
        assertEquals(0, queue.counters().droppedPackets());
        for (int i = 1; i < turns.size() - 1; i++)
        {
            final int trafficClass = turns.get(i)[0];
            assertEquals((trafficClass + 1) % weights.length, turns.get(i + 1)[0], "round robin at turn " + i);
            final long quantum = (long)weights[trafficClass] * MAX_FRAME;
            assertTrue(Math.abs(turns.get(i)[1] - quantum) < MAX_FRAME,
                "turn " + i + " of class " + trafficClass + " sent " + turns.get(i)[1] + " B, quantum " + quantum);
        }
        for (int k = 1; k < weights.length; k++)
        {
            final double perWeight0 = (double)sentLength[0] / weights[0];
            final double perWeightK = (double)sentLength[k] / weights[k];
            assertTrue(Math.abs(perWeight0 - perWeightK) < 3 * MAX_FRAME,
                "bytes per unit weight, class 0 " + perWeight0 + " and class " + k + " " + perWeightK);
        }
    }
}
