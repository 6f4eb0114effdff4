package io.pfabric.dataplane.queue;

import io.pfabric.common.wire.EthernetFlyweight;
import io.pfabric.common.wire.Ipv4Flyweight;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EcnQueueTest
{
    private static final int FRAME_LENGTH = 1000;

    private final UnsafeBuffer frame = new UnsafeBuffer(new byte[FRAME_LENGTH]);
    private final UnsafeBuffer out = new UnsafeBuffer(new byte[FRAME_LENGTH]);
    private final Ipv4Flyweight ipv4 = new Ipv4Flyweight();

    private void offer(final EcnQueue queue, final int etherType, final int ecn, final int id)
    {
        frame.setMemory(0, FRAME_LENGTH, (byte)0);
        new EthernetFlyweight().wrap(frame, 0).etherType(etherType);
        ipv4.wrap(frame, EthernetFlyweight.HEADER_LENGTH)
            .version(Ipv4Flyweight.VERSION)
            .ihl(Ipv4Flyweight.MIN_IHL)
            .ecn(ecn)
            .totalLength(FRAME_LENGTH - EthernetFlyweight.HEADER_LENGTH)
            .identification(id)
            .ttl(64)
            .protocol(Ipv4Flyweight.PROTOCOL_TCP)
            .computeChecksum();
        assertTrue(queue.enqueue(frame, 0, FRAME_LENGTH, 0, id));
    }

    private List<Integer> drainEcn(final EcnQueue queue)
    {
        final List<Integer> marks = new ArrayList<>();
        while (0 != queue.dequeue(out, 0))
        {
            ipv4.wrap(out, EthernetFlyweight.HEADER_LENGTH);
            assertTrue(ipv4.checksumValid(), "header checksum after marking");
            marks.add(ipv4.ecn());
        }
        return marks;
    }

    @Test
    void marksEcnCapableArrivalsThatFindMoreThanKBytesBuffered()
    {
        final EcnQueue queue = new EcnQueue(10_000, 2_000);
        offer(queue, EthernetFlyweight.ETHERTYPE_IPV4, Ipv4Flyweight.ECN_ECT0, 1);
        offer(queue, EthernetFlyweight.ETHERTYPE_IPV4, Ipv4Flyweight.ECN_ECT0, 2);
        offer(queue, EthernetFlyweight.ETHERTYPE_IPV4, Ipv4Flyweight.ECN_ECT0, 3);
        offer(queue, EthernetFlyweight.ETHERTYPE_IPV4, Ipv4Flyweight.ECN_ECT1, 4);
        offer(queue, EthernetFlyweight.ETHERTYPE_IPV4, Ipv4Flyweight.ECN_NOT_ECT, 5);
        offer(queue, EthernetFlyweight.ETHERTYPE_IPV4, Ipv4Flyweight.ECN_CE, 6);
        offer(queue, EthernetFlyweight.ETHERTYPE_ARP, Ipv4Flyweight.ECN_ECT0, 7);

        assertEquals(1, queue.counters().get(QueueCounter.ECN_MARKED_PACKETS));
        assertEquals(3, queue.counters().get(QueueCounter.ECN_UNMARKABLE_PACKETS));
        assertEquals(List.of(
            Ipv4Flyweight.ECN_ECT0, Ipv4Flyweight.ECN_ECT0, Ipv4Flyweight.ECN_ECT0, Ipv4Flyweight.ECN_CE,
            Ipv4Flyweight.ECN_NOT_ECT, Ipv4Flyweight.ECN_CE), drainEcn(queue).subList(0, 6));
    }

    @Test
    void stopsMarkingOnceTheQueueDrainsBelowK()
    {
        final EcnQueue queue = new EcnQueue(10_000, 1_500);
        offer(queue, EthernetFlyweight.ETHERTYPE_IPV4, Ipv4Flyweight.ECN_ECT0, 1);
        offer(queue, EthernetFlyweight.ETHERTYPE_IPV4, Ipv4Flyweight.ECN_ECT0, 2);
        offer(queue, EthernetFlyweight.ETHERTYPE_IPV4, Ipv4Flyweight.ECN_ECT0, 3);
        queue.dequeue(out, 0);
        queue.dequeue(out, 0);
        offer(queue, EthernetFlyweight.ETHERTYPE_IPV4, Ipv4Flyweight.ECN_ECT0, 4);
        assertEquals(List.of(Ipv4Flyweight.ECN_CE, Ipv4Flyweight.ECN_ECT0), drainEcn(queue));
        assertEquals(1, queue.counters().get(QueueCounter.ECN_MARKED_PACKETS));
    }
}
