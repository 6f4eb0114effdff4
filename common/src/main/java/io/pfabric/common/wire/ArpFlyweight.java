package io.pfabric.common.wire;

import org.agrona.MutableDirectBuffer;

import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * Flyweight over an ARP packet for IPv4 over Ethernet (RFC 826).
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |         Hardware Type         |         Protocol Type         |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |  HW Addr Len  | Proto Addr Len|           Operation           |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |               Sender Hardware Address (octets 0-3)            |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |  Sender HW Addr (octets 4-5)  | Sender Proto Addr (octets 0-1)|
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  | Sender Proto Addr (octets 2-3)|  Target HW Addr (octets 0-1)  |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |               Target Hardware Address (octets 2-5)            |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                    Target Protocol Address                    |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * MACs are held in the low 48 bits of a {@code long} and IPv4 addresses in an {@code int}, both in network order,
 * as in {@link EthernetFlyweight} and {@link Ipv4Flyweight}.
 */
public final class ArpFlyweight extends HeaderFlyweight
{
    /**
     * Length of an ARP packet for IPv4 over Ethernet, in bytes.
     */
    public static final int HEADER_LENGTH = 28;

    /**
     * Offset of the hardware type.
     */
    public static final int HARDWARE_TYPE_FIELD_OFFSET = 0;

    /**
     * Offset of the protocol type.
     */
    public static final int PROTOCOL_TYPE_FIELD_OFFSET = 2;

    /**
     * Offset of the hardware address length.
     */
    public static final int HARDWARE_LENGTH_FIELD_OFFSET = 4;

    /**
     * Offset of the protocol address length.
     */
    public static final int PROTOCOL_LENGTH_FIELD_OFFSET = 5;

    /**
     * Offset of the operation.
     */
    public static final int OPERATION_FIELD_OFFSET = 6;

    /**
     * Offset of the sender hardware address.
     */
    public static final int SENDER_MAC_FIELD_OFFSET = 8;

    /**
     * Offset of the sender protocol address.
     */
    public static final int SENDER_ADDRESS_FIELD_OFFSET = 14;

    /**
     * Offset of the target hardware address.
     */
    public static final int TARGET_MAC_FIELD_OFFSET = 18;

    /**
     * Offset of the target protocol address.
     */
    public static final int TARGET_ADDRESS_FIELD_OFFSET = 24;

    /**
     * Hardware type of Ethernet.
     */
    public static final int HARDWARE_TYPE_ETHERNET = 1;

    /**
     * Operation: request.
     */
    public static final int OPERATION_REQUEST = 1;

    /**
     * Operation: reply.
     */
    public static final int OPERATION_REPLY = 2;


    /**
     * Wrap a packet.
     *
     * @param buffer holding the frame.
     * @param offset of the ARP packet in the buffer.
     * @return this for a fluent API.
     */
    public ArpFlyweight wrap(final MutableDirectBuffer buffer, final int offset)
    {
        wrapHeader(buffer, offset);
        return this;
    }

    /**
     * Write the fixed fields of IPv4 over Ethernet: hardware type 1, protocol type 0x0800, lengths 6 and 4.
     *
     * @return this for a fluent API.
     */
    public ArpFlyweight ipv4OverEthernet()
    {
        buffer.putShort(offset + HARDWARE_TYPE_FIELD_OFFSET, (short)HARDWARE_TYPE_ETHERNET, BIG_ENDIAN);
        buffer.putShort(offset + PROTOCOL_TYPE_FIELD_OFFSET, (short)EthernetFlyweight.ETHERTYPE_IPV4, BIG_ENDIAN);
        buffer.putByte(offset + HARDWARE_LENGTH_FIELD_OFFSET, (byte)EthernetFlyweight.MAC_LENGTH);
        buffer.putByte(offset + PROTOCOL_LENGTH_FIELD_OFFSET, (byte)4);
        return this;
    }

    /**
     * Whether the fixed fields describe IPv4 over Ethernet.
     *
     * @return true if hardware type, protocol type and address lengths are 1, 0x0800, 6 and 4.
     */
    public boolean isIpv4OverEthernet()
    {
        return HARDWARE_TYPE_ETHERNET == hardwareType() &&
            EthernetFlyweight.ETHERTYPE_IPV4 == protocolType() &&
            EthernetFlyweight.MAC_LENGTH == (buffer.getByte(offset + HARDWARE_LENGTH_FIELD_OFFSET) & 0xFF) &&
            4 == (buffer.getByte(offset + PROTOCOL_LENGTH_FIELD_OFFSET) & 0xFF);
    }

    /**
     * Hardware type.
     *
     * @return the unsigned 16-bit hardware type.
     */
    public int hardwareType()
    {
        return buffer.getShort(offset + HARDWARE_TYPE_FIELD_OFFSET, BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * Protocol type.
     *
     * @return the unsigned 16-bit protocol type, an EtherType.
     */
    public int protocolType()
    {
        return buffer.getShort(offset + PROTOCOL_TYPE_FIELD_OFFSET, BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * Operation.
     *
     * @return {@link #OPERATION_REQUEST}, {@link #OPERATION_REPLY} or another unsigned 16-bit value.
     */
    public int operation()
    {
        return buffer.getShort(offset + OPERATION_FIELD_OFFSET, BIG_ENDIAN) & 0xFFFF;
    }

    /**
     * Set the operation.
     *
     * @param operation unsigned 16-bit value.
     * @return this for a fluent API.
     */
    public ArpFlyweight operation(final int operation)
    {
        buffer.putShort(offset + OPERATION_FIELD_OFFSET, (short)operation, BIG_ENDIAN);
        return this;
    }

    /**
     * Sender hardware address.
     *
     * @return the MAC in the low 48 bits.
     */
    public long senderMac()
    {
        return EthernetFlyweight.readMac(buffer, offset + SENDER_MAC_FIELD_OFFSET);
    }

    /**
     * Set the sender hardware address.
     *
     * @param mac in the low 48 bits.
     * @return this for a fluent API.
     */
    public ArpFlyweight senderMac(final long mac)
    {
        EthernetFlyweight.writeMac(buffer, offset + SENDER_MAC_FIELD_OFFSET, mac);
        return this;
    }

    /**
     * Sender protocol address.
     *
     * @return the IPv4 address in network order.
     */
    public int senderAddress()
    {
        return buffer.getInt(offset + SENDER_ADDRESS_FIELD_OFFSET, BIG_ENDIAN);
    }

    /**
     * Set the sender protocol address.
     *
     * @param address IPv4 address in network order.
     * @return this for a fluent API.
     */
    public ArpFlyweight senderAddress(final int address)
    {
        buffer.putInt(offset + SENDER_ADDRESS_FIELD_OFFSET, address, BIG_ENDIAN);
        return this;
    }

    /**
     * Target hardware address.
     *
     * @return the MAC in the low 48 bits.
     */
    public long targetMac()
    {
        return EthernetFlyweight.readMac(buffer, offset + TARGET_MAC_FIELD_OFFSET);
    }

    /**
     * Set the target hardware address.
     *
     * @param mac in the low 48 bits.
     * @return this for a fluent API.
     */
    public ArpFlyweight targetMac(final long mac)
    {
        EthernetFlyweight.writeMac(buffer, offset + TARGET_MAC_FIELD_OFFSET, mac);
        return this;
    }

    /**
     * Target protocol address.
     *
     * @return the IPv4 address in network order.
     */
    public int targetAddress()
    {
        return buffer.getInt(offset + TARGET_ADDRESS_FIELD_OFFSET, BIG_ENDIAN);
    }

    /**
     * Set the target protocol address.
     *
     * @param address IPv4 address in network order.
     * @return this for a fluent API.
     */
    public ArpFlyweight targetAddress(final int address)
    {
        buffer.putInt(offset + TARGET_ADDRESS_FIELD_OFFSET, address, BIG_ENDIAN);
        return this;
    }
}
