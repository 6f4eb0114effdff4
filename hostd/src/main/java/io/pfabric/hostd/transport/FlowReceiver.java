package io.pfabric.hostd.transport;

import org.agrona.DirectBuffer;

import java.util.BitSet;

/**
 * The receiving half of one pFabric flow, pure: reassembles segments by offset, answers every packet with the
 * cumulative ack and up to four SACK blocks (the block holding the segment just received first, then the lowest
 * others), and completes once, when every segment has arrived. With a message buffer it keeps the payload, so the
 * application gets the whole message exactly once; without one it only counts.
 * <p>
 * Segments must be whole: at a multiple of the segment length, of the segment length (the last one shorter); any
 * other offset or length is rejected. Allocates its segment map when created, and the message's chunks as segments
 * arrive in them.
 */
public final class FlowReceiver
{
    /**
     * Result of {@link #onData}: the segment was new.
     */
    public static final int NEW = 0;

    /**
     * Result of {@link #onData}: the segment had arrived before.
     */
    public static final int DUPLICATE = 1;

    /**
     * Result of {@link #onData}: offset or length do not fit the flow's segmentation.
     */
    public static final int INVALID = 2;

    private final long flowId;
    private final int sourceHost;
    private final long sizeBytes;
    private final int segmentLength;
    private final int segmentCount;
    private final BitSet received;
    private final MessageChunks message;
    private int cumulativeSegments;
    private int lastSegment = -1;
    private long receivedBytes;
    private long duplicatePackets;
    private int unacknowledgedSegments;
    private long lastPacketNs;

    /**
     * A flow seen for the first time.
     *
     * @param flowId        the flow's id.
     * @param sourceHost    index of the sending host.
     * @param sizeBytes     the flow's size, 1 to 2^31 - 1 when the payload is kept, else up to 2^32 - 1.
     * @param segmentLength payload bytes per segment.
     * @param keepPayload   whether to assemble the message.
     */
    public FlowReceiver(
        final long flowId,
        final int sourceHost,
        final long sizeBytes,
        final int segmentLength,
        final boolean keepPayload)
    {
        if (sizeBytes < 1 || (keepPayload && sizeBytes > Integer.MAX_VALUE - 8))
        {
            throw new IllegalArgumentException("flow size out of range: " + sizeBytes);
        }
        this.flowId = flowId;
        this.sourceHost = sourceHost;
        this.sizeBytes = sizeBytes;
        this.segmentLength = segmentLength;
        this.segmentCount = (int)((sizeBytes + segmentLength - 1) / segmentLength);
        this.received = new BitSet(segmentCount);
        this.message = keepPayload ? new MessageChunks((int)sizeBytes) : null;
    }

    /**
     * A data segment arrived.
     *
     * @param offsetBytes   where it belongs.
     * @param buffer        holding its payload.
     * @param payloadOffset of the payload in the buffer.
     * @param payloadLength of the payload.
     * @return {@link #NEW}, {@link #DUPLICATE} or {@link #INVALID}.
     */
    public int onData(
        final long offsetBytes, final DirectBuffer buffer, final int payloadOffset, final int payloadLength)
    {
        if (offsetBytes < 0 || offsetBytes >= sizeBytes || 0 != offsetBytes % segmentLength)
        {
            return INVALID;
        }
        final int segment = (int)(offsetBytes / segmentLength);
        if (payloadLength != segmentLength(segment))
        {
            return INVALID;
        }
        lastSegment = segment;
        if (received.get(segment))
        {
            duplicatePackets++;
            return DUPLICATE;
        }
        received.set(segment);
        receivedBytes += payloadLength;
        if (null != message)
        {
            message.putBytes((int)offsetBytes, buffer, payloadOffset, payloadLength);
        }
        cumulativeSegments = received.nextClearBit(cumulativeSegments);
        return NEW;
    }

    /**
     * A packet of the flow arrived.
     *
     * @param nowNs when.
     */
    void lastPacketNs(final long nowNs)
    {
        lastPacketNs = nowNs;
    }

    /**
     * When the flow's last packet arrived.
     *
     * @return nanoseconds.
     */
    long lastPacketNs()
    {
        return lastPacketNs;
    }

    /**
     * Count one more in-order segment whose ACK waits ({@link TransportConfiguration#segmentsPerAck()}).
     *
     * @return the segments now waiting, this one included.
     */
    int deferAck()
    {
        return ++unacknowledgedSegments;
    }

    /**
     * Whether segments wait for an ACK.
     *
     * @return true if one is owed.
     */
    boolean isAckOwed()
    {
        return unacknowledgedSegments > 0;
    }

    /**
     * An ACK for everything received so far is being sent.
     */
    void acknowledged()
    {
        unacknowledgedSegments = 0;
    }

    /**
     * Whether every byte received so far is below the cumulative ack (no hole).
     *
     * @return true if the data arrived in order.
     */
    public boolean isInOrder()
    {
        return receivedBytes() == cumulativeAckBytes();
    }

    /**
     * Every byte below this has arrived.
     *
     * @return byte offset.
     */
    public long cumulativeAckBytes()
    {
        return Math.min(sizeBytes, (long)cumulativeSegments * segmentLength);
    }

    /**
     * The SACK blocks to send: ranges above the cumulative ack that have arrived, the one holding the last segment
     * received first, then the lowest others, at most as many as the arrays hold.
     *
     * @param startBytes filled with each block's start.
     * @param endBytes   filled with each block's end (exclusive).
     * @return the number of blocks.
     */
    public int sackBlocks(final long[] startBytes, final long[] endBytes)
    {
        final int capacity = Math.min(startBytes.length, endBytes.length);
        int count = 0;
        int firstStart = -1;
        if (capacity > 0 && lastSegment > cumulativeSegments && received.get(lastSegment))
        {
            firstStart = received.previousClearBit(lastSegment) + 1;
            startBytes[0] = bytesAt(firstStart);
            endBytes[0] = bytesAt(received.nextClearBit(lastSegment));
            count = 1;
        }
        int segment = received.nextSetBit(cumulativeSegments);
        while (count < capacity && segment >= 0 && segment < segmentCount)
        {
            final int end = received.nextClearBit(segment);
            if (segment != firstStart)
            {
                startBytes[count] = bytesAt(segment);
                endBytes[count] = bytesAt(end);
                count++;
            }
            segment = received.nextSetBit(end);
        }
        return count;
    }

    private long bytesAt(final int segment)
    {
        return Math.min(sizeBytes, (long)segment * segmentLength);
    }

    private int segmentLength(final int segment)
    {
        return segment == segmentCount - 1 ? (int)(sizeBytes - (long)segment * segmentLength) : segmentLength;
    }

    /**
     * Whether every segment has arrived.
     *
     * @return true when complete.
     */
    public boolean isComplete()
    {
        return cumulativeSegments >= segmentCount;
    }

    /**
     * The assembled message, complete once {@link #isComplete()}, made for this flow alone, in chunks made as the
     * segments arrived ({@link MessageChunks}). Once the flow is complete nothing writes it again, so the transport
     * hands it over to its listener ({@link TransportListener#onMessage(int, long, MessageChunks)}) instead of copying
     * it.
     *
     * @return the message, or null when the payload is not kept.
     */
    public MessageChunks message()
    {
        return message;
    }

    /**
     * The flow's id.
     *
     * @return the id.
     */
    public long flowId()
    {
        return flowId;
    }

    /**
     * The sending host.
     *
     * @return its index.
     */
    public int sourceHost()
    {
        return sourceHost;
    }

    /**
     * The flow's size.
     *
     * @return bytes.
     */
    public long sizeBytes()
    {
        return sizeBytes;
    }

    /**
     * Distinct payload bytes received.
     *
     * @return the count.
     */
    public long receivedBytes()
    {
        return receivedBytes;
    }

    /**
     * Segments that arrived again.
     *
     * @return the count.
     */
    public long duplicatePackets()
    {
        return duplicatePackets;
    }
}
