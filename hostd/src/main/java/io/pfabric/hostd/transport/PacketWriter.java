package io.pfabric.hostd.transport;

import io.pfabric.common.wire.PfabricHeaderFlyweight;
import org.agrona.BitUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * Writes each packet the host sends, pFabric header and payload, at the start of the one send buffer they all leave
 * from: a flow's DATA or PROBE as its {@link FlowSender} described it, and ACKs with the cumulative ack, the
 * receiver's SACK blocks and the host's incarnation. Each write returns the packet's length and overwrites the one
 * before.
 */
final class PacketWriter
{
    private static final int MAX_PACKET_LENGTH = PfabricHeaderFlyweight.ACK_MAX_HEADER_LENGTH + 65_000;

    private final PfabricHeaderFlyweight header = new PfabricHeaderFlyweight();
    private final UnsafeBuffer buffer =
        new UnsafeBuffer(ByteBuffer.allocateDirect(BitUtil.align(MAX_PACKET_LENGTH, 64)));
    private final long[] sackStarts = new long[PfabricHeaderFlyweight.MAX_SACK_BLOCKS];
    private final long[] sackEnds = new long[PfabricHeaderFlyweight.MAX_SACK_BLOCKS];

    /**
     * Where the packets are written, from offset 0.
     */
    UnsafeBuffer buffer()
    {
        return buffer;
    }

    /**
     * A DATA or PROBE packet.
     *
     * @param payload  the flow's message, or null for zeros.
     * @param pathHint the spine to take, or {@link Admission#NO_PATH}.
     * @return its length.
     */
    int writeData(final FlowSender sender, final OutboundPacket outbound, final byte[] payload, final int pathHint)
    {
        final int payloadLength = outbound.payloadLength();
        final int payloadOffset = PfabricHeaderFlyweight.HEADER_LENGTH;
        if (null != payload)
        {
            buffer.putBytes(payloadOffset, payload, (int)outbound.offsetBytes(), payloadLength);
        }
        else
        {
            buffer.setMemory(payloadOffset, payloadLength, (byte)0);
        }
        header.wrap(buffer, 0)
            .version(PfabricHeaderFlyweight.VERSION)
            .type(outbound.type())
            .flags(0)
            .finFlag(outbound.fin())
            .deadlineFlag(outbound.deadline())
            .pathFlag(pathHint >= 0)
            .headerLength(PfabricHeaderFlyweight.HEADER_LENGTH)
            .priority(outbound.priority())
            .flowId(sender.flowId())
            .segmentOffset(outbound.offsetBytes())
            .flowSize(sender.sizeBytes())
            .payloadLength(payloadLength)
            .sackCount(0)
            .pathHint(pathHint >= 0 ? pathHint : 0)
            .computeChecksum(payloadLength);
        return PfabricHeaderFlyweight.HEADER_LENGTH + payloadLength;
    }

    /**
     * An ACK, priority 0, with the receiving host's incarnation in the flow size's place
     * ({@link PfabricHeaderFlyweight#FLAG_INCARNATION}).
     *
     * @param incarnation the incarnation of this host's transport.
     * @param receiver    whose SACK blocks it carries, or null for none.
     * @return its length.
     */
    int writeAck(final long flowId, final int incarnation, final long cumulativeAckBytes, final FlowReceiver receiver)
    {
        final int sackCount = null == receiver ? 0 : receiver.sackBlocks(sackStarts, sackEnds);
        header.wrap(buffer, 0)
            .version(PfabricHeaderFlyweight.VERSION)
            .type(PfabricHeaderFlyweight.TYPE_ACK)
            .flags(PfabricHeaderFlyweight.FLAG_INCARNATION)
            .headerLength(PfabricHeaderFlyweight.HEADER_LENGTH + sackCount * PfabricHeaderFlyweight.SACK_BLOCK_LENGTH)
            .priority(0)
            .flowId(flowId)
            .ack(cumulativeAckBytes)
            .receiverIncarnation(incarnation)
            .payloadLength(0)
            .sackCount(sackCount)
            .pathHint(0);
        for (int i = 0; i < sackCount; i++)
        {
            header.sackBlock(i, sackStarts[i], sackEnds[i]);
        }
        header.computeChecksum(0);
        return header.headerLength();
    }
}
