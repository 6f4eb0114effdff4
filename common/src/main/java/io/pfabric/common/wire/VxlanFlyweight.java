package io.pfabric.common.wire;

import org.agrona.MutableDirectBuffer;

import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * Flyweight over a VXLAN header (RFC 7348), which follows a UDP header to {@link UdpFlyweight#VXLAN_PORT} and
 * precedes the inner Ethernet frame.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |R|R|R|R|I|R|R|R|            Reserved                           |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                VXLAN Network Identifier (VNI) |   Reserved    |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * The I flag ({@link #FLAG_VNI_VALID}) must be set for the VNI to be valid. The setters clear the reserved bits that
 * share a 32-bit word with their field.
 */
public final class VxlanFlyweight extends HeaderFlyweight
{
    /**
     * Length of the header in bytes.
     */
    public static final int HEADER_LENGTH = 8;

    /**
     * Offset of the flags byte.
     */
    public static final int FLAGS_FIELD_OFFSET = 0;

    /**
     * Offset of the 24-bit VNI.
     */
    public static final int VNI_FIELD_OFFSET = 4;

    /**
     * The I flag: the VNI is valid.
     */
    public static final int FLAG_VNI_VALID = 0x08;

    /**
     * Largest VNI.
     */
    public static final int MAX_VNI = 0xFF_FFFF;


    /**
     * Wrap a header.
     *
     * @param buffer holding the datagram payload.
     * @param offset of the VXLAN header in the buffer.
     * @return this for a fluent API.
     */
    public VxlanFlyweight wrap(final MutableDirectBuffer buffer, final int offset)
    {
        wrapHeader(buffer, offset);
        return this;
    }

    /**
     * Flags.
     *
     * @return the unsigned 8-bit flags.
     */
    public int flags()
    {
        return buffer.getByte(offset + FLAGS_FIELD_OFFSET) & 0xFF;
    }

    /**
     * Set the flags and clear the 24 reserved bits that follow them.
     *
     * @param flags unsigned 8-bit value, normally {@link #FLAG_VNI_VALID}.
     * @return this for a fluent API.
     */
    public VxlanFlyweight flags(final int flags)
    {
        buffer.putInt(offset + FLAGS_FIELD_OFFSET, (flags & 0xFF) << 24, BIG_ENDIAN);
        return this;
    }

    /**
     * Whether the I flag is set.
     *
     * @return true if the VNI is valid.
     */
    public boolean vniValid()
    {
        return 0 != (flags() & FLAG_VNI_VALID);
    }

    /**
     * VXLAN network identifier.
     *
     * @return the 24-bit VNI.
     */
    public int vni()
    {
        return buffer.getInt(offset + VNI_FIELD_OFFSET, BIG_ENDIAN) >>> 8;
    }

    /**
     * Set the VNI and clear the reserved byte that follows it.
     *
     * @param vni 24-bit value.
     * @return this for a fluent API.
     */
    public VxlanFlyweight vni(final int vni)
    {
        buffer.putInt(offset + VNI_FIELD_OFFSET, (vni & MAX_VNI) << 8, BIG_ENDIAN);
        return this;
    }
}
