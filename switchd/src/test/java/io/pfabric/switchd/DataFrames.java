package io.pfabric.switchd;

import io.pfabric.common.wire.EthernetFlyweight;
import io.pfabric.common.wire.Ipv4Flyweight;
import io.pfabric.common.wire.PfabricHeaderFlyweight;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * pFabric DATA frames of flow 7 from 10.0.1.1, built as a host would send them, for forwarders fed from memory.
 */
final class DataFrames
{
    private DataFrames()
    {
    }

    /**
     * A DATA frame.
     *
     * @param destination   the IPv4 destination address.
     * @param length        the frame's length, headers included.
     * @param priority      the pFabric priority it carries.
     * @param segmentOffset the segment's offset in the flow.
     * @param pathFlag      whether the sender asks for the path its hint names.
     * @param pathHint      the hint.
     * @return the frame's bytes.
     */
    static byte[] frame(
        final int destination,
        final int length,
        final long priority,
        final long segmentOffset,
        final boolean pathFlag,
        final int pathHint)
    {
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[length]);
        new EthernetFlyweight().wrap(frame, 0).destinationMac(0x02_00_00_00_00_01L).sourceMac(0x02_00_00_00_00_02L)
            .etherType(EthernetFlyweight.ETHERTYPE_IPV4);
        new Ipv4Flyweight().wrap(frame, EthernetFlyweight.HEADER_LENGTH)
            .version(Ipv4Flyweight.VERSION).ihl(Ipv4Flyweight.MIN_IHL)
            .totalLength(length - EthernetFlyweight.HEADER_LENGTH).ttl(64)
            .protocol(Ipv4Flyweight.PROTOCOL_PFABRIC).sourceAddress(0x0A00_0101).destinationAddress(destination)
            .computeChecksum();
        new PfabricHeaderFlyweight().wrap(frame, EthernetFlyweight.HEADER_LENGTH + Ipv4Flyweight.HEADER_LENGTH)
            .version(PfabricHeaderFlyweight.VERSION).type(PfabricHeaderFlyweight.TYPE_DATA)
            .headerLength(PfabricHeaderFlyweight.HEADER_LENGTH).priority(priority).flowId(7)
            .segmentOffset(segmentOffset).pathFlag(pathFlag).pathHint(pathHint)
            .payloadLength(length - EthernetFlyweight.HEADER_LENGTH - Ipv4Flyweight.HEADER_LENGTH -
                PfabricHeaderFlyweight.HEADER_LENGTH);
        return frame.byteArray();
    }
}
