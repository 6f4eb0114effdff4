package io.pfabric.common.wire;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * Flyweight over an Ethernet II header without VLAN tags.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                 Destination MAC (octets 0-3)                  |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  | Destination MAC (octets 4-5)  |    Source MAC (octets 0-1)    |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                   Source MAC (octets 2-5)                     |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |           EtherType           |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * A MAC address is held in the low 48 bits of a {@code long}, most significant octet first on the wire, so
 * {@code 0x0000_0200_0000_0001L} is {@code 02:00:00:00:00:01}.
 */
public final class EthernetFlyweight extends HeaderFlyweight
{
    /**
     * Length of the header in bytes.
     */
    public static final int HEADER_LENGTH = 14;

    /**
     * Length of a MAC address in bytes.
     */
    public static final int MAC_LENGTH = 6;

    /**
     * Offset of the destination MAC.
     */
    public static final int DESTINATION_MAC_FIELD_OFFSET = 0;

    /**
     * Offset of the source MAC.
     */
    public static final int SOURCE_MAC_FIELD_OFFSET = 6;

    /**
     * Offset of the EtherType.
     */
    public static final int ETHERTYPE_FIELD_OFFSET = 12;

    /**
     * EtherType of IPv4.
     */
    public static final int ETHERTYPE_IPV4 = 0x0800;

    /**
     * EtherType of ARP.
     */
    public static final int ETHERTYPE_ARP = 0x0806;

    /**
     * The broadcast MAC {@code ff:ff:ff:ff:ff:ff}.
     */
    public static final long BROADCAST_MAC = 0xFFFF_FFFF_FFFFL;


    /**
     * Wrap a header.
     *
     * @param buffer holding the frame.
     * @param offset of the Ethernet header in the buffer.
     * @return this for a fluent API.
     */
    public EthernetFlyweight wrap(final MutableDirectBuffer buffer, final int offset)
    {
        wrapHeader(buffer, offset);
        return this;
    }

    /**
     * Destination MAC.
     *
     * @return the destination MAC in the low 48 bits.
     */
    public long destinationMac()
    {
        return readMac(buffer, offset + DESTINATION_MAC_FIELD_OFFSET);
    }

    /**
     * Set the destination MAC.
     *
     * @param mac in the low 48 bits; the upper 16 bits are ignored.
     * @return this for a fluent API.
     */
    public EthernetFlyweight destinationMac(final long mac)
    {
        writeMac(buffer, offset + DESTINATION_MAC_FIELD_OFFSET, mac);
        return this;
    }

    /**
     * Set the destination MAC from its six octets.
     *
     * @param mac six octets, most significant first.
     * @return this for a fluent API.
     */
    public EthernetFlyweight destinationMac(final byte[] mac)
    {
        buffer.putBytes(offset + DESTINATION_MAC_FIELD_OFFSET, mac, 0, MAC_LENGTH);
        return this;
    }

    /**
     * Copy the destination MAC into an array.
     *
     * @param dst receiving the six octets at index 0.
     */
    public void copyDestinationMac(final byte[] dst)
    {
        buffer.getBytes(offset + DESTINATION_MAC_FIELD_OFFSET, dst, 0, MAC_LENGTH);
    }

    /**
     * Source MAC.
     *
     * @return the source MAC in the low 48 bits.
     */
    public long sourceMac()
    {
        return readMac(buffer, offset + SOURCE_MAC_FIELD_OFFSET);
    }

    /**
     * Set the source MAC.
     *
     * @param mac in the low 48 bits; the upper 16 bits are ignored.
     * @return this for a fluent API.
     */
    public EthernetFlyweight sourceMac(final long mac)
    {
        writeMac(buffer, offset + SOURCE_MAC_FIELD_OFFSET, mac);
        return this;
    }

    /**
     * Set the source MAC from its six octets.
     *
     * @param mac six octets, most significant first.
     * @return this for a fluent API.
     */
    public EthernetFlyweight sourceMac(final byte[] mac)
    {
        buffer.putBytes(offset + SOURCE_MAC_FIELD_OFFSET, mac, 0, MAC_LENGTH);
        return this;
    }

    /**
     * Copy the source MAC into an array.
     *
     * @param dst receiving the six octets at index 0.
     */
    public void copySourceMac(final byte[] dst)
    {
        buffer.getBytes(offset + SOURCE_MAC_FIELD_OFFSET, dst, 0, MAC_LENGTH);
    }

    /**
     * EtherType.
     *
     * @return the EtherType as an unsigned 16-bit value.
     */
    public int etherType()
    {
        return buffer.getShort(offset + ETHERTYPE_FIELD_OFFSET, BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * Set the EtherType.
     *
     * @param etherType unsigned 16-bit value, e.g. {@link #ETHERTYPE_IPV4}.
     * @return this for a fluent API.
     */
    public EthernetFlyweight etherType(final int etherType)
    {
        buffer.putShort(offset + ETHERTYPE_FIELD_OFFSET, (short)etherType, BIG_ENDIAN);
        return this;
    }

    /**
     * Read the EtherType of a frame without wrapping it.
     *
     * @param buffer      holding the frame.
     * @param frameOffset of the Ethernet header in the buffer.
     * @return the EtherType as an unsigned 16-bit value.
     */
    public static int etherType(final DirectBuffer buffer, final int frameOffset)
    {
        return buffer.getShort(frameOffset + ETHERTYPE_FIELD_OFFSET, BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * Read a 48-bit MAC stored most significant octet first.
     *
     * @param buffer holding the MAC.
     * @param index  of its first octet.
     * @return the MAC in the low 48 bits.
     */
    public static long readMac(final DirectBuffer buffer, final int index)
    {
        return ((buffer.getShort(index, BIG_ENDIAN) & 0xFFFFL) << 32) |
            (buffer.getInt(index + 2, BIG_ENDIAN) & 0xFFFF_FFFFL);
    }

    /**
     * Write a 48-bit MAC most significant octet first.
     *
     * @param buffer receiving the MAC.
     * @param index  of its first octet.
     * @param mac    in the low 48 bits; the upper 16 bits are ignored.
     */
    public static void writeMac(final MutableDirectBuffer buffer, final int index, final long mac)
    {
        buffer.putShort(index, (short)(mac >>> 32), BIG_ENDIAN);
        buffer.putInt(index + 2, (int)mac, BIG_ENDIAN);
    }

    /**
     * Convert six octets to a MAC in the low 48 bits of a long.
     *
     * @param mac six octets, most significant first.
     * @return the MAC in the low 48 bits.
     */
    public static long macToLong(final byte[] mac)
    {
        long value = 0;
        for (int i = 0; i < MAC_LENGTH; i++)
        {
            value = (value << 8) | (mac[i] & 0xFFL);
        }
        return value;
    }

    /**
     * Convert a MAC held in the low 48 bits of a long to six octets.
     *
     * @param mac in the low 48 bits.
     * @param dst receiving the six octets, most significant first, at index 0.
     */
    public static void macToBytes(final long mac, final byte[] dst)
    {
        for (int i = 0; i < MAC_LENGTH; i++)
        {
            dst[i] = (byte)(mac >>> (8 * (MAC_LENGTH - 1 - i)));
        }
    }
}
