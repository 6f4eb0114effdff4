package io.pfabric.common.wire;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * Flyweight over a UDP header (RFC 768).
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |          Source Port          |       Destination Port        |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |             Length            |           Checksum            |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * The length covers header and payload. A checksum of zero means none was computed.
 */
public final class UdpFlyweight extends HeaderFlyweight
{
    /**
     * Length of the header in bytes.
     */
    public static final int HEADER_LENGTH = 8;

    /**
     * Offset of the source port.
     */
    public static final int SOURCE_PORT_FIELD_OFFSET = 0;

    /**
     * Offset of the destination port.
     */
    public static final int DESTINATION_PORT_FIELD_OFFSET = 2;

    /**
     * Offset of the length.
     */
    public static final int LENGTH_FIELD_OFFSET = 4;

    /**
     * Offset of the checksum.
     */
    public static final int CHECKSUM_FIELD_OFFSET = 6;

    /**
     * Default UDP port of pFabric transport packets.
     */
    public static final int PFABRIC_DEFAULT_PORT = 7253;

    /**
     * IANA UDP port of VXLAN (RFC 7348).
     */
    public static final int VXLAN_PORT = 4789;

    /**
     * Checksum value meaning that no checksum was computed.
     */
    public static final int NO_CHECKSUM = 0;


    /**
     * Wrap a header.
     *
     * @param buffer holding the datagram.
     * @param offset of the UDP header in the buffer.
     * @return this for a fluent API.
     */
    public UdpFlyweight wrap(final MutableDirectBuffer buffer, final int offset)
    {
        wrapHeader(buffer, offset);
        return this;
    }

    /**
     * Source port.
     *
     * @return the unsigned 16-bit source port.
     */
    public int sourcePort()
    {
        return buffer.getShort(offset + SOURCE_PORT_FIELD_OFFSET, BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * Set the source port.
     *
     * @param port unsigned 16-bit value.
     * @return this for a fluent API.
     */
    public UdpFlyweight sourcePort(final int port)
    {
        buffer.putShort(offset + SOURCE_PORT_FIELD_OFFSET, (short)port, BIG_ENDIAN);
        return this;
    }

    /**
     * Destination port.
     *
     * @return the unsigned 16-bit destination port.
     */
    public int destinationPort()
    {
        return buffer.getShort(offset + DESTINATION_PORT_FIELD_OFFSET, BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * Set the destination port.
     *
     * @param port unsigned 16-bit value.
     * @return this for a fluent API.
     */
    public UdpFlyweight destinationPort(final int port)
    {
        buffer.putShort(offset + DESTINATION_PORT_FIELD_OFFSET, (short)port, BIG_ENDIAN);
        return this;
    }

    /**
     * Length of header and payload.
     *
     * @return length in bytes.
     */
    public int length()
    {
        return buffer.getShort(offset + LENGTH_FIELD_OFFSET, BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * Set the length of header and payload.
     *
     * @param length in bytes.
     * @return this for a fluent API.
     */
    public UdpFlyweight length(final int length)
    {
        buffer.putShort(offset + LENGTH_FIELD_OFFSET, (short)length, BIG_ENDIAN);
        return this;
    }

    /**
     * Checksum as stored.
     *
     * @return the unsigned 16-bit checksum, {@link #NO_CHECKSUM} when none was computed.
     */
    public int checksum()
    {
        return buffer.getShort(offset + CHECKSUM_FIELD_OFFSET, BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * Store a checksum.
     *
     * @param checksum unsigned 16-bit value, {@link #NO_CHECKSUM} for none.
     * @return this for a fluent API.
     */
    public UdpFlyweight checksum(final int checksum)
    {
        buffer.putShort(offset + CHECKSUM_FIELD_OFFSET, (short)checksum, BIG_ENDIAN);
        return this;
    }

    /**
     * Read the destination port of a UDP header without wrapping it.
     *
     * @param buffer    holding the datagram.
     * @param udpOffset of the UDP header in the buffer.
     * @return the unsigned 16-bit destination port.
     */
    public static int destinationPort(final DirectBuffer buffer, final int udpOffset)
    {
        return buffer.getShort(udpOffset + DESTINATION_PORT_FIELD_OFFSET, BIG_ENDIAN) & 0xFFFF;
    }
}
