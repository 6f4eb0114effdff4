package io.pfabric.dataplane.queue;

import io.pfabric.common.topology.DisciplineSpec;
import io.pfabric.common.topology.TrafficClasses;
import io.pfabric.common.wire.EthernetFlyweight;
import io.pfabric.common.wire.Ipv4Flyweight;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Scripted arrivals and the exact departures, drops, bounds, marks and rank inversions of the commodity-switch
 * disciplines.
 */
class CommodityQueueScenarioTest
{
    private final QueueRecorder recorder = new QueueRecorder();

    @Test
    void strictQueuesTakeTheirReserveAndThenTheSharedRoomFirstComeFirstServed()
    {
        final StrictPriorityQueue queue =
            new StrictPriorityQueue(6_000, 1514, 1514, new long[]{ 100 }, 1_500);
        queue.dropHandler(recorder);
        for (long id = 1; id <= 5; id++)
        {
            assertEquals(id <= 4, recorder.offer(queue, id, 1_000, 500, 1), "low " + id);
        }
        assertEquals(4_000, queue.bandLength(1));
        assertTrue(recorder.offer(queue, 6, 500, 500, 1), "the low queue's last 500 bytes of shared room");
        assertFalse(recorder.offer(queue, 7, 100, 500, 1), "the shared room is gone");
        assertTrue(recorder.offer(queue, 8, 1_000, 10, 2), "the high queue's reserve is still its own");
        assertFalse(recorder.offer(queue, 9, 1_000, 10, 2), "beyond its reserve, with nothing shared left");
        assertEquals(List.of(5L, 7L, 9L), recorder.droppedIds);
        assertEquals(8L, recorder.take(queue), "the high queue sends first");
        assertEquals(1L, recorder.take(queue));
        assertTrue(recorder.offer(queue, 10, 1_000, 500, 1), "a departure from the low queue freed shared room");
        assertEquals(List.of(2L, 3L, 4L, 6L, 10L), recorder.drain(queue));
    }

    @Test
    void aStrictPortOfThePapersBufferReservesFifteenKilobytesPerQueue()
    {
        final BandQueue queue = (BandQueue)DisciplineKind.newQueue(DisciplineSpec.parse("strict:4:1000,2000,3000"), 0,
            1514, 1514, TrafficClasses.DEFAULT);
        assertEquals(225_000, queue.capacityLength());
        assertEquals(15_000, queue.reservedLength());
        assertEquals(4, queue.bandCount());
        assertArrayEquals(new long[]{ 1000, 2000, 3000 }, ((StrictPriorityQueue)queue).thresholds());
        final BandQueue small = (BandQueue)DisciplineKind.newQueue(DisciplineSpec.parse("strict:8:model")
            .withThresholds(new long[]{ 1, 2, 3, 4, 5, 6, 7 }), 36_000, 1514, 1514, TrafficClasses.DEFAULT);
        assertEquals(0, small.reservedLength(), "36 KB cannot hold eight reserves of 15 KB");
        assertThrows(IllegalArgumentException.class, () -> DisciplineKind.newQueue(DisciplineSpec.parse("strict:4"),
            0, 1514, 1514, TrafficClasses.DEFAULT));
    }

    @Test
    void spPifoPushesBoundsUpOnArrivalAndAllDownOnARankBelowTheTopBound()
    {
        final SpPifoQueue queue = new SpPifoQueue(30_000, 1514, 1514, 2);
        final long[] ranks = { 5, 3, 7, 1, 4 };
        final long[][] bounds = { { 0, 5 }, { 3, 5 }, { 3, 7 }, { 1, 5 }, { 4, 5 } };
        for (int i = 0; i < ranks.length; i++)
        {
            assertTrue(recorder.offer(queue, ranks[i], 100, ranks[i], i));
            assertEquals(bounds[i][0], queue.bound(0), "top bound after rank " + ranks[i]);
            assertEquals(bounds[i][1], queue.bound(1), "bottom bound after rank " + ranks[i]);
        }
        assertEquals(List.of(3L, 1L, 4L, 5L, 7L), recorder.drain(queue));
        assertEquals(1, queue.counters().get(QueueCounter.RANK_INVERSION_PACKETS), "3 left while 1 waited");
    }

    @Test
    void spPifoQueuesSplitTheBufferEquallyByDefault()
    {
        final SpPifoQueue queue = new SpPifoQueue(4_000, 1514, 1514, 2);
        assertTrue(recorder.offer(queue, 1, 1_000, 50, 1));
        assertTrue(recorder.offer(queue, 2, 1_000, 60, 1));
        assertFalse(recorder.offer(queue, 3, 1_000, 70, 1), "the bottom queue's 2,000 bytes are full");
        assertTrue(recorder.offer(queue, 4, 1_000, 10, 1), "the top queue still has its own");
    }

    @Test
    void spPifoQueuesAsNamedHoldTheirShareOrWithSharedTakeTheWholeBuffer()
    {
        final BandQueue split = (BandQueue)DisciplineKind.newQueue(DisciplineSpec.parse("sp-pifo:2"), 4_000, 1514,
            1514, TrafficClasses.DEFAULT);
        assertEquals(2_000, split.reservedLength());
        final BandQueue shared = (BandQueue)DisciplineKind.newQueue(DisciplineSpec.parse("sp-pifo:2:shared"), 4_000,
            1514, 1514, TrafficClasses.DEFAULT);
        assertEquals(0, shared.reservedLength());
        for (long id = 1; id <= 4; id++)
        {
            assertEquals(id <= 2, recorder.offer(split, id, 1_000, 50 + id, 1), "split, rank " + (50 + id));
            assertTrue(recorder.offer(shared, id, 1_000, 50 + id, 1), "shared, rank " + (50 + id));
        }
        assertEquals(4_000, shared.bandLength(1), "the bottom queue took the whole buffer");
        assertFalse(recorder.offer(shared, 5, 100, 1, 1), "nothing is left for the top queue");
        assertTrue(recorder.offer(split, 6, 1_000, 1, 1), "the top queue's share is its own");
    }

    @Test
    void aifoAdmitsWithinItsHeadroomAndThenByTheQuantileOfTheRank()
    {
        final AifoQueue queue = new AifoQueue(10_000, 1514, 1514, 0.25, 4, 1);
        queue.dropHandler(recorder);
        final long[] ranks = { 10, 20, 30, 40, 15, 35, 36, 5 };
        final boolean[] admitted = { true, true, true, false, true, true, false, true };
        for (int i = 0; i < ranks.length; i++)
        {
            assertEquals(admitted[i], recorder.offer(queue, ranks[i], 1_000, ranks[i], i), "rank " + ranks[i]);
        }
        assertEquals(List.of(DropReason.RANK_ADMISSION, DropReason.RANK_ADMISSION), recorder.dropReasons);
        assertEquals(2, queue.counters().droppedPackets(DropReason.RANK_ADMISSION));
        assertEquals(List.of(10L, 20L, 30L, 15L, 35L, 5L), recorder.drain(queue));
        assertEquals(5, queue.counters().get(QueueCounter.RANK_INVERSION_PACKETS), "every frame but 5 left before 5");
    }

    @Test
    void aifoSamplesOneArrivalInS()
    {
        final AifoQueue queue = new AifoQueue(100_000, 1514, 1514, 0.5, 20, 3);
        for (int i = 0; i < 7; i++)
        {
            recorder.offer(queue, i, 100, i, i);
        }
        assertEquals(3, queue.windowCount(), "arrivals 0, 3 and 6");
    }

    @Test
    void piasQueuesByDscpAndMarksAboveKInTheArrivalsOwnQueue()
    {
        final PiasQueue queue = new PiasQueue(20_000, 1514, 1514, 2, 1_000);
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[1_000]);
        final int[] dscps = { 5, 5, 5, 0, 1 };
        for (int i = 0; i < dscps.length; i++)
        {
            frame.setMemory(0, 1_000, (byte)0);
            new EthernetFlyweight().wrap(frame, 0).etherType(EthernetFlyweight.ETHERTYPE_IPV4);
            new Ipv4Flyweight().wrap(frame, EthernetFlyweight.HEADER_LENGTH)
                .version(Ipv4Flyweight.VERSION).ihl(Ipv4Flyweight.MIN_IHL).dscp(dscps[i])
                .ecn(Ipv4Flyweight.ECN_ECT0).totalLength(1_000 - EthernetFlyweight.HEADER_LENGTH)
                .identification(i).ttl(64).protocol(Ipv4Flyweight.PROTOCOL_TCP).computeChecksum();
            assertTrue(queue.enqueue(frame, 0, 1_000, 1_000, 0, i, dscps[i]));
        }
        final UnsafeBuffer out = new UnsafeBuffer(new byte[1_000]);
        final Ipv4Flyweight ipv4 = new Ipv4Flyweight();
        final List<String> departures = new ArrayList<>();
        while (0 != queue.dequeue(out, 0))
        {
            ipv4.wrap(out, EthernetFlyweight.HEADER_LENGTH);
            assertTrue(ipv4.checksumValid());
            departures.add(ipv4.identification() + (Ipv4Flyweight.ECN_CE == ipv4.ecn() ? "CE" : ""));
        }
        assertEquals(List.of("3", "0", "1", "2CE", "4CE"), departures,
            "DSCP 0 first; the third and fourth arrivals of queue 1 found more than 1,000 bytes in it");
        assertEquals(2, queue.counters().get(QueueCounter.ECN_MARKED_PACKETS));
    }

    @Test
    void everyDisciplineCountsTheFramesSentAheadOfAMoreUrgentOne()
    {
        final DropTailQueue fifo = new DropTailQueue(10_000);
        recorder.offer(fifo, 1, 100, 5, 1);
        recorder.offer(fifo, 2, 100, 1, 2);
        recorder.offer(fifo, 3, 100, 1, 3);
        assertEquals(List.of(1L, 2L, 3L), recorder.drain(fifo));
        assertEquals(1, fifo.counters().get(QueueCounter.RANK_INVERSION_PACKETS), "only 1 left with 2 and 3 waiting");

        final PfabricQueue pfabric = new PfabricQueue(10_000);
        recorder.offer(pfabric, 1, 100, 10, 7);
        recorder.offer(pfabric, 2, 100, 5, 8);
        recorder.offer(pfabric, 3, 100, 1, 7);
        assertEquals(List.of(1L, 3L, 2L), recorder.drain(pfabric), "flow 7 owns the most urgent frame");
        assertEquals(1, pfabric.counters().get(QueueCounter.RANK_INVERSION_PACKETS),
            "flow 7's first frame left ahead of the more urgent frame of flow 8");

        final PfabricQueue evicting = new PfabricQueue(200, 100, 100);
        recorder.offer(evicting, 1, 100, 10, 1);
        recorder.offer(evicting, 2, 100, 20, 2);
        recorder.offer(evicting, 3, 100, 1, 3);
        assertEquals(List.of(3L, 1L), recorder.drain(evicting));
        assertEquals(0, evicting.counters().get(QueueCounter.RANK_INVERSION_PACKETS), "an evicted frame never waits");
    }
}
