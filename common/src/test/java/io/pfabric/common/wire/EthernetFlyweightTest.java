package io.pfabric.common.wire;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class EthernetFlyweightTest
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
    private final EthernetFlyweight ethernet = new EthernetFlyweight();

    @Test
    void shouldRoundTripEveryField()
    {
        ethernet.wrap(buffer, 3)
            .destinationMac(0xFFFF_FFFF_FFFFL)
            .sourceMac(0x0200_0000_0001L)
            .etherType(0xFFFF);

        assertEquals(3, ethernet.offset());
        assertEquals(EthernetFlyweight.BROADCAST_MAC, ethernet.destinationMac());
        assertEquals(0x0200_0000_0001L, ethernet.sourceMac());
        assertEquals(0xFFFF, ethernet.etherType());
        assertEquals(0xFFFF, EthernetFlyweight.etherType(buffer, 3));

        ethernet.destinationMac(0).sourceMac(0x8000_0000_0000L).etherType(EthernetFlyweight.ETHERTYPE_ARP);
        assertEquals(0, ethernet.destinationMac());
        assertEquals(0x8000_0000_0000L, ethernet.sourceMac());
        assertEquals(EthernetFlyweight.ETHERTYPE_ARP, ethernet.etherType());
    }

    @Test
    void shouldIgnoreUpperSixteenBitsOfMac()
    {
        ethernet.wrap(buffer, 0).destinationMac(0xABCD_0200_0000_0002L).sourceMac(-1L);

        assertEquals(0x0200_0000_0002L, ethernet.destinationMac());
        assertEquals(0xFFFF_FFFF_FFFFL, ethernet.sourceMac());
    }

    @Test
    void shouldRoundTripMacThroughByteArrays()
    {
        final byte[] destination = { 0x02, 0x11, 0x22, 0x33, 0x44, (byte)0x95 };
        final byte[] source = { (byte)0xFE, 0x00, 0x00, 0x00, 0x00, 0x01 };
        ethernet.wrap(buffer, 1).destinationMac(destination).sourceMac(source);

        assertEquals(0x0211_2233_4495L, ethernet.destinationMac());
        assertEquals(0xFE00_0000_0001L, ethernet.sourceMac());
        assertEquals(0x0211_2233_4495L, EthernetFlyweight.macToLong(destination));

        final byte[] copy = new byte[EthernetFlyweight.MAC_LENGTH];
        ethernet.copyDestinationMac(copy);
        assertArrayEquals(destination, copy);
        ethernet.copySourceMac(copy);
        assertArrayEquals(source, copy);

        EthernetFlyweight.macToBytes(0xFE00_0000_0001L, copy);
        assertArrayEquals(source, copy);
    }
}
