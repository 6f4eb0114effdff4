package io.pfabric.common.wire;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ArpFlyweightTest
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
    private final ArpFlyweight arp = new ArpFlyweight();

    @Test
    void shouldRoundTripEveryField()
    {
        arp.wrap(buffer, 14)
            .ipv4OverEthernet()
            .operation(ArpFlyweight.OPERATION_REPLY)
            .senderMac(0xFFFF_FFFF_FFFEL)
            .senderAddress(0xFFFF_FFFF)
            .targetMac(0x0200_0000_0001L)
            .targetAddress(0x0A00_0001);

        assertTrue(arp.isIpv4OverEthernet());
        assertEquals(14, arp.offset());
        assertEquals(ArpFlyweight.HARDWARE_TYPE_ETHERNET, arp.hardwareType());
        assertEquals(EthernetFlyweight.ETHERTYPE_IPV4, arp.protocolType());
        assertEquals(ArpFlyweight.OPERATION_REPLY, arp.operation());
        assertEquals(0xFFFF_FFFF_FFFEL, arp.senderMac());
        assertEquals(0xFFFF_FFFF, arp.senderAddress());
        assertEquals(0x0200_0000_0001L, arp.targetMac());
        assertEquals(0x0A00_0001, arp.targetAddress());

        buffer.putByte(14 + ArpFlyweight.HARDWARE_LENGTH_FIELD_OFFSET, (byte)8);
        assertFalse(arp.isIpv4OverEthernet());
    }
}
