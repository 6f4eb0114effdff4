package io.pfabric.dataplane.queue;

import io.pfabric.common.topology.TrafficClasses;
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
 * Random operations on {@link PfabricClassQueue} and on {@link ReferencePfabricClassQueue}: the same departures and
 * the same drops, in the same order.
 */
class PfabricClassQueueRandomizedTest
{
    private static final int OPERATIONS = 200_000;

    @ParameterizedTest(name = "capacity {0} B, classes {1}, seed {2}")
    @CsvSource(delimiter = '|', value = {
        "36000 | 3:0-7;1:8-15;2:16-23 | 1",
        "12000 | 1;1:8;1:16;1:24 | 2",
        "36000 | 1:0;7:1-63 | 3",
        "90000 | 1:0-7;1:8-15;1:16-23;1:24-31;1:32-39;1:40-47;1:48-55;1:56-63 | 4",
        "6000 | 5;1:8-63 | 5" })
    void departuresAndDropsMatchTheReferenceModel(final long capacityLength, final String spec, final long seed)
    {
        final TrafficClasses classes = TrafficClasses.parse(spec);
        final List<String> actualDrops = new ArrayList<>();
        final List<String> expectedDrops = new ArrayList<>();
        final PfabricClassQueue queue = new PfabricClassQueue(capacityLength, 1514, classes);
        queue.dropHandler((buffer, offset, length, reason) ->
            actualDrops.add(buffer.getLong(offset, ByteOrder.BIG_ENDIAN) + " " + reason));
        final ReferencePfabricClassQueue reference = new ReferencePfabricClassQueue(capacityLength, 1514, classes,
            (buffer, offset, length, reason) ->
            expectedDrops.add(buffer.getLong(offset, ByteOrder.BIG_ENDIAN) + " " + reason));

        final SplittableRandom random = new SplittableRandom(seed);
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[1514]);
        final UnsafeBuffer actualOut = new UnsafeBuffer(new byte[1514]);
        final UnsafeBuffer expectedOut = new UnsafeBuffer(new byte[1514]);
        final long[] flowRemaining = new long[100];
        final int[] flowDscp = new int[flowRemaining.length];
        for (int flow = 0; flow < flowDscp.length; flow++)
        {
            flowDscp[flow] = random.nextInt(TrafficClasses.DSCP_COUNT);
        }
        long departures = 0;

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
            final long priority = switch (random.nextInt(4))
            {
                case 0 -> random.nextInt(8);
                case 1 -> random.nextLong(1L << 33);
                default ->
                {
                    if (flowRemaining[flow] <= 0)
                    {
                        flowRemaining[flow] = 1 + random.nextLong(1_000_000);
                    }
                    flowRemaining[flow] -= 1460;
                    yield Math.max(flowRemaining[flow], 0);
                }
            };
            final int dscp = 0 == random.nextInt(10) ? random.nextInt(256) : flowDscp[flow];
            frame.putLong(0, id, ByteOrder.BIG_ENDIAN);
            final boolean expected = reference.enqueue(frame, 0, length, priority, flow, dscp);
            final boolean actual = queue.enqueue(frame, 0, length, length, priority, flow, dscp);
            assertEquals(expected, actual, "admission at operation " + id);
            assertEquals(expectedDrops.size(), actualDrops.size(), "drop count at operation " + id);
            assertEquals(reference.byteCount(), queue.byteCount(), "bytes at operation " + id);
        }

        assertEquals(expectedDrops, actualDrops);
        assertEquals(reference.packetCount(), queue.packetCount());
        assertTrue(departures > OPERATIONS / 5, "departures " + departures);
        for (final DropReason reason : new DropReason[]{
            DropReason.CLASS_SHARE_EVICTION, DropReason.PRIORITY_EVICTION, DropReason.PRIORITY_DROP_ARRIVAL })
        {
            assertTrue(queue.counters().droppedPackets(reason) > 100, reason + " exercised");
        }
    }
}
