package io.pfabric.common.wire;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class VxlanFlyweightTest
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[32]);
    private final VxlanFlyweight vxlan = new VxlanFlyweight();

    @Test
    void shouldRoundTripEveryField()
    {
        buffer.setMemory(0, buffer.capacity(), (byte)0xFF);
        vxlan.wrap(buffer, 2).flags(VxlanFlyweight.FLAG_VNI_VALID).vni(VxlanFlyweight.MAX_VNI);

        assertEquals(2, vxlan.offset());
        assertEquals(0x08, vxlan.flags());
        assertTrue(vxlan.vniValid());
        assertEquals(0xFF_FFFF, vxlan.vni());
        assertEquals(0, buffer.getByte(2 + 3), "reserved bits cleared");
        assertEquals(0, buffer.getByte(2 + 7), "reserved byte cleared");

        vxlan.flags(0).vni(0x12_3456 | 0x7F00_0000);
        assertFalse(vxlan.vniValid());
        assertEquals(0x12_3456, vxlan.vni());
        vxlan.vni(0);
        assertEquals(0, vxlan.vni());
    }
}
