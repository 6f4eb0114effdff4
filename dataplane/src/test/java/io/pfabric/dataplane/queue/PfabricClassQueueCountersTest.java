package io.pfabric.dataplane.queue;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Scripted arrivals into a queue with traffic classes and the exact per-class counts that must follow: frames and
 * bytes that left per class, the bytes that left while every class was backlogged, and the stretches of that.
 */
class PfabricClassQueueCountersTest
{
    private static final int FULL = 1500;
    private static final int MAX_FRAME = QueueDiscipline.DEFAULT_MAX_FRAME_LENGTH;
    private static final int CLASS_0 = 0;
    private static final int CLASS_1 = 8;

    private final QueueRecorder recorder = new QueueRecorder();

    @Test
    void framesCountAsBackloggedUntilAClassRunsOutAndEachFrameOnceInItsClass()
    {
        final PfabricClassQueue queue = recorder.classQueue(20_000, "3;1:8");
        for (int i = 1; i <= 7; i++)
        {
            recorder.offer(queue, i, FULL, 100, i, CLASS_0);
        }
        for (int i = 11; i <= 14; i++)
        {
            recorder.offer(queue, i, FULL, 1, i, CLASS_1);
        }
        assertEquals(List.of(1L, 2L, 3L, 11L, 4L, 5L, 6L, 12L, 7L, 13L, 14L), recorder.drain(queue));

        assertEquals(7, queue.departedFrames(0));
        assertEquals(4, queue.departedFrames(1));
        assertEquals(7L * FULL, queue.departedBytes(0));
        assertEquals(4L * FULL, queue.departedBytes(1));
        // Frame 7 empties class 0 while class 1 still holds 13 and 14: it counts; 13 and 14 leave alone.
        assertEquals(7L * FULL, queue.backloggedBytes(0));
        assertEquals(2L * FULL, queue.backloggedBytes(1));
        assertEquals(1, queue.backloggedStretches());
        assertEquals(queue.counters().get(QueueCounter.DEQUEUED_PACKETS),
            queue.departedFrames(0) + queue.departedFrames(1));
        assertEquals(queue.counters().get(QueueCounter.DEQUEUED_BYTES),
            queue.departedBytes(0) + queue.departedBytes(1));
    }

    @Test
    void anEvictionThatEmptiesAClassEndsTheStretch()
    {
        final PfabricClassQueue queue = recorder.classQueue(4_500, "3;1:8");
        recorder.offer(queue, 1, FULL, 10, 1, CLASS_0);
        recorder.offer(queue, 2, FULL, 20, 1, CLASS_0);
        recorder.offer(queue, 21, FULL, 10, 21, CLASS_1);
        assertEquals(1, recorder.take(queue));
        assertEquals(1, queue.backloggedStretches());

        // A frame that does not fit, of class 0 within its share of 3,375 B, pushes out class 1's only frame,
        // 375 B over its share of 1,125 B.
        recorder.offer(queue, 3, MAX_FRAME, 30, 3, CLASS_0);
        assertEquals(List.of(21L), recorder.droppedIds);
        assertEquals(List.of(DropReason.CLASS_SHARE_EVICTION), recorder.dropReasons);
        recorder.offer(queue, 22, 1_000, 10, 22, CLASS_1);
        assertEquals(List.of(2L, 3L, 22L), recorder.drain(queue));

        assertEquals(3, queue.departedFrames(0));
        assertEquals(1, queue.departedFrames(1));
        assertEquals(2L * FULL + MAX_FRAME, queue.departedBytes(0));
        assertEquals(1_000, queue.departedBytes(1));
        assertEquals(2L * FULL + MAX_FRAME, queue.backloggedBytes(0));
        assertEquals(0, queue.backloggedBytes(1));
        assertEquals(2, queue.backloggedStretches());
        assertEquals(0, queue.droppedFrames(0));
        assertEquals(1, queue.droppedFrames(1));
        assertEquals(queue.counters().get(QueueCounter.DEQUEUED_PACKETS),
            queue.departedFrames(0) + queue.departedFrames(1));
    }
}
