package io.pfabric.dataplane.queue;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

class StrictPriorityQueueTest
{
    private final QueueRecorder recorder = new QueueRecorder();

    @Test
    void mapsPriorityNumbersToBandsAtTheThresholds()
    {
        final StrictPriorityQueue queue = new StrictPriorityQueue(36_000, new long[]{ 100, 1_000 });
        assertEquals(3, queue.bandCount());
        assertEquals(0, queue.band(0));
        assertEquals(0, queue.band(99));
        assertEquals(1, queue.band(100));
        assertEquals(1, queue.band(999));
        assertEquals(2, queue.band(1_000));
        assertEquals(2, queue.band(QueueDiscipline.MAX_PRIORITY));
    }

    @Test
    void servesTheMostUrgentNonEmptyBandFirstAndFifoWithinABand()
    {
        final StrictPriorityQueue queue = new StrictPriorityQueue(36_000, new long[]{ 100, 1_000 });
        recorder.offer(queue, 1, 500, 5_000, 1);
        recorder.offer(queue, 2, 500, 500, 2);
        recorder.offer(queue, 3, 500, 99_999, 3);
        recorder.offer(queue, 4, 500, 10, 4);
        recorder.offer(queue, 5, 500, 999, 5);
        recorder.offer(queue, 6, 500, 99, 6);
        assertEquals(List.of(4L, 6L, 2L, 5L, 1L, 3L), recorder.drain(queue));
    }

    @Test
    void tailDropsWhateverTheBandWhenTheSharedBufferIsFull()
    {
        final StrictPriorityQueue queue = new StrictPriorityQueue(3_000, new long[]{ 100 });
        queue.dropHandler(recorder);
        recorder.offer(queue, 1, 1_500, 5_000, 1);
        recorder.offer(queue, 2, 1_500, 5_000, 2);
        assertFalse(recorder.offer(queue, 3, 1_500, 0, 3));
        assertEquals(List.of(3L), recorder.droppedIds);
        assertEquals(List.of(DropReason.TAIL_DROP), recorder.dropReasons);
    }

    @Test
    void rejectsThresholdsThatDoNotIncrease()
    {
        assertThrows(IllegalArgumentException.class, () -> new StrictPriorityQueue(36_000, new long[]{ 100, 100 }));
    }
}
