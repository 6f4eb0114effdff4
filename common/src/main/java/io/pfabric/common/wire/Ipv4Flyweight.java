package io.pfabric.common.wire;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * Flyweight over an IPv4 header (RFC 791).
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |Version|  IHL  |   DSCP    |ECN|          Total Length         |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |         Identification        |0|D|M|     Fragment Offset     |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |  Time to Live |    Protocol   |         Header Checksum       |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                       Source Address                          |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                    Destination Address                        |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                   Options (IHL 6 to 15 only)                  |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * D is Don't Fragment, M is More Fragments; the fragment offset counts 8-byte units. Addresses are {@code int}s in
 * network order: {@code 0xC0A80001} is 192.168.0.1.
 */
public final class Ipv4Flyweight extends HeaderFlyweight
{
    /**
     * Length of the header without options, in bytes.
     */
    public static final int HEADER_LENGTH = 20;

    /**
     * Smallest valid IHL, in 32-bit words.
     */
    public static final int MIN_IHL = 5;

    /**
     * Largest IHL, in 32-bit words.
     */
    public static final int MAX_IHL = 15;

    /**
     * The IP version this flyweight reads.
     */
    public static final int VERSION = 4;

    /**
     * Offset of the version (high nibble) and IHL (low nibble).
     */
    public static final int VERSION_IHL_FIELD_OFFSET = 0;

    /**
     * Offset of the DSCP (high 6 bits) and ECN (low 2 bits).
     */
    public static final int DSCP_ECN_FIELD_OFFSET = 1;

    /**
     * Offset of the total length.
     */
    public static final int TOTAL_LENGTH_FIELD_OFFSET = 2;

    /**
     * Offset of the identification.
     */
    public static final int IDENTIFICATION_FIELD_OFFSET = 4;

    /**
     * Offset of the flags (high 3 bits) and fragment offset (low 13 bits).
     */
    public static final int FLAGS_FRAGMENT_OFFSET_FIELD_OFFSET = 6;

    /**
     * Offset of the time to live.
     */
    public static final int TTL_FIELD_OFFSET = 8;

    /**
     * Offset of the protocol.
     */
    public static final int PROTOCOL_FIELD_OFFSET = 9;

    /**
     * Offset of the header checksum.
     */
    public static final int HEADER_CHECKSUM_FIELD_OFFSET = 10;

    /**
     * Offset of the source address.
     */
    public static final int SOURCE_ADDRESS_FIELD_OFFSET = 12;

    /**
     * Offset of the destination address.
     */
    public static final int DESTINATION_ADDRESS_FIELD_OFFSET = 16;

    /**
     * Don't Fragment bit in the 16-bit flags and fragment offset field.
     */
    public static final int DONT_FRAGMENT_FLAG = 0x4000;

    /**
     * More Fragments bit in the 16-bit flags and fragment offset field.
     */
    public static final int MORE_FRAGMENTS_FLAG = 0x2000;

    /**
     * Mask of the fragment offset in the 16-bit flags and fragment offset field.
     */
    public static final int FRAGMENT_OFFSET_MASK = 0x1FFF;

    /**
     * Protocol number of TCP.
     */
    public static final int PROTOCOL_TCP = 6;

    /**
     * Protocol number of UDP.
     */
    public static final int PROTOCOL_UDP = 17;

    /**
     * Protocol number of pFabric carried directly in IPv4 (RFC 3692 experimental).
     */
    public static final int PROTOCOL_PFABRIC = 253;

    /**
     * ECN codepoint: not ECN-capable transport.
     */
    public static final int ECN_NOT_ECT = 0b00;

    /**
     * ECN codepoint: ECN-capable transport, ECT(1).
     */
    public static final int ECN_ECT1 = 0b01;

    /**
     * ECN codepoint: ECN-capable transport, ECT(0).
     */
    public static final int ECN_ECT0 = 0b10;

    /**
     * ECN codepoint: congestion experienced.
     */
    public static final int ECN_CE = 0b11;


    /**
     * Wrap a header.
     *
     * @param buffer holding the packet.
     * @param offset of the IPv4 header in the buffer.
     * @return this for a fluent API.
     */
    public Ipv4Flyweight wrap(final MutableDirectBuffer buffer, final int offset)
    {
        wrapHeader(buffer, offset);
        return this;
    }

    /**
     * IP version.
     *
     * @return the version nibble.
     */
    public int version()
    {
        return (buffer.getByte(offset + VERSION_IHL_FIELD_OFFSET) >> 4) & 0xF;
    }

    /**
     * Set the IP version, keeping the IHL.
     *
     * @param version nibble, normally {@link #VERSION}.
     * @return this for a fluent API.
     */
    public Ipv4Flyweight version(final int version)
    {
        final int index = offset + VERSION_IHL_FIELD_OFFSET;
        buffer.putByte(index, (byte)(((version & 0xF) << 4) | (buffer.getByte(index) & 0xF)));
        return this;
    }

    /**
     * Internet header length.
     *
     * @return the IHL nibble, in 32-bit words.
     */
    public int ihl()
    {
        return buffer.getByte(offset + VERSION_IHL_FIELD_OFFSET) & 0xF;
    }

    /**
     * Set the internet header length, keeping the version.
     *
     * @param ihl in 32-bit words, {@link #MIN_IHL} without options.
     * @return this for a fluent API.
     */
    public Ipv4Flyweight ihl(final int ihl)
    {
        final int index = offset + VERSION_IHL_FIELD_OFFSET;
        buffer.putByte(index, (byte)((buffer.getByte(index) & 0xF0) | (ihl & 0xF)));
        return this;
    }

    /**
     * Header length including options.
     *
     * @return IHL × 4, in bytes.
     */
    public int headerLength()
    {
        return ihl() << 2;
    }

    /**
     * Differentiated services code point.
     *
     * @return the 6-bit DSCP.
     */
    public int dscp()
    {
        return (buffer.getByte(offset + DSCP_ECN_FIELD_OFFSET) >> 2) & 0x3F;
    }

    /**
     * Set the DSCP, keeping the ECN field.
     *
     * @param dscp 6-bit value.
     * @return this for a fluent API.
     */
    public Ipv4Flyweight dscp(final int dscp)
    {
        final int index = offset + DSCP_ECN_FIELD_OFFSET;
        buffer.putByte(index, (byte)(((dscp & 0x3F) << 2) | (buffer.getByte(index) & 0x3)));
        return this;
    }

    /**
     * Explicit congestion notification codepoint.
     *
     * @return one of {@link #ECN_NOT_ECT}, {@link #ECN_ECT1}, {@link #ECN_ECT0}, {@link #ECN_CE}.
     */
    public int ecn()
    {
        return buffer.getByte(offset + DSCP_ECN_FIELD_OFFSET) & 0x3;
    }

    /**
     * Set the ECN codepoint, keeping the DSCP. The checksum is not updated.
     *
     * @param ecn 2-bit codepoint.
     * @return this for a fluent API.
     */
    public Ipv4Flyweight ecn(final int ecn)
    {
        final int index = offset + DSCP_ECN_FIELD_OFFSET;
        buffer.putByte(index, (byte)((buffer.getByte(index) & 0xFC) | (ecn & 0x3)));
        return this;
    }

    /**
     * Total length of the packet, header included.
     *
     * @return total length in bytes.
     */
    public int totalLength()
    {
        return buffer.getShort(offset + TOTAL_LENGTH_FIELD_OFFSET, BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * Set the total length of the packet.
     *
     * @param totalLength in bytes, header included.
     * @return this for a fluent API.
     */
    public Ipv4Flyweight totalLength(final int totalLength)
    {
        buffer.putShort(offset + TOTAL_LENGTH_FIELD_OFFSET, (short)totalLength, BIG_ENDIAN);
        return this;
    }

    /**
     * Identification.
     *
     * @return the unsigned 16-bit identification.
     */
    public int identification()
    {
        return buffer.getShort(offset + IDENTIFICATION_FIELD_OFFSET, BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * Set the identification.
     *
     * @param identification unsigned 16-bit value.
     * @return this for a fluent API.
     */
    public Ipv4Flyweight identification(final int identification)
    {
        buffer.putShort(offset + IDENTIFICATION_FIELD_OFFSET, (short)identification, BIG_ENDIAN);
        return this;
    }

    /**
     * The raw 16-bit flags and fragment offset field.
     *
     * @return the field as an unsigned 16-bit value.
     */
    public int flagsAndFragmentOffset()
    {
        return buffer.getShort(offset + FLAGS_FRAGMENT_OFFSET_FIELD_OFFSET, BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * Set the raw 16-bit flags and fragment offset field.
     *
     * @param value unsigned 16-bit value.
     * @return this for a fluent API.
     */
    public Ipv4Flyweight flagsAndFragmentOffset(final int value)
    {
        buffer.putShort(offset + FLAGS_FRAGMENT_OFFSET_FIELD_OFFSET, (short)value, BIG_ENDIAN);
        return this;
    }

    /**
     * Don't Fragment flag.
     *
     * @return true if DF is set.
     */
    public boolean dontFragment()
    {
        return 0 != (flagsAndFragmentOffset() & DONT_FRAGMENT_FLAG);
    }

    /**
     * Set or clear the Don't Fragment flag.
     *
     * @param dontFragment true to set DF.
     * @return this for a fluent API.
     */
    public Ipv4Flyweight dontFragment(final boolean dontFragment)
    {
        final int value = flagsAndFragmentOffset();
        return flagsAndFragmentOffset(dontFragment ? value | DONT_FRAGMENT_FLAG : value & ~DONT_FRAGMENT_FLAG);
    }

    /**
     * More Fragments flag.
     *
     * @return true if MF is set.
     */
    public boolean moreFragments()
    {
        return 0 != (flagsAndFragmentOffset() & MORE_FRAGMENTS_FLAG);
    }

    /**
     * Set or clear the More Fragments flag.
     *
     * @param moreFragments true to set MF.
     * @return this for a fluent API.
     */
    public Ipv4Flyweight moreFragments(final boolean moreFragments)
    {
        final int value = flagsAndFragmentOffset();
        return flagsAndFragmentOffset(moreFragments ? value | MORE_FRAGMENTS_FLAG : value & ~MORE_FRAGMENTS_FLAG);
    }

    /**
     * Fragment offset.
     *
     * @return the 13-bit fragment offset, in 8-byte units.
     */
    public int fragmentOffset()
    {
        return flagsAndFragmentOffset() & FRAGMENT_OFFSET_MASK;
    }

    /**
     * Set the fragment offset, keeping the flags.
     *
     * @param fragmentOffset 13-bit value, in 8-byte units.
     * @return this for a fluent API.
     */
    public Ipv4Flyweight fragmentOffset(final int fragmentOffset)
    {
        return flagsAndFragmentOffset(
            (flagsAndFragmentOffset() & ~FRAGMENT_OFFSET_MASK) | (fragmentOffset & FRAGMENT_OFFSET_MASK));
    }

    /**
     * Time to live.
     *
     * @return the unsigned 8-bit TTL.
     */
    public int ttl()
    {
        return buffer.getByte(offset + TTL_FIELD_OFFSET) & 0xFF;
    }

    /**
     * Set the time to live.
     *
     * @param ttl unsigned 8-bit value.
     * @return this for a fluent API.
     */
    public Ipv4Flyweight ttl(final int ttl)
    {
        buffer.putByte(offset + TTL_FIELD_OFFSET, (byte)ttl);
        return this;
    }

    /**
     * Protocol of the payload.
     *
     * @return the unsigned 8-bit protocol number.
     */
    public int protocol()
    {
        return buffer.getByte(offset + PROTOCOL_FIELD_OFFSET) & 0xFF;
    }

    /**
     * Set the protocol of the payload.
     *
     * @param protocol unsigned 8-bit value, e.g. {@link #PROTOCOL_PFABRIC}.
     * @return this for a fluent API.
     */
    public Ipv4Flyweight protocol(final int protocol)
    {
        buffer.putByte(offset + PROTOCOL_FIELD_OFFSET, (byte)protocol);
        return this;
    }

    /**
     * Header checksum as stored.
     *
     * @return the unsigned 16-bit checksum.
     */
    public int headerChecksum()
    {
        return buffer.getShort(offset + HEADER_CHECKSUM_FIELD_OFFSET, BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * Store a header checksum.
     *
     * @param headerChecksum unsigned 16-bit value.
     * @return this for a fluent API.
     */
    public Ipv4Flyweight headerChecksum(final int headerChecksum)
    {
        buffer.putShort(offset + HEADER_CHECKSUM_FIELD_OFFSET, (short)headerChecksum, BIG_ENDIAN);
        return this;
    }

    /**
     * Source address.
     *
     * @return the source address in network order.
     */
    public int sourceAddress()
    {
        return buffer.getInt(offset + SOURCE_ADDRESS_FIELD_OFFSET, BIG_ENDIAN);
    }

    /**
     * Set the source address.
     *
     * @param address in network order.
     * @return this for a fluent API.
     */
    public Ipv4Flyweight sourceAddress(final int address)
    {
        buffer.putInt(offset + SOURCE_ADDRESS_FIELD_OFFSET, address, BIG_ENDIAN);
        return this;
    }

    /**
     * Destination address.
     *
     * @return the destination address in network order.
     */
    public int destinationAddress()
    {
        return buffer.getInt(offset + DESTINATION_ADDRESS_FIELD_OFFSET, BIG_ENDIAN);
    }

    /**
     * Set the destination address.
     *
     * @param address in network order.
     * @return this for a fluent API.
     */
    public Ipv4Flyweight destinationAddress(final int address)
    {
        buffer.putInt(offset + DESTINATION_ADDRESS_FIELD_OFFSET, address, BIG_ENDIAN);
        return this;
    }

    /**
     * Compute the RFC 791 header checksum over IHL × 4 bytes, with the checksum field taken as zero, and store it.
     * The IHL must already be set.
     *
     * @return this for a fluent API.
     */
    public Ipv4Flyweight computeChecksum()
    {
        final int index = offset + HEADER_CHECKSUM_FIELD_OFFSET;
        buffer.putShort(index, (short)0, BIG_ENDIAN);
        buffer.putShort(index, (short)~onesComplementSum(buffer, offset, headerLength()), BIG_ENDIAN);
        return this;
    }

    /**
     * Verify the header checksum over IHL × 4 bytes.
     *
     * @return true if the one's complement sum of the header, checksum included, is all ones.
     */
    public boolean checksumValid()
    {
        final int headerLength = headerLength();
        return headerLength >= HEADER_LENGTH && 0xFFFF == onesComplementSum(buffer, offset, headerLength);
    }

    /**
     * Mark congestion experienced on an ECN-capable packet in place, updating the header checksum incrementally
     * (RFC 1624, equation 3) rather than recomputing it.
     *
     * @param buffer   holding the packet.
     * @param ipOffset of the IPv4 header in the buffer.
     * @return true if the ECN field was ECT(0) or ECT(1) and is now CE; false for Not-ECT or already CE, which are
     * left unchanged.
     */
    public static boolean markCongestionExperienced(final MutableDirectBuffer buffer, final int ipOffset)
    {
        final int oldWord = buffer.getShort(ipOffset + VERSION_IHL_FIELD_OFFSET, BIG_ENDIAN) & 0xFFFF;
        final int ecn = oldWord & 0x3;
        if (ECN_ECT0 != ecn && ECN_ECT1 != ecn)
        {
            return false;
        }

        final int newWord = oldWord | ECN_CE;
        final int checksumIndex = ipOffset + HEADER_CHECKSUM_FIELD_OFFSET;
        final int oldChecksum = buffer.getShort(checksumIndex, BIG_ENDIAN) & 0xFFFF;
        final int sum = fold((~oldChecksum & 0xFFFF) + (~oldWord & 0xFFFF) + newWord);
        buffer.putByte(ipOffset + DSCP_ECN_FIELD_OFFSET, (byte)newWord);
        buffer.putShort(checksumIndex, (short)~sum, BIG_ENDIAN);
        return true;
    }

    /**
     * One's complement sum of 16-bit big-endian words, as used by the IPv4, UDP and TCP checksums.
     *
     * @param buffer holding the words.
     * @param index  of the first byte.
     * @param length in bytes; an odd trailing byte is padded with a zero byte.
     * @return the folded 16-bit sum (not complemented).
     */
    public static int onesComplementSum(final DirectBuffer buffer, final int index, final int length)
    {
        long sum = 0;
        final int end = index + (length & ~1);
        for (int i = index; i < end; i += 2)
        {
            sum += buffer.getShort(i, BIG_ENDIAN) & 0xFFFF;
        }
        if (0 != (length & 1))
        {
            sum += (buffer.getByte(end) & 0xFF) << 8;
        }
        sum = (sum & 0xFFFF) + (sum >>> 16);
        sum = (sum & 0xFFFF) + (sum >>> 16);
        return fold((int)sum);
    }

    private static int fold(final int value)
    {
        final int once = (value & 0xFFFF) + (value >>> 16);
        return (once & 0xFFFF) + (once >>> 16);
    }
}
