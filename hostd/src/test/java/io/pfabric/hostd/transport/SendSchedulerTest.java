package io.pfabric.hostd.transport;

import io.pfabric.common.topology.TrafficClasses;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SendSchedulerTest
{
    private static final int SEGMENT_LENGTH = 1_000;
    private static final int MAX_PACKET_LENGTH = 1_000;
    private static final TransportConfiguration LINE_RATE =
        new TransportConfiguration(SEGMENT_LENGTH, 12, 23, 45_000, 5, true, PriorityPolicy.REMAINING_SIZE);
    private static final TrafficClasses THREE_TO_ONE = TrafficClasses.parse("3:0-7;1:8-15");

    private final List<FlowSender> senders = new ArrayList<>();
    private final OutboundPacket outbound = new OutboundPacket();

    @Test
    void sendsClassesInTurnsOfTheirWeightAndEachClassBySrpt()
    {
        final SendScheduler scheduler = new SendScheduler();
        scheduler.trafficClasses(THREE_TO_ONE, MAX_PACKET_LENGTH);
        final int c = add(scheduler, 3, 8);
        final int a = add(scheduler, 5, 0);
        final int b = add(scheduler, 2, 0);
        final int d = add(scheduler, 1, 8);

        final List<Integer> order = drain(scheduler, Integer.MAX_VALUE);

        assertEquals(List.of(d, b, b, a, c, a, a, a, c, a, c), order,
            "class 1 became ready first and sends 1 packet a turn, class 0 3; the shortest flow first in each");
        assertFalse(scheduler.hasReady());
    }

    @Test
    void oneClassOrAllFlowsInOneClassSendByRemainingSizeOverEveryFlow()
    {
        final SplittableRandom random = new SplittableRandom(7);
        final int[] segments = new int[40];
        for (int i = 0; i < segments.length; i++)
        {
            segments[i] = 1 + random.nextInt(30);
        }
        final List<List<Integer>> orders = new ArrayList<>();
        for (final TrafficClasses classes : new TrafficClasses[]{ null, TrafficClasses.parse("5"), THREE_TO_ONE })
        {
            senders.clear();
            final SendScheduler scheduler = new SendScheduler();
            scheduler.trafficClasses(classes, MAX_PACKET_LENGTH);
            for (final int count : segments)
            {
                add(scheduler, count, 3);
            }
            orders.add(drain(scheduler, Integer.MAX_VALUE));
        }
        assertEquals(orders.get(0), orders.get(1));
        assertEquals(orders.get(0), orders.get(2));
        final List<Integer> order = orders.get(0);
        int previousSize = 0;
        for (int i = 0; i < order.size(); )
        {
            final int slot = order.get(i);
            for (int k = 0; k < segments[slot]; k++)
            {
                assertEquals(slot, order.get(i + k), "a flow, once the most urgent, sends to its end");
            }
            assertTrue(segments[slot] >= previousSize, "shortest flow first");
            previousSize = segments[slot];
            i += segments[slot];
        }
    }

    @Test
    void eachTurnSendsTheWeightsBytesWithinOnePacket()
    {
        final SplittableRandom random = new SplittableRandom(11);
        final SendScheduler scheduler = new SendScheduler();
        final TrafficClasses classes = TrafficClasses.parse("3:0-7;1:8-15;2:16-23");
        scheduler.trafficClasses(classes, MAX_PACKET_LENGTH);
        for (int i = 0; i < 12; i++)
        {
            add(scheduler, 400 + random.nextInt(200), 8 * (i % 3));
        }
        long sentLength = 0;
        int turnClass = -1;
        long turnLength = 0;
        int turns = 0;
        final long[] classLength = new long[3];
        while (sentLength < 1_000_000)
        {
            final int slot = scheduler.mostUrgentSlot();
            final FlowSender sender = senders.get(slot);
            final int trafficClass = classes.classOf(sender.dscp());
            if (trafficClass != turnClass)
            {
                if (turnClass >= 0 && turns > 0)
                {
                    final long quantumLength = (long)classes.weight(turnClass) * MAX_PACKET_LENGTH;
                    assertTrue(Math.abs(turnLength - quantumLength) < MAX_PACKET_LENGTH,
                        "class " + turnClass + " sent " + turnLength + " bytes in a turn of quantum " + quantumLength);
                }
                turns++;
                turnClass = trafficClass;
                turnLength = 0;
            }
            final int length = 100 + random.nextInt(MAX_PACKET_LENGTH - 99);
            sender.nextPacket(0, outbound);
            scheduler.onSent(slot, length);
            scheduler.refresh(slot, sender);
            turnLength += length;
            classLength[trafficClass] += length;
            sentLength += length;
        }
        final long perWeight0 = classLength[0] / 3;
        final long roundSlackLength = 3L * MAX_PACKET_LENGTH;
        assertTrue(Math.abs(perWeight0 - classLength[1]) <= roundSlackLength, "class 0 per weight vs class 1");
        assertTrue(Math.abs(perWeight0 - classLength[2] / 2) <= roundSlackLength, "class 0 per weight vs class 2");
        assertTrue(turns > 100);
    }

    @Test
    void aClassThatEmptiesLeavesTheRoundWithItsDeficitReset()
    {
        final SendScheduler scheduler = new SendScheduler();
        scheduler.trafficClasses(THREE_TO_ONE, MAX_PACKET_LENGTH);
        final int a = add(scheduler, 10, 0);
        final int b = add(scheduler, 10, 8);

        assertEquals(List.of(a), drain(scheduler, 1));
        assertEquals(2_000, scheduler.deficitLength(0));
        scheduler.setAside(a);
        assertEquals(0, scheduler.deficitLength(0));
        assertEquals(List.of(b, b), drain(scheduler, 2), "class 1 alone takes turn after turn");
        scheduler.refresh(a, senders.get(a));
        assertEquals(List.of(a, a, a, b), drain(scheduler, 4), "class 0 back behind class 1 with a fresh quantum");
        scheduler.remove(b);
        assertEquals(6, drain(scheduler, Integer.MAX_VALUE).size());
        assertThrows(IllegalStateException.class, () -> scheduler.trafficClasses(null, MAX_PACKET_LENGTH),
            "the timers of the flows sent still run");
    }

    private int add(final SendScheduler scheduler, final int segmentCount, final int dscp)
    {
        final int slot = senders.size();
        final FlowSender sender =
            new FlowSender(LINE_RATE, slot, 1, (long)segmentCount * SEGMENT_LENGTH, 0, 0, dscp);
        senders.add(sender);
        scheduler.refresh(slot, sender);
        return slot;
    }

    private List<Integer> drain(final SendScheduler scheduler, final int limit)
    {
        final List<Integer> order = new ArrayList<>();
        while (order.size() < limit && scheduler.hasReady())
        {
            final int slot = scheduler.mostUrgentSlot();
            final FlowSender sender = senders.get(slot);
            sender.nextPacket(0, outbound);
            scheduler.onSent(slot, MAX_PACKET_LENGTH);
            scheduler.refresh(slot, sender);
            order.add(slot);
        }
        return order;
    }
}
