package io.pfabric.switchd;

import io.pfabric.common.topology.DisciplineSpec;
import io.pfabric.common.topology.TrafficClasses;
import io.pfabric.common.wire.EthernetFlyweight;
import io.pfabric.common.wire.Ipv4Flyweight;
import io.pfabric.common.wire.PfabricHeaderFlyweight;
import io.pfabric.dataplane.queue.DisciplineKind;
import io.pfabric.dataplane.queue.QueueCounter;
import io.pfabric.switchd.table.ForwardingTable;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The forwarder on ports of the commodity-switch disciplines, built from their names with parameters as a topology
 * file gives them: four frames of a large flow (DSCP 46) then four of a small one (DSCP 0) received in one duty cycle
 * leave in the discipline's order, and every port counts, and exports, the frames it sent ahead of a more urgent one.
 */
class ForwarderCommodityQueueTest
{
    private static final int DESTINATION = 0x0A00_0202;
    private static final int FRAME_LENGTH = 1000;

    private SwitchPort[] ports;
    private Forwarder forwarder;

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

    private List<Integer> departures(final String discipline)
    {
        final MemoryFramePort host = new MemoryFramePort();
        final MemoryFramePort uplink = new MemoryFramePort();
        final MemoryFramePort[] io = { host, uplink };
        ports = new SwitchPort[io.length];
        for (int i = 0; i < io.length; i++)
        {
            ports[i] = new SwitchPort("p" + i, io[i], DisciplineKind.newQueue(DisciplineSpec.parse(discipline), 0,
                1514, 1514, TrafficClasses.DEFAULT), null);
        }
        forwarder = new Forwarder(ports, new ForwardingTable().addHost(DESTINATION, 0x02_00_00_00_00_09L, 1), true,
            new CachedNanoClock());
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

    private long inversions()
    {
        return ports[1].queue().counters().get(QueueCounter.RANK_INVERSION_PACKETS);
    }

    @Test
    void framesLeaveInEachDisciplinesOrder()
    {
        assertEquals(List.of(4, 5, 6, 7, 0, 1, 2, 3), departures("strict:2:1000"));
        assertEquals(0, inversions());
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7), departures("strict:2:1000000"), "one queue takes both flows");
        assertEquals(4, inversions());
        assertEquals(List.of(4, 5, 6, 7, 0, 1, 2, 3), departures("pias:2"), "DSCP 0 is the top queue");
        assertEquals(0, inversions());
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7), departures("aifo"), "one FIFO never reorders");
        assertEquals(4, inversions());
        assertEquals(List.of(4, 5, 6, 7, 0, 1, 2, 3), departures("sp-pifo:2"),
            "the large flow set the bottom bound; the small flow's rank went above");
        assertEquals(0, inversions());
    }

    @Test
    void theRankInversionsAreExportedWithThePortsOtherQueueCounters()
    {
        departures("droptail");
        final SimpleMeterRegistry registry = new SimpleMeterRegistry();
        SwitchMetrics.bind("s1", forwarder, ports, registry);
        assertEquals(4, registry.get("pfabric.queue.rank.inversion.frames").tags("port", "p1").functionCounter()
            .count());
        assertEquals(0, registry.get("pfabric.queue.rank.inversion.frames").tags("port", "p0").functionCounter()
            .count());
    }
}
