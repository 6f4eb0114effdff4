package io.pfabric.common.wire;

import java.util.HashSet;
import java.util.Set;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static io.pfabric.common.wire.PfabricHeaderFlyweight.TYPE_ACK;
import static io.pfabric.common.wire.PfabricHeaderFlyweight.TYPE_CONTROL;
import static io.pfabric.common.wire.PfabricHeaderFlyweight.TYPE_DATA;
import static io.pfabric.common.wire.PfabricHeaderFlyweight.TYPE_PROBE;
import static io.pfabric.common.wire.TestFrames.pfabricIpOffset;
import static io.pfabric.common.wire.TestFrames.pfabricUdpOffset;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FrameParserTest
{
    private static final Set<Integer> TRUNCATION_REASONS = Set.of(
        ParseReason.TRUNCATED_ETHERNET,
        ParseReason.TRUNCATED_IPV4,
        ParseReason.IPV4_TOTAL_LENGTH_BEYOND_FRAME);

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[4096]);
    private final TestFrames frames = new TestFrames(buffer);
    private final FrameParser parser = new FrameParser();

    @Test
    void shouldClassifyPfabricOverIp()
    {
        final int length = frames.pfabricIpFrame(0, TYPE_DATA, 0, 1_460);
        frames.pfabric.finFlag(true);

        assertEquals(FrameKind.PFABRIC_IP, parser.parse(buffer, 0, length));
        assertEquals(FrameKind.PFABRIC_IP, parser.kind());
        assertEquals(ParseReason.NONE, parser.reason());
        assertEquals(14, parser.ipOffset());
        assertEquals(length - 14, parser.ipTotalLength());
        assertEquals(34, parser.l4Offset());
        assertEquals(34, parser.pfabricOffset());
        assertEquals(TYPE_DATA, parser.pfabricType());
        assertEquals(PfabricHeaderFlyweight.FLAG_FIN, parser.pfabricFlags());
        assertEquals(-1, parser.pathHint());
        assertEquals(TestFrames.PRIORITY, parser.priority());
        assertEquals(TestFrames.FLOW_ID, parser.flowId());
        assertEquals(TestFrames.FLOW_ID, parser.flowHash());
        assertEquals(TestFrames.DSCP, parser.dscp());
        assertEquals(Ipv4Flyweight.ECN_ECT0, parser.ecn());
        assertEquals(Ipv4Flyweight.PROTOCOL_PFABRIC, parser.ipProtocol());
        assertEquals(TestFrames.SOURCE_ADDRESS, parser.sourceAddress());
        assertEquals(TestFrames.DESTINATION_ADDRESS, parser.destinationAddress());
        assertEquals(0, parser.sourcePort());
        assertEquals(0, parser.destinationPort());
    }

    @Test
    void shouldClassifyPfabricOverUdp()
    {
        final int length = frames.pfabricUdpFrame(0, TYPE_ACK, 4, 0);

        assertEquals(FrameKind.PFABRIC_UDP, parser.parse(buffer, 0, length));
        assertEquals(ParseReason.NONE, parser.reason());
        assertEquals(34, parser.l4Offset());
        assertEquals(42, parser.pfabricOffset());
        assertEquals(TYPE_ACK, parser.pfabricType());
        assertEquals(0, parser.priority());
        assertEquals(TestFrames.FLOW_ID, parser.flowHash());
        assertEquals(Ipv4Flyweight.PROTOCOL_UDP, parser.ipProtocol());
        assertEquals(TestFrames.SOURCE_PORT, parser.sourcePort());
        assertEquals(UdpFlyweight.PFABRIC_DEFAULT_PORT, parser.destinationPort());
    }

    @Test
    void shouldClassifyEveryPfabricType()
    {
        for (final int type : new int[]{ TYPE_DATA, TYPE_ACK, TYPE_PROBE, TYPE_CONTROL })
        {
            final int length = frames.pfabricIpFrame(0, type, TYPE_ACK == type ? 2 : 0, TYPE_PROBE == type ? 1 : 0);
            assertEquals(FrameKind.PFABRIC_IP, parser.parse(buffer, 0, length), "type " + type);
            assertEquals(type, parser.pfabricType());
        }
    }

    @Test
    void shouldExposePathHintWhenPathFlagIsSet()
    {
        final int length = frames.pfabricUdpFrame(0, TYPE_DATA, 0, 100);
        frames.pfabric.pathFlag(true).pathHint(3);

        assertEquals(FrameKind.PFABRIC_UDP, parser.parse(buffer, 0, length));
        assertEquals(3, parser.pathHint());
    }

    @Test
    void shouldUseConfiguredPfabricPort()
    {
        final FrameParser custom = new FrameParser(9000);
        assertEquals(9000, custom.pfabricUdpPort());

        final int length = frames.pfabricUdpFrame(0, 9000, TYPE_DATA, 0, 10);
        assertEquals(FrameKind.PFABRIC_UDP, custom.parse(buffer, 0, length));
        assertEquals(FrameKind.IPV4_OTHER, parser.parse(buffer, 0, length));

        final int defaultPortLength = frames.pfabricUdpFrame(0, TYPE_DATA, 0, 10);
        assertEquals(FrameKind.IPV4_OTHER, custom.parse(buffer, 0, defaultPortLength));
        assertThrows(IllegalArgumentException.class, () -> new FrameParser(0));
        assertThrows(IllegalArgumentException.class, () -> new FrameParser(65_536));
    }

    @Test
    void shouldClassifyOtherUdpWithPorts()
    {
        final int length = frames.udpFrame(0, 5353, 53, 12);

        assertEquals(FrameKind.IPV4_OTHER, parser.parse(buffer, 0, length));
        assertEquals(ParseReason.NONE, parser.reason());
        assertEquals(Ipv4Flyweight.PROTOCOL_UDP, parser.ipProtocol());
        assertEquals(5353, parser.sourcePort());
        assertEquals(53, parser.destinationPort());
        assertEquals(34, parser.l4Offset());
        assertEquals(FrameParser.ABSENT, parser.pfabricOffset());
        assertEquals(PfabricHeaderFlyweight.MAX_PRIORITY, parser.priority());
        assertEquals(0, parser.flowId());
    }

    @Test
    void shouldClassifyTcpWithPorts()
    {
        final int length = frames.tcpFrame(0, 50_000, 5201, 100);

        assertEquals(FrameKind.IPV4_OTHER, parser.parse(buffer, 0, length));
        assertEquals(Ipv4Flyweight.PROTOCOL_TCP, parser.ipProtocol());
        assertEquals(50_000, parser.sourcePort());
        assertEquals(5201, parser.destinationPort());
        assertEquals(TestFrames.DSCP, parser.dscp());
    }

    @Test
    void shouldClassifyOtherIpv4Protocols()
    {
        final int ipOffset = frames.ethernet(0, EthernetFlyweight.ETHERTYPE_IPV4);
        final int l4 = frames.ipv4(ipOffset, 5, 1, 8);

        assertEquals(FrameKind.IPV4_OTHER, parser.parse(buffer, 0, l4 + 8));
        assertEquals(1, parser.ipProtocol());
        assertEquals(l4, parser.l4Offset());
        assertEquals(0, parser.sourcePort());
    }

    @Test
    void shouldHashFiveTuplesOfOrdinaryTraffic()
    {
        final int length = frames.udpFrame(0, 1000, 2000, 10);
        parser.parse(buffer, 0, length);
        final long hash = parser.flowHash();

        parser.parse(buffer, 0, frames.udpFrame(0, 1000, 2000, 20));
        assertEquals(hash, parser.flowHash(), "same 5-tuple, same hash");

        parser.parse(buffer, 0, frames.udpFrame(0, 1001, 2000, 10));
        assertNotEquals(hash, parser.flowHash());
        parser.parse(buffer, 0, frames.udpFrame(0, 1000, 2001, 10));
        assertNotEquals(hash, parser.flowHash());
        parser.parse(buffer, 0, frames.tcpFrame(0, 1000, 2000, 10));
        assertNotEquals(hash, parser.flowHash());
        frames.udpFrame(0, 1000, 2000, 10);
        frames.ip.sourceAddress(TestFrames.SOURCE_ADDRESS + 1);
        parser.parse(buffer, 0, length);
        assertNotEquals(hash, parser.flowHash());
    }

    @Test
    void shouldClassifyArp()
    {
        final int length = frames.arpFrame(0);

        assertEquals(FrameKind.ARP, parser.parse(buffer, 0, length));
        assertEquals(ParseReason.NONE, parser.reason());
        assertEquals(FrameParser.ABSENT, parser.ipOffset());
        assertEquals(0, parser.flowHash());
    }

    @Test
    void shouldClassifyOtherEtherTypes()
    {
        for (final int etherType : new int[]{ 0x86DD, 0x8100, 0x88CC, 0x0000, 0x05DC, 0xFFFF })
        {
            final int length = frames.otherFrame(0, etherType, 46);
            assertEquals(FrameKind.OTHER, parser.parse(buffer, 0, length), "EtherType " + etherType);
            assertEquals(ParseReason.NONE, parser.reason());
        }
        assertEquals(FrameKind.OTHER, parser.parse(buffer, 0, 14), "header alone");
    }

    @Test
    void shouldResetFieldsBetweenFrames()
    {
        final int pfabricLength = frames.pfabricUdpFrame(0, TYPE_DATA, 0, 10);
        parser.parse(buffer, 0, pfabricLength);
        final int arpLength = frames.arpFrame(0);

        assertEquals(FrameKind.ARP, parser.parse(buffer, 0, arpLength));
        assertEquals(FrameParser.ABSENT, parser.ipOffset());
        assertEquals(FrameParser.ABSENT, parser.l4Offset());
        assertEquals(FrameParser.ABSENT, parser.pfabricOffset());
        assertEquals(0, parser.pfabricType());
        assertEquals(PfabricHeaderFlyweight.MAX_PRIORITY, parser.priority());
        assertEquals(0, parser.flowId());
        assertEquals(0, parser.sourcePort());
        assertEquals(0, parser.sourceAddress());
        assertEquals(0, parser.dscp());
    }

    @Test
    void shouldParseFrameAtOffsetEndingExactlyAtBufferEnd()
    {
        final int length = frames.pfabricUdpFrame(100, TYPE_ACK, 3, 0);
        final UnsafeBuffer exact = new UnsafeBuffer(buffer.byteArray(), 0, 100 + length);

        assertEquals(FrameKind.PFABRIC_UDP, parser.parse(exact, 100, length));
        assertEquals(pfabricUdpOffset(100), parser.pfabricOffset());
        assertEquals(TestFrames.FLOW_ID, parser.flowId());
    }

    @Test
    void shouldTreatLengthBeyondBufferAsTruncation()
    {
        final int length = frames.pfabricUdpFrame(0, TYPE_DATA, 0, 100);
        final UnsafeBuffer shorter = new UnsafeBuffer(buffer.byteArray(), 0, length - 1);

        assertEquals(FrameKind.MALFORMED, parser.parse(shorter, 0, length));
        assertEquals(ParseReason.IPV4_TOTAL_LENGTH_BEYOND_FRAME, parser.reason());
        assertEquals(FrameKind.MALFORMED, parser.parse(shorter, length, 100));
        assertEquals(ParseReason.TRUNCATED_ETHERNET, parser.reason());
        assertEquals(FrameKind.MALFORMED, parser.parse(shorter, -1, 100));
        assertEquals(FrameKind.MALFORMED, parser.parse(shorter, 0, -5));
        assertEquals(FrameKind.MALFORMED, parser.parse(shorter, Integer.MAX_VALUE, Integer.MAX_VALUE));
        assertEquals(FrameKind.MALFORMED, parser.parse(new UnsafeBuffer(new byte[0]), 0, 0));
        assertEquals(ParseReason.TRUNCATED_ETHERNET, parser.reason());
    }

    @Test
    void shouldAcceptEthernetPaddingBeyondIpTotalLength()
    {
        final int udpLength = frames.udpFrame(0, 1000, 2000, 0);
        assertEquals(42, udpLength);
        buffer.setMemory(udpLength, 18, (byte)0xEE);
        assertEquals(FrameKind.IPV4_OTHER, parser.parse(buffer, 0, 60));
        assertEquals(28, parser.ipTotalLength());

        final int arpLength = frames.arpFrame(0);
        assertEquals(FrameKind.ARP, parser.parse(buffer, 0, arpLength + 18));

        final int probeLength = frames.pfabricIpFrame(0, TYPE_PROBE, 0, 1);
        buffer.setMemory(probeLength, 30, (byte)0xEE);
        assertEquals(FrameKind.PFABRIC_IP, parser.parse(buffer, 0, probeLength + 30));
    }

    @Test
    void shouldEndPacketAtIpTotalLengthNotAtFrameEnd()
    {
        final int length = frames.pfabricIpFrame(0, TYPE_DATA, 0, 100);
        frames.pfabric.payloadLength(101);

        assertEquals(FrameKind.MALFORMED, parser.parse(buffer, 0, length + 50));
        assertEquals(ParseReason.PAYLOAD_LENGTH_BEYOND_PACKET, parser.reason());
    }

    @Test
    void shouldLocatePfabricAfterIpOptions()
    {
        final int ipOffset = frames.ethernet(0, EthernetFlyweight.ETHERTYPE_IPV4);
        final int pfabricLength = TestFrames.pfabricLength(TYPE_DATA, 0, 64);
        final int l4 = frames.ipv4(ipOffset, 7, Ipv4Flyweight.PROTOCOL_PFABRIC, pfabricLength);
        final int end = frames.pfabric(l4, TYPE_DATA, 0, 64);
        frames.pfabric.priority(777);

        assertEquals(FrameKind.PFABRIC_IP, parser.parse(buffer, 0, end));
        assertEquals(14 + 28, parser.pfabricOffset());
        assertEquals(777, parser.priority());
        assertNotEquals(777, PfabricHeaderFlyweight.priorityAtFrameOffset(
            buffer, 0, PfabricHeaderFlyweight.PRIORITY_FRAME_OFFSET_IP), "the fixed offset assumes no options");
    }

    @Test
    void shouldLocatePfabricOverUdpAfterIpOptions()
    {
        final int ipOffset = frames.ethernet(0, EthernetFlyweight.ETHERTYPE_IPV4);
        final int pfabricLength = TestFrames.pfabricLength(TYPE_ACK, 1, 0);
        final int l4 = frames.ipv4(ipOffset, 15, Ipv4Flyweight.PROTOCOL_UDP, 8 + pfabricLength);
        final int payload = frames.udp(l4, 1, UdpFlyweight.PFABRIC_DEFAULT_PORT, pfabricLength);
        final int end = frames.pfabric(payload, TYPE_ACK, 1, 0);

        assertEquals(FrameKind.PFABRIC_UDP, parser.parse(buffer, 0, end));
        assertEquals(14 + 60, parser.l4Offset());
        assertEquals(14 + 60 + 8, parser.pfabricOffset());
    }

    @Test
    void shouldClassifyNonFirstFragmentsAsOtherIpv4WithoutPorts()
    {
        final int length = frames.pfabricUdpFrame(0, TYPE_DATA, 0, 100);
        frames.ip.fragmentOffset(185).computeChecksum();

        assertEquals(FrameKind.IPV4_OTHER, parser.parse(buffer, 0, length));
        assertEquals(0, parser.sourcePort());
        assertEquals(0, parser.destinationPort());
        assertEquals(FrameParser.ABSENT, parser.l4Offset());

        final int ipLength = frames.pfabricIpFrame(0, TYPE_DATA, 0, 10);
        frames.ip.fragmentOffset(1);
        buffer.setMemory(pfabricIpOffset(0), 4, (byte)0);
        assertEquals(FrameKind.IPV4_OTHER, parser.parse(buffer, 0, ipLength));
    }

    @Test
    void shouldAcceptFirstFragmentOfOrdinaryUdpWithLongerUdpLength()
    {
        final int length = frames.udpFrame(0, 1000, 2000, 100);
        frames.ip.moreFragments(true);
        frames.udp.length(3000);

        assertEquals(FrameKind.IPV4_OTHER, parser.parse(buffer, 0, length));
        assertEquals(2000, parser.destinationPort());

        frames.ip.moreFragments(false);
        assertEquals(FrameKind.MALFORMED, parser.parse(buffer, 0, length));
        assertEquals(ParseReason.BAD_UDP_LENGTH, parser.reason());
    }

    @Test
    void shouldUseUdpLengthAsEndOfPfabricPacket()
    {
        final int length = frames.pfabricUdpFrame(0, TYPE_DATA, 0, 100);
        frames.udp.length(frames.udp.length() - 1);

        assertEquals(FrameKind.MALFORMED, parser.parse(buffer, 0, length));
        assertEquals(ParseReason.PAYLOAD_LENGTH_BEYOND_PACKET, parser.reason());
    }

    @Test
    void shouldNotVerifyChecksums()
    {
        final int length = frames.pfabricUdpFrame(0, TYPE_DATA, 0, 100);
        frames.ip.headerChecksum(frames.ip.headerChecksum() ^ 1);
        frames.pfabric.checksum(frames.pfabric.checksum() ^ 1);

        assertEquals(FrameKind.PFABRIC_UDP, parser.parse(buffer, 0, length));
    }

    @Test
    void shouldReportTruncatedEthernet()
    {
        frames.pfabricUdpFrame(0, TYPE_DATA, 0, 10);

        assertMalformed(13, ParseReason.TRUNCATED_ETHERNET);
        assertMalformed(0, ParseReason.TRUNCATED_ETHERNET);
    }

    @Test
    void shouldReportTruncatedIpv4()
    {
        frames.pfabricUdpFrame(0, TYPE_DATA, 0, 10);

        assertMalformed(14 + 19, ParseReason.TRUNCATED_IPV4);
        assertMalformed(14, ParseReason.TRUNCATED_IPV4);
    }

    @Test
    void shouldReportBadIpv4Version()
    {
        final int length = frames.pfabricUdpFrame(0, TYPE_DATA, 0, 10);
        frames.ip.version(6);

        assertMalformed(length, ParseReason.BAD_IPV4_VERSION);
    }

    @Test
    void shouldReportIhlBelowFive()
    {
        final int length = frames.pfabricUdpFrame(0, TYPE_DATA, 0, 10);
        frames.ip.ihl(4);

        assertMalformed(length, ParseReason.BAD_IHL);
    }

    @Test
    void shouldReportIhlBeyondFrame()
    {
        final int length = frames.udpFrame(0, 1, 2, 0);
        frames.ip.ihl(Ipv4Flyweight.MAX_IHL);

        assertMalformed(length, ParseReason.BAD_IHL);
    }

    @Test
    void shouldReportTotalLengthBeyondFrame()
    {
        final int length = frames.pfabricUdpFrame(0, TYPE_DATA, 0, 10);
        frames.ip.totalLength(length - 14 + 1);

        assertMalformed(length, ParseReason.IPV4_TOTAL_LENGTH_BEYOND_FRAME);
    }

    @Test
    void shouldReportTotalLengthBelowHeaderLength()
    {
        final int length = frames.pfabricUdpFrame(0, TYPE_DATA, 0, 10);
        frames.ip.totalLength(19);

        assertMalformed(length, ParseReason.IPV4_TOTAL_LENGTH_BEYOND_FRAME);
    }

    @Test
    void shouldReportTruncatedUdp()
    {
        final int length = frames.udpFrame(0, 1, 2, 0);
        frames.ip.totalLength(20 + 7);

        assertMalformed(length, ParseReason.TRUNCATED_UDP);
    }

    @Test
    void shouldReportUdpLengthBelowHeader()
    {
        final int length = frames.udpFrame(0, 1, 2, 10);
        frames.udp.length(7);

        assertMalformed(length, ParseReason.BAD_UDP_LENGTH);
    }

    @Test
    void shouldReportUdpLengthBeyondIpPayload()
    {
        final int length = frames.pfabricUdpFrame(0, TYPE_DATA, 0, 10);
        frames.udp.length(frames.udp.length() + 1);

        assertMalformed(length, ParseReason.BAD_UDP_LENGTH);
    }

    @Test
    void shouldReportTruncatedPfabricOverUdp()
    {
        final int length = frames.udpFrame(0, 1, UdpFlyweight.PFABRIC_DEFAULT_PORT, 31);

        assertMalformed(length, ParseReason.TRUNCATED_PFABRIC);
    }

    @Test
    void shouldReportTruncatedPfabricOverIp()
    {
        final int length = frames.pfabricIpFrame(0, TYPE_DATA, 0, 0);
        frames.ip.totalLength(20 + 31);

        assertMalformed(length, ParseReason.TRUNCATED_PFABRIC);
    }

    @Test
    void shouldReportUnknownPfabricVersion()
    {
        final int length = frames.pfabricUdpFrame(0, TYPE_DATA, 0, 10);
        frames.pfabric.version(2);

        assertMalformed(length, ParseReason.UNKNOWN_PFABRIC_VERSION);
    }

    @Test
    void shouldReportUnknownPfabricType()
    {
        for (final int type : new int[]{ 0, 5, 15 })
        {
            final int length = frames.pfabricUdpFrame(0, TYPE_DATA, 0, 10);
            frames.pfabric.type(type);

            assertMalformed(length, ParseReason.UNKNOWN_PFABRIC_TYPE);
        }
    }

    @Test
    void shouldReportPfabricHeaderLengthBelowMinimum()
    {
        final int length = frames.pfabricUdpFrame(0, TYPE_DATA, 0, 10);
        frames.pfabric.headerLength(31);

        assertMalformed(length, ParseReason.BAD_PFABRIC_HEADER_LENGTH);
    }

    @Test
    void shouldReportPfabricHeaderLengthBeyondPacket()
    {
        final int length = frames.pfabricIpFrame(0, TYPE_DATA, 0, 10);
        frames.pfabric.headerLength(32 + 11).payloadLength(0);

        assertMalformed(length, ParseReason.BAD_PFABRIC_HEADER_LENGTH);
    }

    @Test
    void shouldReportAckHeaderLengthNotMatchingSackCount()
    {
        final int length = frames.pfabricUdpFrame(0, TYPE_ACK, 1, 8);
        frames.pfabric.headerLength(48).payloadLength(0);

        assertMalformed(length, ParseReason.BAD_PFABRIC_HEADER_LENGTH);
    }

    @Test
    void shouldReportSackCountAboveMaximum()
    {
        final int length = frames.pfabricUdpFrame(0, TYPE_ACK, 4, 8);
        frames.pfabric.sackCount(5).headerLength(72).payloadLength(0);

        assertMalformed(length, ParseReason.SACK_COUNT_BEYOND_HEADER);
    }

    @Test
    void shouldReportSackBlocksBeyondHeaderLength()
    {
        final int length = frames.pfabricUdpFrame(0, TYPE_ACK, 2, 0);
        frames.pfabric.sackCount(3);

        assertMalformed(length, ParseReason.SACK_COUNT_BEYOND_HEADER);
    }

    @Test
    void shouldReportSackBlocksInDataHeader()
    {
        final int length = frames.pfabricIpFrame(0, TYPE_DATA, 0, 100);
        frames.pfabric.sackCount(1);

        assertMalformed(length, ParseReason.SACK_COUNT_BEYOND_HEADER);
    }

    @Test
    void shouldReportPayloadLengthBeyondPacket()
    {
        final int length = frames.pfabricUdpFrame(0, TYPE_DATA, 0, 100);
        frames.pfabric.payloadLength(101);

        assertMalformed(length, ParseReason.PAYLOAD_LENGTH_BEYOND_PACKET);
    }

    @Test
    void shouldReportTruncatedArp()
    {
        final int length = frames.arpFrame(0);

        assertMalformed(length - 1, ParseReason.TRUNCATED_ARP);
        assertMalformed(14, ParseReason.TRUNCATED_ARP);
    }

    @Test
    void shouldReportTruncationForEveryPrefixOfAnAckWithSackBlocks()
    {
        for (final boolean overUdp : new boolean[]{ true, false })
        {
            final int length = overUdp ?
                frames.pfabricUdpFrame(0, TYPE_ACK, 4, 0) : frames.pfabricIpFrame(0, TYPE_ACK, 4, 0);
            final byte[] frame = new byte[length];
            buffer.getBytes(0, frame);
            assertEquals(overUdp ? FrameKind.PFABRIC_UDP : FrameKind.PFABRIC_IP, parser.parse(buffer, 0, length));

            for (int prefix = 0; prefix < length; prefix++)
            {
                final UnsafeBuffer exact = new UnsafeBuffer(frame, 0, prefix);
                assertEquals(FrameKind.MALFORMED, parser.parse(exact, 0, prefix), "prefix " + prefix);
                assertTrue(TRUNCATION_REASONS.contains(parser.reason()),
                    "prefix " + prefix + ": " + ParseReason.name(parser.reason()));

                assertEquals(FrameKind.MALFORMED, parser.parse(buffer, 0, prefix), "prefix " + prefix);
                assertTrue(TRUNCATION_REASONS.contains(parser.reason()));
            }
        }
    }

    @Test
    void shouldReportPfabricReasonForEveryConsistentTruncationOfAnAck()
    {
        final int length = frames.pfabricUdpFrame(0, TYPE_ACK, 4, 0);
        final int pfabricOffset = pfabricUdpOffset(0);
        for (int cut = 42; cut < length; cut++)
        {
            frames.pfabricUdpFrame(0, TYPE_ACK, 4, 0);
            frames.ip.totalLength(cut - 14);
            frames.udp.length(cut - 34);

            assertEquals(FrameKind.MALFORMED, parser.parse(buffer, 0, cut), "cut " + cut);
            final int expected = cut - pfabricOffset < PfabricHeaderFlyweight.HEADER_LENGTH ?
                ParseReason.TRUNCATED_PFABRIC : ParseReason.BAD_PFABRIC_HEADER_LENGTH;
            assertEquals(expected, parser.reason(), "cut " + cut);
        }
    }

    @Test
    void shouldNameEveryKindAndReason()
    {
        final Set<String> kindNames = new HashSet<>();
        for (int kind = 0; kind < FrameKind.COUNT; kind++)
        {
            assertTrue(kindNames.add(FrameKind.name(kind)));
            assertNotEquals("UNKNOWN", FrameKind.name(kind));
        }
        assertEquals("UNKNOWN", FrameKind.name(FrameKind.COUNT));

        final Set<String> reasonNames = new HashSet<>();
        for (int reason = 0; reason < ParseReason.COUNT; reason++)
        {
            assertTrue(reasonNames.add(ParseReason.name(reason)));
            assertNotEquals("UNKNOWN", ParseReason.name(reason));
        }
        assertEquals("UNKNOWN", ParseReason.name(ParseReason.COUNT));
        assertEquals("UNKNOWN", ParseReason.name(-1));
    }

    private void assertMalformed(final int length, final int expectedReason)
    {
        assertEquals(FrameKind.MALFORMED, parser.parse(buffer, 0, length));
        assertEquals(ParseReason.name(expectedReason), ParseReason.name(parser.reason()));

        final UnsafeBuffer exact = new UnsafeBuffer(buffer.byteArray(), 0, length);
        assertEquals(FrameKind.MALFORMED, parser.parse(exact, 0, length));
        assertEquals(ParseReason.name(expectedReason), ParseReason.name(parser.reason()));
    }
}
