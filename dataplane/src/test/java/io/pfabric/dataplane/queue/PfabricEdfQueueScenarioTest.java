package io.pfabric.dataplane.queue;

import io.pfabric.common.wire.PfabricHeaderFlyweight;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Scripted arrivals into pFabric-EDF's queue and the exact departures and drops that must follow.
 */
class PfabricEdfQueueScenarioTest
{
    private static final int FULL = 1500;
    private static final int DL = PfabricHeaderFlyweight.FLAG_DEADLINE;

    private final QueueRecorder recorder = new QueueRecorder();

    private PfabricEdfQueue queue(final long capacityLength)
    {
        final PfabricEdfQueue queue = new PfabricEdfQueue(capacityLength, 1514, 1514);
        queue.dropHandler(recorder);
        return queue;
    }

    private boolean offer(final QueueDiscipline queue, final long id, final long priority, final long flowId,
        final int flags)
    {
        return queue.enqueue(recorder.frame(id, FULL), 0, FULL, FULL, priority, flowId, 0, flags);
    }

    @Test
    void deadlineFramesLeaveBeforeAllOthersWhateverTheirNumbers()
    {
        final PfabricEdfQueue queue = queue(72_000);
        offer(queue, 1, 10, 0xA, 0);
        offer(queue, 2, 9_000_000, 0xB, DL);
        offer(queue, 3, 5, 0xC, 0);
        offer(queue, 4, 8_000_000, 0xD, DL);
        assertEquals(List.of(4L, 2L, 3L, 1L), recorder.drain(queue));
    }

    @Test
    void withinTheDeadlineQueueTheEarliestDeadlineFlowSendsItsEarliestFrame()
    {
        final PfabricEdfQueue queue = queue(72_000);
        offer(queue, 1, 700, 0xA, DL);
        offer(queue, 2, 500, 0xB, DL);
        offer(queue, 3, 400, 0xA, DL);
        assertEquals(List.of(1L, 3L, 2L), recorder.drain(queue));
    }

    @Test
    void acksAndControlFramesOfPriorityZeroGoWithTheDeadlines()
    {
        assertEquals(PfabricEdfQueue.DEADLINE_QUEUE, PfabricEdfQueue.queueOf(0, 0));
        assertEquals(PfabricEdfQueue.DEADLINE_QUEUE, PfabricEdfQueue.queueOf(77, DL));
        assertEquals(PfabricEdfQueue.OTHER_QUEUE, PfabricEdfQueue.queueOf(1, 0));
        assertEquals(PfabricEdfQueue.OTHER_QUEUE, PfabricEdfQueue.queueOf(1, PfabricHeaderFlyweight.FLAG_FIN));
        final PfabricEdfQueue queue = queue(72_000);
        offer(queue, 1, 3, 0xA, DL);
        offer(queue, 2, 0, 0xB, 0);
        assertEquals(List.of(2L, 1L), recorder.drain(queue));
    }

    @Test
    void eachQueueHasHalfTheBufferAndAFullOneDropsWithinItselfOnly()
    {
        final PfabricEdfQueue queue = queue(6 * FULL);
        assertEquals(3 * FULL, queue.queueLength());
        assertTrue(offer(queue, 1, 100, 0xA, 0));
        assertTrue(offer(queue, 2, 200, 0xB, 0));
        assertTrue(offer(queue, 3, 300, 0xC, 0));
        assertFalse(offer(queue, 4, 400, 0xD, 0), "the other queue is full; its arrival is its least urgent");
        assertTrue(offer(queue, 5, 50, 0xE, 0), "a more urgent arrival evicts the other queue's least urgent");
        assertEquals(List.of(4L, 3L), recorder.droppedIds);
        assertEquals(List.of(DropReason.PRIORITY_DROP_ARRIVAL, DropReason.PRIORITY_EVICTION), recorder.dropReasons);
        assertTrue(offer(queue, 6, 9_000_000, 0xF, DL), "the deadline queue's half is still free");
        assertTrue(offer(queue, 7, 8_000_000, 0x10, DL));
        assertTrue(offer(queue, 8, 7_000_000, 0x11, DL));
        assertEquals(6 * FULL, queue.byteCount());
        assertTrue(offer(queue, 9, 1_000, 0x12, DL), "evicts the deadline queue's latest deadline, frame 6");
        assertFalse(offer(queue, 10, 500, 0x13, 0), "the other queue's arrival finds nothing less urgent there");
        assertEquals(List.of(4L, 3L, 6L, 10L), recorder.droppedIds);
        assertEquals(3 * FULL, queue.queueByteCount(PfabricEdfQueue.DEADLINE_QUEUE));
        assertEquals(3, queue.queuePacketCount(PfabricEdfQueue.OTHER_QUEUE));
        assertEquals(List.of(9L, 8L, 7L, 5L, 1L, 2L), recorder.drain(queue));
        assertEquals(4, queue.counters().droppedPackets());
    }

    @Test
    void aDemotedDeadlineFlowLeavesTheDeadlineQueueAtTheLeastUrgentPriority()
    {
        final PfabricEdfQueue queue = queue(72_000);
        offer(queue, 1, PfabricHeaderFlyweight.MAX_PRIORITY, 0xA, 0);
        offer(queue, 2, 1_000_000, 0xB, 0);
        offer(queue, 3, 900, 0xC, DL);
        assertEquals(List.of(3L, 2L, 1L), recorder.drain(queue));
    }

    @Test
    void theDisciplineIsNamedAndBuiltByKind()
    {
        final QueueDiscipline queue = DisciplineKind.byName("pfabric-edf").newQueue(72_000, 1514);
        assertEquals("pfabric-edf", queue.name());
        assertEquals(72_000, DisciplineKind.PFABRIC_EDF.defaultCapacityLength());
        assertEquals(36_000, ((PfabricEdfQueue)queue).queueLength());
        assertThrows(IllegalArgumentException.class, () -> new PfabricEdfQueue(2_000, 1514, 1514));
    }
}
