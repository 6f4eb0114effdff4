package io.pfabric.common.wire;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pins every offset constant and the byte positions of every field, so that the layout cannot drift.
 */
class WireLayoutTest
{
    private static final int BASE = 5;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);

    @Test
    void shouldPinEthernetLayout()
    {
        assertEquals(14, EthernetFlyweight.HEADER_LENGTH);
        assertEquals(6, EthernetFlyweight.MAC_LENGTH);
        assertEquals(0, EthernetFlyweight.DESTINATION_MAC_FIELD_OFFSET);
        assertEquals(6, EthernetFlyweight.SOURCE_MAC_FIELD_OFFSET);
        assertEquals(12, EthernetFlyweight.ETHERTYPE_FIELD_OFFSET);
        assertEquals(0x0800, EthernetFlyweight.ETHERTYPE_IPV4);
        assertEquals(0x0806, EthernetFlyweight.ETHERTYPE_ARP);

        new EthernetFlyweight().wrap(buffer, BASE)
            .destinationMac(0x0102_0304_0506L)
            .sourceMac(0x0708_090A_0B0CL)
            .etherType(0x0D0E);

        assertBytes(0, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E);
    }

    @Test
    void shouldPinIpv4Layout()
    {
        assertEquals(20, Ipv4Flyweight.HEADER_LENGTH);
        assertEquals(0, Ipv4Flyweight.VERSION_IHL_FIELD_OFFSET);
        assertEquals(1, Ipv4Flyweight.DSCP_ECN_FIELD_OFFSET);
        assertEquals(2, Ipv4Flyweight.TOTAL_LENGTH_FIELD_OFFSET);
        assertEquals(4, Ipv4Flyweight.IDENTIFICATION_FIELD_OFFSET);
        assertEquals(6, Ipv4Flyweight.FLAGS_FRAGMENT_OFFSET_FIELD_OFFSET);
        assertEquals(8, Ipv4Flyweight.TTL_FIELD_OFFSET);
        assertEquals(9, Ipv4Flyweight.PROTOCOL_FIELD_OFFSET);
        assertEquals(10, Ipv4Flyweight.HEADER_CHECKSUM_FIELD_OFFSET);
        assertEquals(12, Ipv4Flyweight.SOURCE_ADDRESS_FIELD_OFFSET);
        assertEquals(16, Ipv4Flyweight.DESTINATION_ADDRESS_FIELD_OFFSET);
        assertEquals(6, Ipv4Flyweight.PROTOCOL_TCP);
        assertEquals(17, Ipv4Flyweight.PROTOCOL_UDP);
        assertEquals(253, Ipv4Flyweight.PROTOCOL_PFABRIC);
        assertEquals(0, Ipv4Flyweight.ECN_NOT_ECT);
        assertEquals(1, Ipv4Flyweight.ECN_ECT1);
        assertEquals(2, Ipv4Flyweight.ECN_ECT0);
        assertEquals(3, Ipv4Flyweight.ECN_CE);

        new Ipv4Flyweight().wrap(buffer, BASE)
            .version(4)
            .ihl(5)
            .dscp(0x2E)
            .ecn(Ipv4Flyweight.ECN_ECT1)
            .totalLength(0x0102)
            .identification(0x0304)
            .dontFragment(true)
            .moreFragments(true)
            .fragmentOffset(0x0ABC)
            .ttl(0x40)
            .protocol(0xFD)
            .headerChecksum(0x0708)
            .sourceAddress(0x0A0B_0C0D)
            .destinationAddress(0x0E0F_1011);

        assertBytes(0, 0x45, 0xB9, 0x01, 0x02, 0x03, 0x04, 0x6A, 0xBC, 0x40, 0xFD, 0x07, 0x08,
            0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x10, 0x11);
    }

    @Test
    void shouldPinUdpLayout()
    {
        assertEquals(8, UdpFlyweight.HEADER_LENGTH);
        assertEquals(0, UdpFlyweight.SOURCE_PORT_FIELD_OFFSET);
        assertEquals(2, UdpFlyweight.DESTINATION_PORT_FIELD_OFFSET);
        assertEquals(4, UdpFlyweight.LENGTH_FIELD_OFFSET);
        assertEquals(6, UdpFlyweight.CHECKSUM_FIELD_OFFSET);
        assertEquals(7253, UdpFlyweight.PFABRIC_DEFAULT_PORT);
        assertEquals(4789, UdpFlyweight.VXLAN_PORT);

        new UdpFlyweight().wrap(buffer, BASE).sourcePort(0x0102).destinationPort(0x0304).length(0x0506)
            .checksum(0x0708);

        assertBytes(0, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08);
    }

    @Test
    void shouldPinVxlanLayout()
    {
        assertEquals(8, VxlanFlyweight.HEADER_LENGTH);
        assertEquals(0, VxlanFlyweight.FLAGS_FIELD_OFFSET);
        assertEquals(4, VxlanFlyweight.VNI_FIELD_OFFSET);
        assertEquals(0x08, VxlanFlyweight.FLAG_VNI_VALID);

        new VxlanFlyweight().wrap(buffer, BASE).flags(VxlanFlyweight.FLAG_VNI_VALID).vni(0x01_0203);

        assertBytes(0, 0x08, 0x00, 0x00, 0x00, 0x01, 0x02, 0x03, 0x00);
    }

    @Test
    void shouldPinArpLayout()
    {
        assertEquals(28, ArpFlyweight.HEADER_LENGTH);
        assertEquals(0, ArpFlyweight.HARDWARE_TYPE_FIELD_OFFSET);
        assertEquals(2, ArpFlyweight.PROTOCOL_TYPE_FIELD_OFFSET);
        assertEquals(4, ArpFlyweight.HARDWARE_LENGTH_FIELD_OFFSET);
        assertEquals(5, ArpFlyweight.PROTOCOL_LENGTH_FIELD_OFFSET);
        assertEquals(6, ArpFlyweight.OPERATION_FIELD_OFFSET);
        assertEquals(8, ArpFlyweight.SENDER_MAC_FIELD_OFFSET);
        assertEquals(14, ArpFlyweight.SENDER_ADDRESS_FIELD_OFFSET);
        assertEquals(18, ArpFlyweight.TARGET_MAC_FIELD_OFFSET);
        assertEquals(24, ArpFlyweight.TARGET_ADDRESS_FIELD_OFFSET);

        new ArpFlyweight().wrap(buffer, BASE)
            .ipv4OverEthernet()
            .operation(ArpFlyweight.OPERATION_REPLY)
            .senderMac(0x1112_1314_1516L)
            .senderAddress(0x1718_191A)
            .targetMac(0x2122_2324_2526L)
            .targetAddress(0x2728_292A);

        assertBytes(0, 0x00, 0x01, 0x08, 0x00, 0x06, 0x04, 0x00, 0x02,
            0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1A,
            0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2A);
    }

    @Test
    void shouldPinPfabricLayout()
    {
        assertEquals(1, PfabricHeaderFlyweight.VERSION);
        assertEquals(32, PfabricHeaderFlyweight.HEADER_LENGTH);
        assertEquals(4, PfabricHeaderFlyweight.MAX_SACK_BLOCKS);
        assertEquals(8, PfabricHeaderFlyweight.SACK_BLOCK_LENGTH);
        assertEquals(64, PfabricHeaderFlyweight.ACK_MAX_HEADER_LENGTH);
        assertEquals(1, PfabricHeaderFlyweight.TYPE_DATA);
        assertEquals(2, PfabricHeaderFlyweight.TYPE_ACK);
        assertEquals(3, PfabricHeaderFlyweight.TYPE_PROBE);
        assertEquals(4, PfabricHeaderFlyweight.TYPE_CONTROL);
        assertEquals(0x01, PfabricHeaderFlyweight.FLAG_PATH);
        assertEquals(0x02, PfabricHeaderFlyweight.FLAG_FIN);
        assertEquals(0x04, PfabricHeaderFlyweight.FLAG_INCARNATION);
        assertEquals(0x08, PfabricHeaderFlyweight.FLAG_DEADLINE);
        assertEquals(0, PfabricHeaderFlyweight.VERSION_TYPE_FIELD_OFFSET);
        assertEquals(1, PfabricHeaderFlyweight.FLAGS_FIELD_OFFSET);
        assertEquals(2, PfabricHeaderFlyweight.HEADER_LENGTH_FIELD_OFFSET);
        assertEquals(4, PfabricHeaderFlyweight.PRIORITY_FIELD_OFFSET);
        assertEquals(8, PfabricHeaderFlyweight.FLOW_ID_FIELD_OFFSET);
        assertEquals(16, PfabricHeaderFlyweight.SEGMENT_OFFSET_FIELD_OFFSET);
        assertEquals(16, PfabricHeaderFlyweight.ACK_FIELD_OFFSET);
        assertEquals(20, PfabricHeaderFlyweight.FLOW_SIZE_FIELD_OFFSET);
        assertEquals(20, PfabricHeaderFlyweight.RECEIVER_INCARNATION_FIELD_OFFSET);
        assertEquals(24, PfabricHeaderFlyweight.PAYLOAD_LENGTH_FIELD_OFFSET);
        assertEquals(26, PfabricHeaderFlyweight.SACK_COUNT_FIELD_OFFSET);
        assertEquals(27, PfabricHeaderFlyweight.PATH_HINT_FIELD_OFFSET);
        assertEquals(28, PfabricHeaderFlyweight.CHECKSUM_FIELD_OFFSET);
        assertEquals(32, PfabricHeaderFlyweight.SACK_BLOCKS_FIELD_OFFSET);
        assertEquals(38, PfabricHeaderFlyweight.PRIORITY_FRAME_OFFSET_IP);
        assertEquals(46, PfabricHeaderFlyweight.PRIORITY_FRAME_OFFSET_UDP);

        final PfabricHeaderFlyweight header = new PfabricHeaderFlyweight().wrap(buffer, BASE)
            .version(PfabricHeaderFlyweight.VERSION)
            .type(PfabricHeaderFlyweight.TYPE_ACK)
            .flags(PfabricHeaderFlyweight.FLAG_PATH | PfabricHeaderFlyweight.FLAG_FIN)
            .headerLength(0x0040)
            .priority(0x1122_3344L)
            .flowId(0x0102_0304_0506_0708L)
            .ack(0xA1A2_A3A4L)
            .flowSize(0xB1B2_B3B4L)
            .payloadLength(0xC1C2)
            .sackCount(4)
            .pathHint(0x09)
            .checksum(0xD1D2_D3D4L);
        for (int i = 0; i < PfabricHeaderFlyweight.MAX_SACK_BLOCKS; i++)
        {
            header.sackBlock(i, 0xE0E1_E2E0L + i, 0xF0F1_F2F0L + i);
        }

        assertBytes(0, 0x12, 0x03, 0x00, 0x40, 0x11, 0x22, 0x33, 0x44,
            0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
            0xA1, 0xA2, 0xA3, 0xA4, 0xB1, 0xB2, 0xB3, 0xB4,
            0xC1, 0xC2, 0x04, 0x09, 0xD1, 0xD2, 0xD3, 0xD4);
        for (int i = 0; i < PfabricHeaderFlyweight.MAX_SACK_BLOCKS; i++)
        {
            assertBytes(32 + 8 * i, 0xE0, 0xE1, 0xE2, 0xE0 + i, 0xF0, 0xF1, 0xF2, 0xF0 + i);
        }
    }

    @Test
    void shouldPinTheReceiverIncarnationOfAnAckInTheFlowSizesPlace()
    {
        final PfabricHeaderFlyweight header = new PfabricHeaderFlyweight().wrap(buffer, BASE)
            .flowSize(0xB1B2_B3B4L)
            .flags(0)
            .incarnationFlag(true)
            .receiverIncarnation(0x1_ABCD);

        assertBytes(1, PfabricHeaderFlyweight.FLAG_INCARNATION);
        assertBytes(20, 0xAB, 0xCD, 0x00, 0x00);
        assertTrue(header.incarnationFlag());
        assertEquals(0xABCD, header.receiverIncarnation());
        assertFalse(header.incarnationFlag(false).incarnationFlag());
        assertTrue(header.deadlineFlag(true).deadlineFlag());
        assertBytes(1, PfabricHeaderFlyweight.FLAG_DEADLINE);
        assertFalse(header.deadlineFlag(false).deadlineFlag());
    }

    @Test
    void shouldFindPriorityAtFixedFrameOffsetsOfBuiltFrames()
    {
        final TestFrames frames = new TestFrames(buffer);
        final FrameParser parser = new FrameParser();

        final int ipLength = frames.pfabricIpFrame(BASE, PfabricHeaderFlyweight.TYPE_DATA, 0, 10);
        assertEquals(FrameKind.PFABRIC_IP, parser.parse(buffer, BASE, ipLength));
        assertEquals(BASE + PfabricHeaderFlyweight.PRIORITY_FRAME_OFFSET_IP,
            parser.pfabricOffset() + PfabricHeaderFlyweight.PRIORITY_FIELD_OFFSET);
        assertEquals(TestFrames.PRIORITY, PfabricHeaderFlyweight.priorityAtFrameOffset(
            buffer, BASE, PfabricHeaderFlyweight.PRIORITY_FRAME_OFFSET_IP));
        assertEquals(TestFrames.PRIORITY, parser.priority());

        final int udpLength = frames.pfabricUdpFrame(BASE, PfabricHeaderFlyweight.TYPE_DATA, 0, 10);
        assertEquals(FrameKind.PFABRIC_UDP, parser.parse(buffer, BASE, udpLength));
        assertEquals(BASE + PfabricHeaderFlyweight.PRIORITY_FRAME_OFFSET_UDP,
            parser.pfabricOffset() + PfabricHeaderFlyweight.PRIORITY_FIELD_OFFSET);
        assertEquals(TestFrames.PRIORITY, PfabricHeaderFlyweight.priorityAtFrameOffset(
            buffer, BASE, PfabricHeaderFlyweight.PRIORITY_FRAME_OFFSET_UDP));
        assertEquals(TestFrames.PRIORITY, parser.priority());
    }

    private void assertBytes(final int fieldOffset, final int... expected)
    {
        for (int i = 0; i < expected.length; i++)
        {
            assertEquals(expected[i], buffer.getByte(BASE + fieldOffset + i) & 0xFF, "byte " + (fieldOffset + i));
        }
    }
}
