package io.pfabric.dataplane.queue;

import io.pfabric.common.wire.PfabricHeaderFlyweight;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Random operations on {@link PfabricEdfQueue} and on {@link ReferencePfabricEdfQueue}, deadline frames, ACKs and
 * other frames mixed: the same departures and the same drops, in the same order.
 */
class PfabricEdfQueueRandomizedTest
{
    private static final int OPERATIONS = 400_000;

    @ParameterizedTest(name = "capacity {0} B, seed {1}")
    @CsvSource({ "72000, 1", "6000, 2", "240000, 3" })
    void departuresAndDropsMatchTheReferenceModel(final long capacityLength, final long seed)
    {
        final List<String> actualDrops = new ArrayList<>();
        final List<String> expectedDrops = new ArrayList<>();
        final PfabricEdfQueue queue = new PfabricEdfQueue(capacityLength, 1514, 1514);
        queue.dropHandler((buffer, offset, length, reason) ->
            actualDrops.add(buffer.getLong(offset, ByteOrder.BIG_ENDIAN) + " " + reason));
        final ReferencePfabricEdfQueue reference = new ReferencePfabricEdfQueue(capacityLength, 1514,
            (buffer, offset, length, reason) ->
            expectedDrops.add(buffer.getLong(offset, ByteOrder.BIG_ENDIAN) + " " + reason));

        final SplittableRandom random = new SplittableRandom(seed);
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[1514]);
        final UnsafeBuffer actualOut = new UnsafeBuffer(new byte[1514]);
        final UnsafeBuffer expectedOut = new UnsafeBuffer(new byte[1514]);
        final long[] flowRemaining = new long[200];
        final long[] flowDeadlineUs = new long[200];
        long departures = 0;
        long deadlineFrames = 0;

        for (long id = 0; id < OPERATIONS; id++)
        {
            if (random.nextInt(100) < 45)
            {
                final int actualLength = queue.dequeue(actualOut, 0);
                final int expectedLength = reference.dequeue(expectedOut, 0);
                assertEquals(expectedLength, actualLength, "departure length at operation " + id);
                if (0 != actualLength)
                {
                    departures++;
                    assertEquals(expectedOut.getLong(0), actualOut.getLong(0), "departure at operation " + id);
                }
                continue;
            }
            final int length = switch (random.nextInt(4))
            {
                case 0 -> 64;
                case 1 -> 1514;
                default -> 60 + random.nextInt(1455);
            };
            final int flow = random.nextInt(flowRemaining.length);
            final boolean deadlineFlow = flow < 80;
            int flags = random.nextInt(8) & PfabricHeaderFlyweight.FLAG_FIN;
            final long priority;
            if (0 == random.nextInt(6))
            {
                priority = 0;
            }
            else if (deadlineFlow && 0 != random.nextInt(10))
            {
                if (0 == flowDeadlineUs[flow] || 0 == random.nextInt(50))
                {
                    flowDeadlineUs[flow] = 1 + random.nextLong(1L << 20);
                }
                priority = flowDeadlineUs[flow];
                flags |= PfabricHeaderFlyweight.FLAG_DEADLINE;
                deadlineFrames++;
            }
            else if (deadlineFlow)
            {
                priority = PfabricHeaderFlyweight.MAX_PRIORITY;
            }
            else
            {
                if (flowRemaining[flow] <= 0)
                {
                    flowRemaining[flow] = 1 + random.nextLong(10_000_000);
                }
                flowRemaining[flow] -= 1460;
                priority = Math.max(flowRemaining[flow], 1);
            }
            frame.putLong(0, id, ByteOrder.BIG_ENDIAN);
            final boolean expected = reference.enqueue(frame, 0, length, priority, flow, flags);
            final boolean actual = queue.enqueue(frame, 0, length, length, priority, flow, 0, flags);
            assertEquals(expected, actual, "admission at operation " + id);
            assertEquals(expectedDrops.size(), actualDrops.size(), "drop count at operation " + id);
            assertEquals(reference.byteCount(), queue.byteCount(), "bytes at operation " + id);
        }

        assertEquals(expectedDrops, actualDrops);
        assertEquals(reference.packetCount(), queue.packetCount());
        assertTrue(departures > OPERATIONS / 5, "departures " + departures);
        assertTrue(deadlineFrames > OPERATIONS / 10, "deadline frames " + deadlineFrames);
        assertTrue(queue.counters().droppedPackets(DropReason.PRIORITY_EVICTION) > 1000, "evictions exercised");
        assertTrue(queue.counters().droppedPackets(DropReason.PRIORITY_DROP_ARRIVAL) > 1000,
            "arrival drops exercised");
    }
}
