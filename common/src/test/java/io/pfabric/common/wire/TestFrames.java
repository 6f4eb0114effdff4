package io.pfabric.common.wire;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * Builds valid frames with the flyweights into a buffer, so that tests can break one thing at a time.
 */
final class TestFrames
{
    static final long DESTINATION_MAC = 0x0200_0000_0002L;
    static final long SOURCE_MAC = 0x0200_0000_0001L;
    static final int SOURCE_ADDRESS = 0x0A00_0001;
    static final int DESTINATION_ADDRESS = 0x0A00_0002;
    static final int HOST_ID = 7;
    static final long FLOW_ID = PfabricHeaderFlyweight.flowId(HOST_ID, 0, 42);
    static final long PRIORITY = 123_456L;
    static final long FLOW_SIZE = 1_000_000L;
    static final int SOURCE_PORT = 40_000;
    static final int DSCP = 10;
    static final int TCP_HEADER_LENGTH = 20;

    final MutableDirectBuffer buffer;
    final EthernetFlyweight ethernet = new EthernetFlyweight();
    final Ipv4Flyweight ip = new Ipv4Flyweight();
    final UdpFlyweight udp = new UdpFlyweight();
    final PfabricHeaderFlyweight pfabric = new PfabricHeaderFlyweight();
    final ArpFlyweight arp = new ArpFlyweight();

    TestFrames()
    {
        this(new UnsafeBuffer(new byte[4096]));
    }

    TestFrames(final MutableDirectBuffer buffer)
    {
        this.buffer = buffer;
    }

    /**
     * Write an Ethernet header.
     *
     * @return offset after the header.
     */
    int ethernet(final int offset, final int etherType)
    {
        ethernet.wrap(buffer, offset)
            .destinationMac(DESTINATION_MAC)
            .sourceMac(SOURCE_MAC)
            .etherType(etherType);
        return offset + EthernetFlyweight.HEADER_LENGTH;
    }

    /**
     * Write an IPv4 header with IHL words of header (options zero-filled) and a valid checksum.
     *
     * @return offset of the L4 header.
     */
    int ipv4(final int ipOffset, final int ihl, final int protocol, final int l4Length)
    {
        final int headerLength = ihl * 4;
        buffer.setMemory(ipOffset, headerLength, (byte)0);
        ip.wrap(buffer, ipOffset)
            .version(Ipv4Flyweight.VERSION)
            .ihl(ihl)
            .dscp(DSCP)
            .ecn(Ipv4Flyweight.ECN_ECT0)
            .totalLength(headerLength + l4Length)
            .identification(0x1234)
            .dontFragment(true)
            .ttl(64)
            .protocol(protocol)
            .sourceAddress(SOURCE_ADDRESS)
            .destinationAddress(DESTINATION_ADDRESS)
            .computeChecksum();
        return ipOffset + headerLength;
    }

    /**
     * Write a UDP header.
     *
     * @return offset of the UDP payload.
     */
    int udp(final int udpOffset, final int sourcePort, final int destinationPort, final int payloadLength)
    {
        udp.wrap(buffer, udpOffset)
            .sourcePort(sourcePort)
            .destinationPort(destinationPort)
            .length(UdpFlyweight.HEADER_LENGTH + payloadLength)
            .checksum(UdpFlyweight.NO_CHECKSUM);
        return udpOffset + UdpFlyweight.HEADER_LENGTH;
    }

    /**
     * Length of a pFabric packet of a type, header and payload.
     */
    static int pfabricLength(final int type, final int sackCount, final int payloadLength)
    {
        return pfabricHeaderLength(type, sackCount) + payloadLength;
    }

    static int pfabricHeaderLength(final int type, final int sackCount)
    {
        return PfabricHeaderFlyweight.TYPE_ACK == type ?
            PfabricHeaderFlyweight.HEADER_LENGTH + sackCount * PfabricHeaderFlyweight.SACK_BLOCK_LENGTH :
            PfabricHeaderFlyweight.HEADER_LENGTH;
    }

    /**
     * Write a pFabric header, its SACK blocks and a patterned payload, with a valid checksum.
     *
     * @return offset after the payload.
     */
    int pfabric(final int pfabricOffset, final int type, final int sackCount, final int payloadLength)
    {
        final int headerLength = pfabricHeaderLength(type, sackCount);
        pfabric.wrap(buffer, pfabricOffset)
            .version(PfabricHeaderFlyweight.VERSION)
            .type(type)
            .flags(0)
            .headerLength(headerLength)
            .priority(PfabricHeaderFlyweight.TYPE_ACK == type ? 0 : PRIORITY)
            .flowId(FLOW_ID)
            .segmentOffset(14_600)
            .flowSize(FLOW_SIZE)
            .payloadLength(payloadLength)
            .sackCount(sackCount)
            .pathHint(0);
        for (int i = 0; i < sackCount; i++)
        {
            pfabric.sackBlock(i, 20_000L + i * 3_000L, 21_460L + i * 3_000L);
        }
        for (int i = 0; i < payloadLength; i++)
        {
            buffer.putByte(pfabricOffset + headerLength + i, (byte)(i * 31 + 7));
        }
        pfabric.computeChecksum(payloadLength);
        return pfabricOffset + headerLength + payloadLength;
    }

    /**
     * A frame carrying pFabric directly in IPv4.
     *
     * @return the frame length.
     */
    int pfabricIpFrame(final int offset, final int type, final int sackCount, final int payloadLength)
    {
        final int ipOffset = ethernet(offset, EthernetFlyweight.ETHERTYPE_IPV4);
        final int l4 = ipv4(ipOffset, Ipv4Flyweight.MIN_IHL, Ipv4Flyweight.PROTOCOL_PFABRIC,
            pfabricLength(type, sackCount, payloadLength));
        return pfabric(l4, type, sackCount, payloadLength) - offset;
    }

    /**
     * A frame carrying pFabric in UDP to a port.
     *
     * @return the frame length.
     */
    int pfabricUdpFrame(
        final int offset, final int port, final int type, final int sackCount, final int payloadLength)
    {
        final int pfabricLength = pfabricLength(type, sackCount, payloadLength);
        final int ipOffset = ethernet(offset, EthernetFlyweight.ETHERTYPE_IPV4);
        final int l4 = ipv4(ipOffset, Ipv4Flyweight.MIN_IHL, Ipv4Flyweight.PROTOCOL_UDP,
            UdpFlyweight.HEADER_LENGTH + pfabricLength);
        final int payload = udp(l4, SOURCE_PORT, port, pfabricLength);
        return pfabric(payload, type, sackCount, payloadLength) - offset;
    }

    /**
     * A frame carrying pFabric in UDP to the default port.
     *
     * @return the frame length.
     */
    int pfabricUdpFrame(final int offset, final int type, final int sackCount, final int payloadLength)
    {
        return pfabricUdpFrame(offset, UdpFlyweight.PFABRIC_DEFAULT_PORT, type, sackCount, payloadLength);
    }

    /**
     * An ordinary UDP datagram.
     *
     * @return the frame length.
     */
    int udpFrame(final int offset, final int sourcePort, final int destinationPort, final int payloadLength)
    {
        final int ipOffset = ethernet(offset, EthernetFlyweight.ETHERTYPE_IPV4);
        final int l4 = ipv4(ipOffset, Ipv4Flyweight.MIN_IHL, Ipv4Flyweight.PROTOCOL_UDP,
            UdpFlyweight.HEADER_LENGTH + payloadLength);
        final int payload = udp(l4, sourcePort, destinationPort, payloadLength);
        buffer.setMemory(payload, payloadLength, (byte)0x5A);
        return payload + payloadLength - offset;
    }

    /**
     * A TCP segment with a zeroed 20-byte header apart from the ports.
     *
     * @return the frame length.
     */
    int tcpFrame(final int offset, final int sourcePort, final int destinationPort, final int payloadLength)
    {
        final int ipOffset = ethernet(offset, EthernetFlyweight.ETHERTYPE_IPV4);
        final int l4 = ipv4(ipOffset, Ipv4Flyweight.MIN_IHL, Ipv4Flyweight.PROTOCOL_TCP,
            TCP_HEADER_LENGTH + payloadLength);
        buffer.setMemory(l4, TCP_HEADER_LENGTH + payloadLength, (byte)0);
        buffer.putShort(l4, (short)sourcePort, BIG_ENDIAN);
        buffer.putShort(l4 + 2, (short)destinationPort, BIG_ENDIAN);
        return l4 + TCP_HEADER_LENGTH + payloadLength - offset;
    }

    /**
     * An ARP request, not padded.
     *
     * @return the frame length.
     */
    int arpFrame(final int offset)
    {
        final int arpOffset = ethernet(offset, EthernetFlyweight.ETHERTYPE_ARP);
        ethernet.destinationMac(EthernetFlyweight.BROADCAST_MAC);
        arp.wrap(buffer, arpOffset)
            .ipv4OverEthernet()
            .operation(ArpFlyweight.OPERATION_REQUEST)
            .senderMac(SOURCE_MAC)
            .senderAddress(SOURCE_ADDRESS)
            .targetMac(0)
            .targetAddress(DESTINATION_ADDRESS);
        return arpOffset + ArpFlyweight.HEADER_LENGTH - offset;
    }

    /**
     * A frame of another EtherType with a zeroed payload.
     *
     * @return the frame length.
     */
    int otherFrame(final int offset, final int etherType, final int payloadLength)
    {
        final int payload = ethernet(offset, etherType);
        buffer.setMemory(payload, payloadLength, (byte)0);
        return payload + payloadLength - offset;
    }

    /**
     * Offset of the pFabric header in a frame built by {@link #pfabricUdpFrame}.
     */
    static int pfabricUdpOffset(final int frameOffset)
    {
        return frameOffset + EthernetFlyweight.HEADER_LENGTH + Ipv4Flyweight.HEADER_LENGTH + UdpFlyweight.HEADER_LENGTH;
    }

    /**
     * Offset of the pFabric header in a frame built by {@link #pfabricIpFrame}.
     */
    static int pfabricIpOffset(final int frameOffset)
    {
        return frameOffset + EthernetFlyweight.HEADER_LENGTH + Ipv4Flyweight.HEADER_LENGTH;
    }

    /**
     * Offset of the IPv4 header in any frame built here.
     */
    static int ipOffset(final int frameOffset)
    {
        return frameOffset + EthernetFlyweight.HEADER_LENGTH;
    }

    /**
     * Offset of the L4 header in any IPv4 frame built here without options.
     */
    static int l4Offset(final int frameOffset)
    {
        return frameOffset + EthernetFlyweight.HEADER_LENGTH + Ipv4Flyweight.HEADER_LENGTH;
    }
}
