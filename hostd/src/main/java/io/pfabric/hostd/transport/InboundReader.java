package io.pfabric.hostd.transport;

import io.pfabric.common.wire.PfabricHeaderFlyweight;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The packet being handled, read in place: checked whole (length, version, header and payload lengths, checksum)
 * before anything trusts it, then its header, its payload and, for an ACK, its SACK blocks.
 */
final class InboundReader
{
    /**
     * {@link #readSackBlocks()} of an ACK too short for the blocks it claims.
     */
    static final int MALFORMED = -1;

    private final PfabricHeaderFlyweight header = new PfabricHeaderFlyweight();
    private final UnsafeBuffer packet = new UnsafeBuffer(0, 0);
    private final long[] sackStarts = new long[PfabricHeaderFlyweight.MAX_SACK_BLOCKS];
    private final long[] sackEnds = new long[PfabricHeaderFlyweight.MAX_SACK_BLOCKS];
    private int headerLength;
    private int payloadLength;

    /**
     * Take a packet.
     *
     * @return false if it is malformed: nothing else may be read then.
     */
    boolean read(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < PfabricHeaderFlyweight.HEADER_LENGTH)
        {
            return false;
        }
        packet.wrap(buffer, offset, length);
        header.wrap(packet, 0);
        headerLength = header.headerLength();
        payloadLength = header.payloadLength();
        return PfabricHeaderFlyweight.VERSION == header.version() &&
            headerLength >= PfabricHeaderFlyweight.HEADER_LENGTH && headerLength + payloadLength == length &&
            header.checksumValid();
    }

    PfabricHeaderFlyweight header()
    {
        return header;
    }

    /**
     * The whole packet, from offset 0: the payload follows the header.
     */
    DirectBuffer packet()
    {
        return packet;
    }

    int headerLength()
    {
        return headerLength;
    }

    int payloadLength()
    {
        return payloadLength;
    }

    /**
     * Copy an ACK's SACK blocks (at most {@link PfabricHeaderFlyweight#MAX_SACK_BLOCKS}) into {@link #sackStarts()}
     * and {@link #sackEnds()}.
     *
     * @return how many, or {@link #MALFORMED}.
     */
    int readSackBlocks()
    {
        final int sackCount = Math.min(header.sackCount(), PfabricHeaderFlyweight.MAX_SACK_BLOCKS);
        if (headerLength < PfabricHeaderFlyweight.HEADER_LENGTH + sackCount * PfabricHeaderFlyweight.SACK_BLOCK_LENGTH)
        {
            return MALFORMED;
        }
        for (int i = 0; i < sackCount; i++)
        {
            sackStarts[i] = header.sackStart(i);
            sackEnds[i] = header.sackEnd(i);
        }
        return sackCount;
    }

    long[] sackStarts()
    {
        return sackStarts;
    }

    long[] sackEnds()
    {
        return sackEnds;
    }
}
