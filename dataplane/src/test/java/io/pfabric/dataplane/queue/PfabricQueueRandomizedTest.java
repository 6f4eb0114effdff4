package io.pfabric.dataplane.queue;

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
 * A million random operations on {@link PfabricQueue} and on {@link ReferencePfabricQueue}: the same departures and
 * the same drops, in the same order.
 */
class PfabricQueueRandomizedTest
{
    private static final int OPERATIONS = 1_000_000;

    @ParameterizedTest(name = "capacity {0} B, sequence bits {1}, structure {2}, seed {3}")
    @CsvSource({
        "36000, 32, SORTED, 1",
        "36000, 32, HEAPS, 1",
        "3000, 32, SORTED, 2",
        "3000, 32, HEAPS, 2",
        "120000, 32, SORTED, 3",
        "120000, 32, HEAPS, 3",
        "36000, 10, SORTED, 4",
        "36000, 10, HEAPS, 4" })
    void departuresAndDropsMatchTheReferenceModel(
        final long capacityLength, final int sequenceBits, final PfabricQueue.Structure structure, final long seed)
    {
        final List<String> actualDrops = new ArrayList<>();
        final List<String> expectedDrops = new ArrayList<>();
        final PfabricQueue queue = new PfabricQueue(capacityLength, 1514, sequenceBits, structure);
        queue.dropHandler((buffer, offset, length, reason) ->
            actualDrops.add(buffer.getLong(offset, ByteOrder.BIG_ENDIAN) + " " + reason));
        final ReferencePfabricQueue reference = new ReferencePfabricQueue(capacityLength, 1514,
            (buffer, offset, length, reason) ->
            expectedDrops.add(buffer.getLong(offset, ByteOrder.BIG_ENDIAN) + " " + reason));

        final SplittableRandom random = new SplittableRandom(seed);
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[1514]);
        final UnsafeBuffer actualOut = new UnsafeBuffer(new byte[1514]);
        final UnsafeBuffer expectedOut = new UnsafeBuffer(new byte[1514]);
        final long[] flowRemaining = new long[200];
        long departures = 0;

        for (long id = 0; id < OPERATIONS; id++)
        {
            final int dequeueBias = random.nextInt(100);
            if (dequeueBias < 45)
            {
                final int actualLength = queue.dequeue(actualOut, 0);
                final int expectedLength = reference.dequeue(expectedOut, 0);
                assertEquals(expectedLength, actualLength, "departure length at operation " + id);
                if (0 != actualLength)
                {
                    departures++;
                    assertEquals(expectedOut.getLong(0), actualOut.getLong(0), "departure at operation " + id);
                    assertEquals(expectedOut.getInt(actualLength - 4), actualOut.getInt(actualLength - 4));
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
            final long priority = switch (random.nextInt(5))
            {
                case 0 -> 0;
                case 1 -> random.nextInt(8);
                case 2 -> random.nextLong(1L << 33);
                default ->
                {
                    if (flowRemaining[flow] <= 0)
                    {
                        flowRemaining[flow] = 1 + random.nextLong(10_000_000);
                    }
                    flowRemaining[flow] -= 1460;
                    yield Math.max(flowRemaining[flow], 0);
                }
            };
            frame.putLong(0, id, ByteOrder.BIG_ENDIAN);
            frame.putInt(length - 4, (int)(id * 0x9E3779B9L));
            final boolean expected = reference.enqueue(frame, 0, length, priority, flow);
            final boolean actual = queue.enqueue(frame, 0, length, priority, flow);
            assertEquals(expected, actual, "admission at operation " + id);
            assertEquals(expectedDrops.size(), actualDrops.size(), "drop count at operation " + id);
            assertEquals(reference.byteCount(), queue.byteCount(), "bytes at operation " + id);
        }

        assertEquals(expectedDrops, actualDrops);
        assertEquals(reference.packetCount(), queue.packetCount());
        assertEquals(reference.rankInversions(), queue.counters().get(QueueCounter.RANK_INVERSION_PACKETS));
        assertTrue(reference.rankInversions() > 0, "starvation prevention sent frames ahead of more urgent ones");
        assertTrue(departures > OPERATIONS / 5, "departures " + departures);
        assertTrue(queue.counters().droppedPackets(DropReason.PRIORITY_EVICTION) > 1000,
            "evictions exercised");
        assertTrue(queue.counters().droppedPackets(DropReason.PRIORITY_DROP_ARRIVAL) > 1000,
            "arrival drops exercised");
    }
}
