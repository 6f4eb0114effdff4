package io.pfabric.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.code_intelligence.jazzer.mutation.annotation.NotNull;
import io.pfabric.common.wire.ArpFlyweight;
import io.pfabric.common.wire.EthernetFlyweight;
import io.pfabric.common.wire.FrameKind;
import io.pfabric.common.wire.FrameParser;
import io.pfabric.common.wire.Ipv4Flyweight;
import io.pfabric.common.wire.ParseReason;
import io.pfabric.common.wire.PfabricHeaderFlyweight;
import io.pfabric.common.wire.UdpFlyweight;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The frame parser on any bytes: it never throws, and a frame it does not call MALFORMED is safe to read through
 * every accessor of every header it reports (Ethernet, IPv4, UDP, pFabric, ARP, each SACK block). The frame sits in a
 * buffer of exactly its length, with Agrona's bounds checks on, so any read past its end throws.
 */
class FrameParserFuzzTest
{
    private static final Accessors ETHERNET = new Accessors(EthernetFlyweight.class);
    private static final Accessors IPV4 = new Accessors(Ipv4Flyweight.class);
    private static final Accessors UDP = new Accessors(UdpFlyweight.class);
    private static final Accessors PFABRIC = new Accessors(PfabricHeaderFlyweight.class);
    private static final Accessors ARP = new Accessors(ArpFlyweight.class);
    private static final int IP_PROTOCOL_UDP = 17;

    private final FrameParser parser = new FrameParser();
    private final EthernetFlyweight ethernet = new EthernetFlyweight();
    private final Ipv4Flyweight ipv4 = new Ipv4Flyweight();
    private final UdpFlyweight udp = new UdpFlyweight();
    private final PfabricHeaderFlyweight pfabric = new PfabricHeaderFlyweight();
    private final ArpFlyweight arp = new ArpFlyweight();

    @FuzzTest
    void aFrameThatParsesIsSafeToReadThroughEveryAccessor(@NotNull final byte[] frame)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(frame);
        final int kind = parser.parse(buffer, 0, frame.length);
        assertEquals(kind, parser.kind());
        assertTrue(kind >= 0 && kind < FrameKind.COUNT, () -> "kind " + kind);
        if (FrameKind.MALFORMED == kind)
        {
            assertNotEquals(ParseReason.NONE, parser.reason());
            return;
        }
        assertEquals(ParseReason.NONE, parser.reason());
        ETHERNET.readAll(ethernet.wrap(buffer, 0));
        if (FrameKind.ARP == kind)
        {
            ARP.readAll(arp.wrap(buffer, EthernetFlyweight.HEADER_LENGTH));
        }
        if (FrameParser.ABSENT != parser.ipOffset())
        {
            IPV4.readAll(ipv4.wrap(buffer, parser.ipOffset()));
            if (IP_PROTOCOL_UDP == parser.ipProtocol() && FrameParser.ABSENT != parser.l4Offset() &&
                FrameKind.PFABRIC_UDP == kind)
            {
                UDP.readAll(udp.wrap(buffer, parser.l4Offset()));
            }
        }
        if (FrameParser.ABSENT != parser.pfabricOffset())
        {
            PFABRIC.readAll(pfabric.wrap(buffer, parser.pfabricOffset()));
            for (int i = 0; i < pfabric.sackCount(); i++)
            {
                pfabric.sackStart(i);
                pfabric.sackEnd(i);
            }
        }
        parser.priority();
        parser.flowId();
        parser.flowHash();
    }

    @Test
    void everyFlyweightHasAccessorsToCall()
    {
        assertTrue(PFABRIC.names().containsAll(java.util.List.of("priority", "flowId", "sackCount", "checksumValid")),
            PFABRIC.names().toString());
        assertTrue(IPV4.names().contains("checksumValid"), IPV4.names().toString());
    }
}
