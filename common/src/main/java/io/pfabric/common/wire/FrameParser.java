package io.pfabric.common.wire;

import org.agrona.DirectBuffer;

import static io.pfabric.common.wire.EthernetFlyweight.ETHERTYPE_ARP;
import static io.pfabric.common.wire.EthernetFlyweight.ETHERTYPE_FIELD_OFFSET;
import static io.pfabric.common.wire.EthernetFlyweight.ETHERTYPE_IPV4;
import static io.pfabric.common.wire.Ipv4Flyweight.DESTINATION_ADDRESS_FIELD_OFFSET;
import static io.pfabric.common.wire.Ipv4Flyweight.DSCP_ECN_FIELD_OFFSET;
import static io.pfabric.common.wire.Ipv4Flyweight.FLAGS_FRAGMENT_OFFSET_FIELD_OFFSET;
import static io.pfabric.common.wire.Ipv4Flyweight.FRAGMENT_OFFSET_MASK;
import static io.pfabric.common.wire.Ipv4Flyweight.MORE_FRAGMENTS_FLAG;
import static io.pfabric.common.wire.Ipv4Flyweight.PROTOCOL_FIELD_OFFSET;
import static io.pfabric.common.wire.Ipv4Flyweight.PROTOCOL_PFABRIC;
import static io.pfabric.common.wire.Ipv4Flyweight.PROTOCOL_TCP;
import static io.pfabric.common.wire.Ipv4Flyweight.PROTOCOL_UDP;
import static io.pfabric.common.wire.Ipv4Flyweight.SOURCE_ADDRESS_FIELD_OFFSET;
import static io.pfabric.common.wire.Ipv4Flyweight.TOTAL_LENGTH_FIELD_OFFSET;
import static io.pfabric.common.wire.Ipv4Flyweight.VERSION_IHL_FIELD_OFFSET;
import static io.pfabric.common.wire.PfabricHeaderFlyweight.FLAGS_FIELD_OFFSET;
import static io.pfabric.common.wire.PfabricHeaderFlyweight.FLAG_PATH;
import static io.pfabric.common.wire.PfabricHeaderFlyweight.FLOW_ID_FIELD_OFFSET;
import static io.pfabric.common.wire.PfabricHeaderFlyweight.HEADER_LENGTH_FIELD_OFFSET;
import static io.pfabric.common.wire.PfabricHeaderFlyweight.MAX_PRIORITY;
import static io.pfabric.common.wire.PfabricHeaderFlyweight.MAX_SACK_BLOCKS;
import static io.pfabric.common.wire.PfabricHeaderFlyweight.PATH_HINT_FIELD_OFFSET;
import static io.pfabric.common.wire.PfabricHeaderFlyweight.PAYLOAD_LENGTH_FIELD_OFFSET;
import static io.pfabric.common.wire.PfabricHeaderFlyweight.PRIORITY_FIELD_OFFSET;
import static io.pfabric.common.wire.PfabricHeaderFlyweight.SACK_BLOCK_LENGTH;
import static io.pfabric.common.wire.PfabricHeaderFlyweight.SACK_COUNT_FIELD_OFFSET;
import static io.pfabric.common.wire.PfabricHeaderFlyweight.TYPE_ACK;
import static io.pfabric.common.wire.PfabricHeaderFlyweight.TYPE_CONTROL;
import static io.pfabric.common.wire.PfabricHeaderFlyweight.TYPE_DATA;
import static io.pfabric.common.wire.PfabricHeaderFlyweight.VERSION_TYPE_FIELD_OFFSET;
import static io.pfabric.common.wire.UdpFlyweight.DESTINATION_PORT_FIELD_OFFSET;
import static io.pfabric.common.wire.UdpFlyweight.LENGTH_FIELD_OFFSET;
import static io.pfabric.common.wire.UdpFlyweight.SOURCE_PORT_FIELD_OFFSET;
import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * Classifies a received Ethernet frame in one pass and exposes what the switch and the hosts need from it, with no
 * allocation and no exception for any input.
 * <p>
 * One instance per thread; {@link #parse(DirectBuffer, int, int)} overwrites the previous result. The checks, in
 * order, are those of {@link ParseReason}; the first that fails makes the frame {@link FrameKind#MALFORMED}. After a
 * MALFORMED result only {@link #kind()} and {@link #reason()} are meaningful: the other accessors hold whatever was
 * read before the failing check.
 * <ul>
 *     <li>The IPv4 total length ends the packet: bytes after it (Ethernet padding to 60 bytes) are ignored.</li>
 *     <li>IPv4 options are allowed: the L4 header is at {@code ipOffset + IHL × 4}, so {@link #priority()} is right
 *     even where the fixed frame offsets of {@link PfabricHeaderFlyweight#PRIORITY_FRAME_OFFSET_IP} and
 *     {@link PfabricHeaderFlyweight#PRIORITY_FRAME_OFFSET_UDP} do not apply.</li>
 *     <li>Non-first fragments (fragment offset ≠ 0) carry no L4 header and are {@link FrameKind#IPV4_OTHER} with
 *     ports 0, whatever their protocol. A first fragment of ordinary UDP may have a UDP length beyond its IP
 *     payload.</li>
 *     <li>UDP is pFabric when its destination port is the configured pFabric port; TCP and other UDP expose their
 *     ports so that {@link #flowHash()} tells flows apart.</li>
 *     <li>Checksums are not verified here; see {@link Ipv4Flyweight#checksumValid()} and
 *     {@link PfabricHeaderFlyweight#checksumValid()}.</li>
 * </ul>
 */
public final class FrameParser
{
    /**
     * Offset reported for a header the frame does not have.
     */
    public static final int ABSENT = -1;

    private static final int ETHERNET_HEADER_LENGTH = EthernetFlyweight.HEADER_LENGTH;
    private static final int IPV4_MIN_HEADER_LENGTH = Ipv4Flyweight.HEADER_LENGTH;
    private static final int UDP_HEADER_LENGTH = UdpFlyweight.HEADER_LENGTH;
    private static final int PFABRIC_HEADER_LENGTH = PfabricHeaderFlyweight.HEADER_LENGTH;

    private final int pfabricUdpPort;

    private int kind;
    private int reason;
    private int ipOffset;
    private int ipTotalLength;
    private int l4Offset;
    private int pfabricOffset;
    private int pfabricType;
    private int pfabricFlags;
    private int pfabricPayloadLength;
    private int pathHint;
    private int dscp;
    private int ecn;
    private int ipProtocol;
    private int sourceAddress;
    private int destinationAddress;
    private int sourcePort;
    private int destinationPort;
    private long priority;
    private long flowId;
    private long flowHash;

    /**
     * Create a parser for pFabric over UDP on {@link UdpFlyweight#PFABRIC_DEFAULT_PORT}.
     */
    public FrameParser()
    {
        this(UdpFlyweight.PFABRIC_DEFAULT_PORT);
    }

    /**
     * Create a parser.
     *
     * @param pfabricUdpPort UDP destination port that marks pFabric packets, 1 to 65535.
     */
    public FrameParser(final int pfabricUdpPort)
    {
        if (pfabricUdpPort < 1 || pfabricUdpPort > 0xFFFF)
        {
            throw new IllegalArgumentException("pFabric UDP port out of range: " + pfabricUdpPort);
        }
        this.pfabricUdpPort = pfabricUdpPort;
        reset();
    }

    /**
     * UDP destination port that marks pFabric packets.
     *
     * @return the configured port.
     */
    public int pfabricUdpPort()
    {
        return pfabricUdpPort;
    }

    /**
     * Parse a frame.
     *
     * @param buffer holding the frame.
     * @param offset of the Ethernet header in the buffer.
     * @param length of the frame in bytes; bytes beyond the buffer's capacity are taken as absent.
     * @return the {@link FrameKind} of the frame, also given by {@link #kind()}.
     */
    public int parse(final DirectBuffer buffer, final int offset, final int length)
    {
        reset();
        final int capacity = buffer.capacity();
        if (offset < 0 || length < ETHERNET_HEADER_LENGTH || offset > capacity - ETHERNET_HEADER_LENGTH)
        {
            return malformed(ParseReason.TRUNCATED_ETHERNET);
        }

        final int frameLength = Math.min(length, capacity - offset);
        final int etherType = buffer.getShort(offset + ETHERTYPE_FIELD_OFFSET, BIG_ENDIAN) & 0xFFFF;
        if (ETHERTYPE_IPV4 == etherType)
        {
            return parseIpv4(buffer, offset + ETHERNET_HEADER_LENGTH, frameLength - ETHERNET_HEADER_LENGTH);
        }
        if (ETHERTYPE_ARP == etherType)
        {
            if (frameLength - ETHERNET_HEADER_LENGTH < ArpFlyweight.HEADER_LENGTH)
            {
                return malformed(ParseReason.TRUNCATED_ARP);
            }
            return accept(FrameKind.ARP);
        }

        return accept(FrameKind.OTHER);
    }

    /**
     * Kind of the last frame parsed.
     *
     * @return a {@link FrameKind} constant.
     */
    public int kind()
    {
        return kind;
    }

    /**
     * Why the last frame was malformed.
     *
     * @return a {@link ParseReason} constant, {@link ParseReason#NONE} unless the kind is MALFORMED.
     */
    public int reason()
    {
        return reason;
    }

    /**
     * Offset of the IPv4 header in the buffer.
     *
     * @return the offset, or {@link #ABSENT} for frames that are not IPv4.
     */
    public int ipOffset()
    {
        return ipOffset;
    }

    /**
     * IPv4 total length: the packet ends at {@code ipOffset() + ipTotalLength()}.
     *
     * @return total length in bytes, 0 for frames that are not IPv4.
     */
    public int ipTotalLength()
    {
        return ipTotalLength;
    }

    /**
     * Offset of the L4 header (UDP, TCP, pFabric over IP, ICMP, ...) in the buffer.
     *
     * @return the offset, or {@link #ABSENT} for frames that are not IPv4 and for non-first fragments.
     */
    public int l4Offset()
    {
        return l4Offset;
    }

    /**
     * Offset of the pFabric header in the buffer.
     *
     * @return the offset, or {@link #ABSENT} unless the kind is PFABRIC_IP or PFABRIC_UDP.
     */
    public int pfabricOffset()
    {
        return pfabricOffset;
    }

    /**
     * pFabric packet type.
     *
     * @return a {@code PfabricHeaderFlyweight.TYPE_*} constant, 0 for frames that are not pFabric.
     */
    public int pfabricType()
    {
        return pfabricType;
    }

    /**
     * pFabric flags.
     *
     * @return the unsigned 8-bit flags, 0 for frames that are not pFabric.
     */
    public int pfabricFlags()
    {
        return pfabricFlags;
    }

    /**
     * Bytes of payload after the pFabric header.
     *
     * @return the header's payload length, 0 for frames that are not pFabric.
     */
    public int pfabricPayloadLength()
    {
        return pfabricPayloadLength;
    }

    /**
     * Spine index the sender asks for.
     *
     * @return the path hint when the PATH flag is set, else -1.
     */
    public int pathHint()
    {
        return pathHint;
    }

    /**
     * pFabric priority, right whatever the IPv4 header length.
     *
     * @return the unsigned 32-bit priority for pFabric packets; {@link PfabricHeaderFlyweight#MAX_PRIORITY}, the
     * least urgent, for all other frames, which are prioritised by kind or DSCP instead.
     */
    public long priority()
    {
        return priority;
    }

    /**
     * pFabric flow id.
     *
     * @return the flow id for pFabric packets, else 0.
     */
    public long flowId()
    {
        return flowId;
    }

    /**
     * A flow identity for queueing: the pFabric flow id for pFabric packets, a 64-bit mix of (source address,
     * destination address, protocol, source port, destination port) for other IPv4 packets, 0 for frames that are
     * not IPv4.
     *
     * @return the flow identity.
     */
    public long flowHash()
    {
        return flowHash;
    }

    /**
     * IPv4 DSCP.
     *
     * @return the 6-bit DSCP, 0 for frames that are not IPv4.
     */
    public int dscp()
    {
        return dscp;
    }

    /**
     * IPv4 ECN codepoint.
     *
     * @return the 2-bit ECN field, 0 (Not-ECT) for frames that are not IPv4.
     */
    public int ecn()
    {
        return ecn;
    }

    /**
     * IPv4 protocol.
     *
     * @return the protocol number, 0 for frames that are not IPv4.
     */
    public int ipProtocol()
    {
        return ipProtocol;
    }

    /**
     * IPv4 source address.
     *
     * @return the address in network order, 0 for frames that are not IPv4.
     */
    public int sourceAddress()
    {
        return sourceAddress;
    }

    /**
     * IPv4 destination address.
     *
     * @return the address in network order, 0 for frames that are not IPv4.
     */
    public int destinationAddress()
    {
        return destinationAddress;
    }

    /**
     * UDP or TCP source port.
     *
     * @return the port, 0 for other frames and non-first fragments.
     */
    public int sourcePort()
    {
        return sourcePort;
    }

    /**
     * UDP or TCP destination port.
     *
     * @return the port, 0 for other frames and non-first fragments.
     */
    public int destinationPort()
    {
        return destinationPort;
    }

    private int parseIpv4(final DirectBuffer buffer, final int ip, final int available)
    {
        ipOffset = ip;
        if (available < IPV4_MIN_HEADER_LENGTH)
        {
            return malformed(ParseReason.TRUNCATED_IPV4);
        }

        final int versionIhl = buffer.getByte(ip + VERSION_IHL_FIELD_OFFSET) & 0xFF;
        if (Ipv4Flyweight.VERSION != versionIhl >>> 4)
        {
            return malformed(ParseReason.BAD_IPV4_VERSION);
        }

        final int headerLength = (versionIhl & 0xF) << 2;
        if (headerLength < IPV4_MIN_HEADER_LENGTH || headerLength > available)
        {
            return malformed(ParseReason.BAD_IHL);
        }

        final int totalLength = buffer.getShort(ip + TOTAL_LENGTH_FIELD_OFFSET, BIG_ENDIAN) & 0xFFFF;
        if (totalLength > available || totalLength < headerLength)
        {
            return malformed(ParseReason.IPV4_TOTAL_LENGTH_BEYOND_FRAME);
        }

        final int dscpEcn = buffer.getByte(ip + DSCP_ECN_FIELD_OFFSET) & 0xFF;
        dscp = dscpEcn >>> 2;
        ecn = dscpEcn & 0x3;
        ipTotalLength = totalLength;
        ipProtocol = buffer.getByte(ip + PROTOCOL_FIELD_OFFSET) & 0xFF;
        sourceAddress = buffer.getInt(ip + SOURCE_ADDRESS_FIELD_OFFSET, BIG_ENDIAN);
        destinationAddress = buffer.getInt(ip + DESTINATION_ADDRESS_FIELD_OFFSET, BIG_ENDIAN);

        final int fragment = buffer.getShort(ip + FLAGS_FRAGMENT_OFFSET_FIELD_OFFSET, BIG_ENDIAN) & 0xFFFF;
        if (0 != (fragment & FRAGMENT_OFFSET_MASK))
        {
            return acceptIpv4Other();
        }

        final int l4 = ip + headerLength;
        final int l4Length = totalLength - headerLength;
        l4Offset = l4;
        if (PROTOCOL_PFABRIC == ipProtocol)
        {
            return parsePfabric(buffer, l4, l4Length, FrameKind.PFABRIC_IP);
        }
        if (PROTOCOL_UDP == ipProtocol)
        {
            return parseUdp(buffer, l4, l4Length, 0 != (fragment & MORE_FRAGMENTS_FLAG));
        }
        if (PROTOCOL_TCP == ipProtocol && l4Length >= 4)
        {
            sourcePort = buffer.getShort(l4, BIG_ENDIAN) & 0xFFFF;
            destinationPort = buffer.getShort(l4 + 2, BIG_ENDIAN) & 0xFFFF;
        }

        return acceptIpv4Other();
    }

    private int parseUdp(final DirectBuffer buffer, final int udp, final int available, final boolean moreFragments)
    {
        if (available < UDP_HEADER_LENGTH)
        {
            return malformed(ParseReason.TRUNCATED_UDP);
        }

        sourcePort = buffer.getShort(udp + SOURCE_PORT_FIELD_OFFSET, BIG_ENDIAN) & 0xFFFF;
        destinationPort = buffer.getShort(udp + DESTINATION_PORT_FIELD_OFFSET, BIG_ENDIAN) & 0xFFFF;
        final int udpLength = buffer.getShort(udp + LENGTH_FIELD_OFFSET, BIG_ENDIAN) & 0xFFFF;
        final boolean isPfabric = pfabricUdpPort == destinationPort;
        if (udpLength < UDP_HEADER_LENGTH || (udpLength > available && (isPfabric || !moreFragments)))
        {
            return malformed(ParseReason.BAD_UDP_LENGTH);
        }

        if (isPfabric)
        {
            return parsePfabric(buffer, udp + UDP_HEADER_LENGTH, udpLength - UDP_HEADER_LENGTH, FrameKind.PFABRIC_UDP);
        }

        return acceptIpv4Other();
    }

    private int parsePfabric(final DirectBuffer buffer, final int header, final int available, final int pfabricKind)
    {
        pfabricOffset = header;
        if (available < PFABRIC_HEADER_LENGTH)
        {
            return malformed(ParseReason.TRUNCATED_PFABRIC);
        }

        final int versionType = buffer.getByte(header + VERSION_TYPE_FIELD_OFFSET) & 0xFF;
        if (PfabricHeaderFlyweight.VERSION != versionType >>> 4)
        {
            return malformed(ParseReason.UNKNOWN_PFABRIC_VERSION);
        }

        final int type = versionType & 0xF;
        if (type < TYPE_DATA || type > TYPE_CONTROL)
        {
            return malformed(ParseReason.UNKNOWN_PFABRIC_TYPE);
        }

        final int headerLength = buffer.getShort(header + HEADER_LENGTH_FIELD_OFFSET, BIG_ENDIAN) & 0xFFFF;
        if (headerLength < PFABRIC_HEADER_LENGTH || headerLength > available)
        {
            return malformed(ParseReason.BAD_PFABRIC_HEADER_LENGTH);
        }

        final int sackCount = buffer.getByte(header + SACK_COUNT_FIELD_OFFSET) & 0xFF;
        final int sackHeaderLength = PFABRIC_HEADER_LENGTH + sackCount * SACK_BLOCK_LENGTH;
        if (sackCount > MAX_SACK_BLOCKS || sackHeaderLength > headerLength)
        {
            return malformed(ParseReason.SACK_COUNT_BEYOND_HEADER);
        }
        if (TYPE_ACK == type && sackHeaderLength != headerLength)
        {
            return malformed(ParseReason.BAD_PFABRIC_HEADER_LENGTH);
        }

        final int payloadLength = buffer.getShort(header + PAYLOAD_LENGTH_FIELD_OFFSET, BIG_ENDIAN) & 0xFFFF;
        if (headerLength + payloadLength > available)
        {
            return malformed(ParseReason.PAYLOAD_LENGTH_BEYOND_PACKET);
        }

        pfabricType = type;
        pfabricPayloadLength = payloadLength;
        pfabricFlags = buffer.getByte(header + FLAGS_FIELD_OFFSET) & 0xFF;
        pathHint = 0 != (pfabricFlags & FLAG_PATH) ? buffer.getByte(header + PATH_HINT_FIELD_OFFSET) & 0xFF : -1;
        priority = buffer.getInt(header + PRIORITY_FIELD_OFFSET, BIG_ENDIAN) & 0xFFFF_FFFFL;
        flowId = buffer.getLong(header + FLOW_ID_FIELD_OFFSET, BIG_ENDIAN);
        flowHash = flowId;

        return accept(pfabricKind);
    }

    private int acceptIpv4Other()
    {
        flowHash = mix(sourceAddress, destinationAddress, ipProtocol, sourcePort, destinationPort);
        return accept(FrameKind.IPV4_OTHER);
    }

    private int accept(final int kind)
    {
        this.kind = kind;
        return kind;
    }

    private int malformed(final int reason)
    {
        this.reason = reason;
        this.kind = FrameKind.MALFORMED;
        return FrameKind.MALFORMED;
    }

    private void reset()
    {
        kind = FrameKind.MALFORMED;
        reason = ParseReason.NONE;
        ipOffset = ABSENT;
        ipTotalLength = 0;
        l4Offset = ABSENT;
        pfabricOffset = ABSENT;
        pfabricType = 0;
        pfabricFlags = 0;
        pfabricPayloadLength = 0;
        pathHint = -1;
        dscp = 0;
        ecn = 0;
        ipProtocol = 0;
        sourceAddress = 0;
        destinationAddress = 0;
        sourcePort = 0;
        destinationPort = 0;
        priority = MAX_PRIORITY;
        flowId = 0;
        flowHash = 0;
    }

    private static long mix(
        final int sourceAddress,
        final int destinationAddress,
        final int protocol,
        final int sourcePort,
        final int destinationPort)
    {
        long hash = ((long)sourceAddress << 32) | (destinationAddress & 0xFFFF_FFFFL);
        hash ^= (((long)protocol << 32) | ((long)sourcePort << 16) | destinationPort) * 0x9E37_79B9_7F4A_7C15L;
        hash ^= hash >>> 33;
        hash *= 0xFF51_AFD7_ED55_8CCDL;
        hash ^= hash >>> 33;
        hash *= 0xC4CE_B9FE_1A85_EC53L;
        hash ^= hash >>> 33;
        return hash;
    }
}
