package io.pfabric.common.wire;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class UdpFlyweightTest
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[32]);
    private final UdpFlyweight udp = new UdpFlyweight();

    @Test
    void shouldRoundTripEveryField()
    {
        udp.wrap(buffer, 5)
            .sourcePort(0xFFFF)
            .destinationPort(UdpFlyweight.PFABRIC_DEFAULT_PORT)
            .length(0xFFFF)
            .checksum(0xFFFE);

        assertEquals(5, udp.offset());
        assertEquals(0xFFFF, udp.sourcePort());
        assertEquals(7253, udp.destinationPort());
        assertEquals(7253, UdpFlyweight.destinationPort(buffer, 5));
        assertEquals(0xFFFF, udp.length());
        assertEquals(0xFFFE, udp.checksum());

        udp.sourcePort(0).destinationPort(UdpFlyweight.VXLAN_PORT).length(UdpFlyweight.HEADER_LENGTH)
            .checksum(UdpFlyweight.NO_CHECKSUM);
        assertEquals(0, udp.sourcePort());
        assertEquals(4789, udp.destinationPort());
        assertEquals(8, udp.length());
        assertEquals(0, udp.checksum());
    }
}
