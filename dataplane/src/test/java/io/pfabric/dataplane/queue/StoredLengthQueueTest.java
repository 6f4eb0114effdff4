package io.pfabric.dataplane.queue;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A queue whose slots hold only a frame's first bytes schedules, accounts and drops exactly as one that holds whole
 * frames, and refuses a frame with more to store than its slots hold.
 */
class StoredLengthQueueTest
{
    private static final int MAX_FRAME_LENGTH = 1_514;
    private static final int STORED_LENGTH = 16;
    private static final long CAPACITY_LENGTH = 36_000;

    @ParameterizedTest
    @EnumSource(DisciplineKind.class)
    void departsAndDropsAsAQueueOfWholeFrames(final DisciplineKind kind)
    {
        final QueueRecorder wholeDrops = new QueueRecorder();
        final QueueRecorder shortDrops = new QueueRecorder();
        final QueueDiscipline whole = kind.newQueue(CAPACITY_LENGTH, MAX_FRAME_LENGTH).dropHandler(wholeDrops);
        final QueueDiscipline stored =
            kind.newQueue(CAPACITY_LENGTH, MAX_FRAME_LENGTH, STORED_LENGTH).dropHandler(shortDrops);
        final SplittableRandom random = new SplittableRandom(7);
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[MAX_FRAME_LENGTH]);
        final UnsafeBuffer out = new UnsafeBuffer(new byte[MAX_FRAME_LENGTH]);
        final List<Long> wholeDepartures = new ArrayList<>();
        final List<Long> storedDepartures = new ArrayList<>();
        for (long id = 0; id < 20_000; id++)
        {
            final int length = random.nextBoolean() ? MAX_FRAME_LENGTH : 60 + random.nextInt(MAX_FRAME_LENGTH - 59);
            final long priority = random.nextLong(100_000_000);
            final long flowId = random.nextInt(40);
            frame.putLong(0, id, ByteOrder.BIG_ENDIAN);
            frame.putLong(8, flowId, ByteOrder.BIG_ENDIAN);
            assertEquals(whole.enqueue(frame, 0, length, priority, flowId),
                stored.enqueue(frame, 0, STORED_LENGTH, length, priority, flowId), "frame " + id);
            if (random.nextInt(3) == 0)
            {
                final int wholeLength = whole.dequeue(out, 0);
                wholeDepartures.add(out.getLong(0, ByteOrder.BIG_ENDIAN) * 10_000 + wholeLength);
                assertEquals(wholeLength, stored.dequeue(out, 0));
                storedDepartures.add(out.getLong(0, ByteOrder.BIG_ENDIAN) * 10_000 + wholeLength);
            }
            assertEquals(whole.byteCount(), stored.byteCount());
        }
        assertEquals(wholeDepartures, storedDepartures);
        assertEquals(wholeDrops.droppedIds, shortDrops.droppedIds);
        assertEquals(wholeDrops.dropReasons, shortDrops.dropReasons);
        assertTrue(wholeDrops.droppedIds.size() > 100, "the buffer overflowed: " + wholeDrops.droppedIds.size());
        for (final QueueCounter counter : QueueCounter.values())
        {
            assertEquals(whole.counters().get(counter), stored.counters().get(counter), counter.name());
        }
    }

    @ParameterizedTest
    @EnumSource(DisciplineKind.class)
    void dropsAFrameWithMoreToStoreThanItsSlotsHold(final DisciplineKind kind)
    {
        final QueueRecorder recorder = new QueueRecorder();
        final QueueDiscipline queue =
            kind.newQueue(CAPACITY_LENGTH, MAX_FRAME_LENGTH, STORED_LENGTH).dropHandler(recorder);
        assertFalse(queue.enqueue(recorder.frame(1, 100), 0, STORED_LENGTH + 1, 100, 5, 1));
        assertFalse(recorder.offer(queue, 2, 100, 5, 2), "a whole frame longer than a slot");
        assertTrue(recorder.offer(queue, 3, STORED_LENGTH, 5, 3), "a whole frame that fits a slot");
        assertEquals(List.of(1L, 2L), recorder.droppedIds);
        assertEquals(List.of(DropReason.BAD_LENGTH, DropReason.BAD_LENGTH), recorder.dropReasons);
        assertEquals(1, queue.packetCount());
        assertThrows(IllegalArgumentException.class, () -> kind.newQueue(CAPACITY_LENGTH, MAX_FRAME_LENGTH, 7));
        assertThrows(IllegalArgumentException.class,
            () -> kind.newQueue(CAPACITY_LENGTH, MAX_FRAME_LENGTH, MAX_FRAME_LENGTH + 1));
    }
}
