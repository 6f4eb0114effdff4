package io.pfabric.switchd;

import io.pfabric.common.topology.TrafficClasses;
import io.pfabric.common.wire.EthernetFlyweight;
import io.pfabric.common.wire.Ipv4Flyweight;
import io.pfabric.common.wire.PfabricHeaderFlyweight;
import io.pfabric.dataplane.queue.DisciplineKind;
import io.pfabric.dataplane.queue.PfabricClassQueue;
import io.pfabric.dataplane.queue.QueueDiscipline;
import io.pfabric.switchd.table.ForwardingTable;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The forwarder hands each frame's DSCP to its egress queue: frames received in one duty cycle leave a
 * {@code pfabric-classes} port alternating between two classes of equal weight, though one class's frames are all
 * more urgent, and in pFabric's order on a plain {@code pfabric} port; each port counts what it sent per DSCP, and a
 * class port per class, every frame once; the metrics read those counters.
 */
class ForwarderTrafficClassTest
{
    private static final int DESTINATION = 0x0A00_0202;
    private static final int FRAME_LENGTH = 1500;

    private static byte[] frame(final int dscp, final long priority, final long flowId, final int sequence)
    {
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[FRAME_LENGTH]);
        new EthernetFlyweight().wrap(frame, 0).destinationMac(0x02_00_00_00_00_01L).sourceMac(0x02_00_00_00_00_02L)
            .etherType(EthernetFlyweight.ETHERTYPE_IPV4);
        new Ipv4Flyweight().wrap(frame, EthernetFlyweight.HEADER_LENGTH)
            .version(Ipv4Flyweight.VERSION).ihl(Ipv4Flyweight.MIN_IHL).dscp(dscp)
            .totalLength(FRAME_LENGTH - EthernetFlyweight.HEADER_LENGTH).ttl(64)
            .protocol(Ipv4Flyweight.PROTOCOL_PFABRIC).sourceAddress(0x0A00_0101).destinationAddress(DESTINATION)
            .computeChecksum();
        new PfabricHeaderFlyweight().wrap(frame, EthernetFlyweight.HEADER_LENGTH + Ipv4Flyweight.HEADER_LENGTH)
            .version(PfabricHeaderFlyweight.VERSION).type(PfabricHeaderFlyweight.TYPE_DATA)
            .headerLength(PfabricHeaderFlyweight.HEADER_LENGTH).priority(priority).flowId(flowId)
            .segmentOffset(sequence)
            .payloadLength(FRAME_LENGTH - EthernetFlyweight.HEADER_LENGTH - Ipv4Flyweight.HEADER_LENGTH -
                PfabricHeaderFlyweight.HEADER_LENGTH);
        return frame.byteArray();
    }

    private SwitchPort[] ports;
    private SwitchPort uplinkPort;
    private Forwarder forwarder;

    private List<Integer> departures(final DisciplineKind kind)
    {
        final MemoryFramePort host = new MemoryFramePort();
        final MemoryFramePort uplink = new MemoryFramePort();
        final MemoryFramePort[] io = { host, uplink };
        ports = new SwitchPort[io.length];
        for (int i = 0; i < io.length; i++)
        {
            final QueueDiscipline queue = kind.newQueue(36_000, 1514, 1514, TrafficClasses.parse("1;1:46"));
            ports[i] = new SwitchPort("p" + i, io[i], queue, null);
        }
        final ForwardingTable table = new ForwardingTable().addHost(DESTINATION, 0x02_00_00_00_00_09L, 1);
        uplinkPort = ports[1];
        forwarder = new Forwarder(ports, table, true, new CachedNanoClock());
        for (int i = 0; i < 4; i++)
        {
            host.arriving.add(frame(46, 100_000, 1, i));
        }
        for (int i = 4; i < 8; i++)
        {
            host.arriving.add(frame(0, 10, 2, i));
        }
        forwarder.doWork();
        final List<Integer> sequences = new ArrayList<>();
        final PfabricHeaderFlyweight header = new PfabricHeaderFlyweight();
        for (final byte[] frame : uplink.sent)
        {
            sequences.add((int)header.wrap(new UnsafeBuffer(frame),
                EthernetFlyweight.HEADER_LENGTH + Ipv4Flyweight.HEADER_LENGTH).segmentOffset());
        }
        return sequences;
    }

    @Test
    void framesLeaveAClassPortByTheirDscpsClassAndAPfabricPortByPriority()
    {
        assertEquals(List.of(0, 4, 1, 5, 2, 6, 3, 7), departures(DisciplineKind.PFABRIC_CLASSES));
        assertEquals(List.of(4, 5, 6, 7, 0, 1, 2, 3), departures(DisciplineKind.PFABRIC));
    }

    @Test
    void aPortCountsWhatItSentPerDscpAndAClassQueuePerClass()
    {
        departures(DisciplineKind.PFABRIC_CLASSES);
        assertEquals(8, uplinkPort.counters().get(PortCounter.TRANSMITTED_FRAMES));
        for (final int dscp : new int[] { 0, 46 })
        {
            assertEquals(4, uplinkPort.transmittedFrames(dscp), "DSCP " + dscp);
            assertEquals(4 * FRAME_LENGTH, uplinkPort.transmittedBytes(dscp), "DSCP " + dscp);
            assertEquals(4 * (FRAME_LENGTH - EthernetFlyweight.HEADER_LENGTH - Ipv4Flyweight.HEADER_LENGTH -
                PfabricHeaderFlyweight.HEADER_LENGTH), uplinkPort.transmittedPayloadBytes(dscp), "DSCP " + dscp);
        }
        assertEquals(0, uplinkPort.transmittedFrames(8));
        final PfabricClassQueue queue = assertInstanceOf(PfabricClassQueue.class, uplinkPort.queue());
        assertEquals(List.of(4L, 4L), List.of(queue.departedFrames(0), queue.departedFrames(1)));
        assertEquals(List.of(4L * FRAME_LENGTH, 4L * FRAME_LENGTH), List.of(queue.departedBytes(0),
            queue.departedBytes(1)));

        departures(DisciplineKind.PFABRIC);
        assertEquals(4, uplinkPort.transmittedFrames(0));
        assertEquals(4, uplinkPort.transmittedFrames(46));
        assertEquals(8, uplinkPort.counters().get(PortCounter.TRANSMITTED_FRAMES));
    }

    @Test
    void theMetricsReadEachClassOfAPortTaggedByItsIndexAndZeroOnceThePortHasNoClasses()
    {
        departures(DisciplineKind.PFABRIC_CLASSES);
        final SimpleMeterRegistry registry = new SimpleMeterRegistry();
        SwitchMetrics.bind("s1", forwarder, ports, registry);
        final PfabricClassQueue queue = assertInstanceOf(PfabricClassQueue.class, uplinkPort.queue());
        assertEquals(1, queue.backloggedStretches(), "both classes were queued together once");
        for (int k = 0; k < 2; k++)
        {
            assertEquals(4, classMeter(registry, "pfabric.queue.class.departed.frames", k), "class " + k);
            assertEquals(4 * FRAME_LENGTH, classMeter(registry, "pfabric.queue.class.departed.bytes", k));
            assertTrue(queue.backloggedBytes(k) > 0, "class " + k + " sent while both were queued");
            assertEquals(queue.backloggedBytes(k), classMeter(registry, "pfabric.queue.class.backlogged.bytes", k));
        }
        assertEquals(1, registry.get("pfabric.queue.backlogged.stretches").tags("port", "p1").functionCounter()
            .count());
        assertNull(registry.find("pfabric.queue.class.departed.frames").tags("class", "2").functionCounter(),
            "a meter per class of the port, no more");

        uplinkPort.queue(DisciplineKind.PFABRIC.newQueue(36_000, 1514, 1514, TrafficClasses.parse("1;1:46")));
        assertEquals(0, classMeter(registry, "pfabric.queue.class.departed.frames", 1), "a port without classes");
        assertEquals(0, registry.get("pfabric.queue.backlogged.stretches").tags("port", "p1").functionCounter()
            .count());

        final SimpleMeterRegistry plain = new SimpleMeterRegistry();
        SwitchMetrics.bind("s1", forwarder, ports, plain);
        assertNull(plain.find("pfabric.queue.class.departed.frames").tags("port", "p1").functionCounter(),
            "a port bound without classes has no class meters");
        assertEquals(8, plain.get("pfabric.port.transmitted.frames").tags("port", "p1").functionCounter().count());
    }

    private static long classMeter(final SimpleMeterRegistry registry, final String name, final int trafficClass)
    {
        return (long)registry.get(name).tags("switch", "s1", "port", "p1", "class", Integer.toString(trafficClass))
            .functionCounter().count();
    }
}
