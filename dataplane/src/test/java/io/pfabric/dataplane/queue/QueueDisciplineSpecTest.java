package io.pfabric.dataplane.queue;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What every queue discipline must do when all frames have the same priority: hold at most its capacity in bytes,
 * send in arrival order, count everything.
 */
abstract class QueueDisciplineSpecTest
{
    static final long PRIORITY = 1_000;

    final QueueRecorder recorder = new QueueRecorder();

    abstract QueueDiscipline newQueue(long capacityLength, int maxFrameLength);

    abstract DropReason fullBufferDropReason();

    /**
     * Whether a frame may pass through an empty buffer: not for a discipline that learns from every arrival.
     */
    boolean passesThroughAnEmptyBuffer()
    {
        return true;
    }

    QueueDiscipline queue;

    @BeforeEach
    void setUp()
    {
        queue = newQueue(10_000, 1514).dropHandler(recorder);
    }

    @Test
    void holdsAtMostItsCapacityInBytesWithMixedFrameSizes()
    {
        final int[] lengths = { 1514, 60, 700, 1514, 1000, 1514, 333, 1514, 1200, 900, 64, 1514 };
        long expectedBytes = 0;
        int expectedPackets = 0;
        long expectedDrops = 0;
        for (int i = 0; i < lengths.length; i++)
        {
            final boolean fits = expectedBytes + lengths[i] <= 10_000;
            assertEquals(fits, recorder.offer(queue, i, lengths[i], PRIORITY, i % 3), "frame " + i);
            if (fits)
            {
                expectedBytes += lengths[i];
                expectedPackets++;
            }
            else
            {
                expectedDrops++;
            }
            assertEquals(expectedBytes, queue.byteCount());
            assertEquals(expectedPackets, queue.packetCount());
        }
        assertTrue(expectedDrops > 0);
        assertTrue(recorder.offer(queue, 99, (int)(10_000 - expectedBytes), PRIORITY, 7));
        assertEquals(10_000, queue.byteCount());
        assertFalse(recorder.offer(queue, 100, 60, PRIORITY, 7));
        assertEquals(expectedDrops + 1, queue.counters().droppedPackets(fullBufferDropReason()));
        assertEquals(expectedDrops + 1, queue.counters().droppedPackets());
        assertEquals(recorder.droppedIds.size(), expectedDrops + 1);
    }

    @Test
    void exactlyFullBufferAcceptsItsLastByte()
    {
        final QueueDiscipline small = newQueue(3 * 1000, 1000).dropHandler(recorder);
        assertTrue(recorder.offer(small, 1, 1000, PRIORITY, 1));
        assertTrue(recorder.offer(small, 2, 1000, PRIORITY, 2));
        assertTrue(recorder.offer(small, 3, 1000, PRIORITY, 3));
        assertFalse(recorder.offer(small, 4, 60, PRIORITY, 4));
        assertEquals(List.of(4L), recorder.droppedIds);
        assertEquals(List.of(fullBufferDropReason()), recorder.dropReasons);
    }

    @Test
    void sendsEqualPrioritiesInArrivalOrderAcrossFlows()
    {
        for (int i = 0; i < 8; i++)
        {
            assertTrue(recorder.offer(queue, i, 60 + 100 * i, PRIORITY, 7 - (i % 4)));
        }
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L), recorder.drain(queue));
        assertTrue(queue.isEmpty());
        assertEquals(0, queue.byteCount());
    }

    @Test
    void returnsZeroWhenEmpty()
    {
        assertEquals(-1, recorder.take(queue));
        assertTrue(recorder.offer(queue, 5, 100, PRIORITY, 1));
        assertEquals(5, recorder.take(queue));
        assertEquals(-1, recorder.take(queue));
    }

    @Test
    void handsTheNextFrameToAHandlerWithoutCopying()
    {
        recorder.offer(queue, 1, 700, PRIORITY, 1);
        recorder.offer(queue, 2, 300, PRIORITY, 2);
        final long[] seen = new long[2];
        final int length = queue.dequeue((buffer, offset, frameLength) ->
        {
            seen[0] = buffer.getLong(offset, java.nio.ByteOrder.BIG_ENDIAN);
            seen[1] = frameLength;
        });
        assertEquals(700, length);
        assertEquals(1, seen[0]);
        assertEquals(700, seen[1]);
        assertEquals(300, queue.byteCount());
        assertEquals(1, queue.counters().get(QueueCounter.DEQUEUED_PACKETS));
        assertEquals(List.of(2L), recorder.drain(queue));
        assertEquals(0, queue.dequeue((buffer, offset, frameLength) -> seen[0] = -1));
        assertEquals(1, seen[0]);
    }

    @Test
    void countsEveryFrameAndByteAndTheHighWater()
    {
        recorder.offer(queue, 1, 1000, PRIORITY, 1);
        recorder.offer(queue, 2, 500, PRIORITY, 2);
        recorder.take(queue);
        recorder.offer(queue, 3, 200, PRIORITY, 3);
        final QueueCounters counters = queue.counters();
        assertEquals(3, counters.get(QueueCounter.ENQUEUED_PACKETS));
        assertEquals(1700, counters.get(QueueCounter.ENQUEUED_BYTES));
        assertEquals(1, counters.get(QueueCounter.DEQUEUED_PACKETS));
        assertEquals(1000, counters.get(QueueCounter.DEQUEUED_BYTES));
        assertEquals(1500, counters.get(QueueCounter.HIGH_WATER_BYTES));
        assertEquals(2, counters.get(QueueCounter.HIGH_WATER_PACKETS));
        assertEquals(0, counters.droppedPackets());
    }

    @Test
    void dropsFramesOfBadLengthWithoutTouchingTheBuffer()
    {
        recorder.offer(queue, 1, 100, PRIORITY, 1);
        assertFalse(recorder.offer(queue, 2, 0, PRIORITY, 1));
        assertFalse(recorder.offer(queue, 3, -5, PRIORITY, 1));
        assertFalse(recorder.offer(queue, 4, 1515, PRIORITY, 1));
        assertEquals(3, queue.counters().droppedPackets(DropReason.BAD_LENGTH));
        assertEquals(1515, queue.counters().get(QueueCounter.BAD_LENGTH_BYTES));
        assertEquals(1, queue.packetCount());
        assertEquals(100, queue.byteCount());
        assertEquals(List.of(1L), recorder.drain(queue));
    }

    @Test
    void reportsTheDroppedFramesBytesToTheHandler()
    {
        final QueueDiscipline small = newQueue(1514, 1514).dropHandler(recorder);
        recorder.offer(small, 41, 1514, PRIORITY, 1);
        recorder.offer(small, 42, 1514, PRIORITY, 1);
        assertEquals(List.of(42L), recorder.droppedIds);
        assertEquals(1514, small.counters().get(QueueCounter.dropBytes(fullBufferDropReason())));
    }

    @Test
    void accountsAFrameStoredShortAtItsWholeLength()
    {
        final QueueDiscipline small = newQueue(3 * 1000, 1000).dropHandler(recorder);
        assertTrue(small.enqueue(recorder.frame(1, 1000), 0, 16, 1000, PRIORITY, 1));
        assertTrue(small.enqueue(recorder.frame(2, 1000), 0, 16, 1000, PRIORITY, 2));
        assertEquals(2000, small.byteCount());
        assertTrue(small.enqueue(recorder.frame(3, 1000), 0, 16, 1000, PRIORITY, 3));
        assertFalse(small.enqueue(recorder.frame(4, 60), 0, 16, 60, PRIORITY, 4));
        assertEquals(List.of(4L), recorder.droppedIds);
        assertFalse(small.enqueue(recorder.frame(5, 60), 0, 61, 60, PRIORITY, 5));
        assertEquals(1, small.counters().droppedPackets(DropReason.BAD_LENGTH));
        final UnsafeBuffer out = new UnsafeBuffer(new byte[1000]);
        out.setMemory(0, 1000, (byte)-1);
        assertEquals(1000, small.dequeue(out, 0));
        assertEquals(1L, out.getLong(0, java.nio.ByteOrder.BIG_ENDIAN));
        assertEquals((byte)31, out.getByte(15));
        assertEquals((byte)-1, out.getByte(16), "only the stored bytes are copied out");
        final long[] seen = new long[2];
        assertEquals(1000, small.dequeue((buffer, offset, frameLength) ->
        {
            seen[0] = buffer.getLong(offset, java.nio.ByteOrder.BIG_ENDIAN);
            seen[1] = frameLength;
        }));
        assertEquals(2, seen[0]);
        assertEquals(1000, seen[1]);
        assertEquals(1000, small.byteCount());
        assertEquals(3000, small.counters().get(QueueCounter.ENQUEUED_BYTES));
        assertEquals(2000, small.counters().get(QueueCounter.DEQUEUED_BYTES));
    }

    @Test
    void passesAFrameThroughAnEmptyBufferCountingItAsEnqueuedAndDequeued()
    {
        final QueueDiscipline passed = newQueue(10_000, 1514);
        final QueueDiscipline offered = newQueue(10_000, 1514);
        if (!passesThroughAnEmptyBuffer())
        {
            assertFalse(passed.passThrough(1000), "it sees every arrival");
            assertEquals(0, passed.counters().get(QueueCounter.ENQUEUED_PACKETS));
            return;
        }
        assertTrue(passed.passThrough(1000));
        assertTrue(offered.enqueue(recorder.frame(1, 1000), 0, 1000, PRIORITY, 1));
        assertEquals(1, recorder.take(offered));
        for (final QueueCounter counter : QueueCounter.values())
        {
            assertEquals(offered.counters().get(counter), passed.counters().get(counter), counter.name());
        }
        assertTrue(passed.isEmpty());
        assertTrue(passed.enqueue(recorder.frame(2, 100), 0, 100, PRIORITY, 2));
        assertFalse(passed.passThrough(100), "not through a buffer that holds a frame");
        assertFalse(newQueue(10_000, 1514).passThrough(1515), "not a frame of bad length");
        assertEquals(List.of(2L), recorder.drain(passed));
    }

    @Test
    void allocatesNothingAfterConstruction()
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final QueueDiscipline big = newQueue(36_000, 1514);
        final Random random = new Random(7);
        final UnsafeBuffer frame = recorder.frame(1, 1514);
        final UnsafeBuffer out = new UnsafeBuffer(new byte[2048]);
        final int[] lengths = new int[4096];
        final long[] priorities = new long[4096];
        final long[] flows = new long[4096];
        for (int i = 0; i < lengths.length; i++)
        {
            lengths[i] = 60 + random.nextInt(1455);
            priorities[i] = random.nextInt(1 << 20);
            flows[i] = random.nextInt(64);
        }
        final List<Long> allocatedByRound = new ArrayList<>();
        int quietRounds = 0;
        for (int round = 0; round < 10 && quietRounds < 2; round++)
        {
            final long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 200_000; i++)
            {
                final int j = i & 4095;
                big.enqueue(frame, 0, lengths[j], priorities[j], flows[j]);
                if (0 != (i & 3))
                {
                    big.dequeue(out, 0);
                }
            }
            final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            allocatedByRound.add(allocated);
            quietRounds = round > 0 && 0 == allocated ? quietRounds + 1 : 0;
        }
        assertEquals(2, quietRounds, () -> "two rounds of 200,000 enqueues and 150,000 dequeues in a row allocate " +
            "nothing once the JIT has settled; bytes by round: " + allocatedByRound);
    }
}
