package io.pfabric.dataplane.queue;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * A deliberately simple model of the pFabric queue: a list in arrival order, scanned in full for every decision.
 * It shares no code with {@link PfabricQueue}; tests and benchmarks compare the two.
 */
public final class ReferencePfabricQueue
{
    private static final class Packet
    {
        final byte[] frame;
        final long priority;
        final long flowId;
        final long sequence;

        Packet(final byte[] frame, final long priority, final long flowId, final long sequence)
        {
            this.frame = frame;
            this.priority = priority;
            this.flowId = flowId;
            this.sequence = sequence;
        }
    }

    private final List<Packet> packets = new ArrayList<>();
    private final long capacityLength;
    private final int maxFrameLength;
    private final int maxPackets;
    private final DropHandler dropHandler;
    private long byteCount;
    private long rankInversions;
    private long nextSequence;

    /**
     * A model with the same limits as a {@link PfabricQueue} of this capacity.
     *
     * @param capacityLength bytes the buffer may hold.
     * @param maxFrameLength longest frame accepted.
     * @param dropHandler    told of every drop.
     */
    public ReferencePfabricQueue(final long capacityLength, final int maxFrameLength, final DropHandler dropHandler)
    {
        this.capacityLength = capacityLength;
        this.maxFrameLength = maxFrameLength;
        this.maxPackets = (int)(capacityLength / QueueDiscipline.MIN_FRAME_LENGTH + 1);
        this.dropHandler = dropHandler;
    }

    /**
     * Offer a frame.
     *
     * @param src       holding the frame.
     * @param srcOffset of the frame.
     * @param length    of the frame.
     * @param priority  smaller is more urgent.
     * @param flowId    flow identity.
     * @return true if buffered.
     */
    public boolean enqueue(
        final DirectBuffer src, final int srcOffset, final int length, final long priority, final long flowId)
    {
        if (length <= 0 || length > maxFrameLength)
        {
            dropHandler.onDrop(src, srcOffset, length, DropReason.BAD_LENGTH);
            return false;
        }
        final long saturated = Math.max(0, Math.min(priority, QueueDiscipline.MAX_PRIORITY));

        final List<Packet> victims = new ArrayList<>();
        long bytes = byteCount;
        final boolean fits = bytes + length <= capacityLength && packets.size() < maxPackets;
        final List<Packet> remaining = fits ? packets : new ArrayList<>(packets);
        while (bytes + length > capacityLength || remaining.size() >= maxPackets)
        {
            Packet leastUrgent = null;
            for (final Packet packet : remaining)
            {
                if (null == leastUrgent || packet.priority > leastUrgent.priority ||
                    (packet.priority == leastUrgent.priority && packet.sequence > leastUrgent.sequence))
                {
                    leastUrgent = packet;
                }
            }
            if (null == leastUrgent || leastUrgent.priority <= saturated)
            {
                dropHandler.onDrop(src, srcOffset, length, DropReason.PRIORITY_DROP_ARRIVAL);
                return false;
            }
            remaining.remove(leastUrgent);
            victims.add(leastUrgent);
            bytes -= leastUrgent.frame.length;
        }

        for (final Packet victim : victims)
        {
            packets.remove(victim);
            byteCount -= victim.frame.length;
            dropHandler.onDrop(new UnsafeBuffer(victim.frame), 0, victim.frame.length,
                DropReason.PRIORITY_EVICTION);
        }
        final byte[] frame = new byte[length];
        src.getBytes(srcOffset, frame);
        packets.add(new Packet(frame, saturated, flowId, nextSequence++));
        byteCount += length;
        return true;
    }

    /**
     * Take the next frame.
     *
     * @param dst       to copy into.
     * @param dstOffset where to copy.
     * @return the frame length, or 0 if empty.
     */
    public int dequeue(final MutableDirectBuffer dst, final int dstOffset)
    {
        final byte[] frame = removeNext();
        if (null == frame)
        {
            return 0;
        }
        dst.putBytes(dstOffset, frame);
        return frame.length;
    }

    /**
     * Take the next frame, handing it to a handler.
     *
     * @param handler given the frame.
     * @return the frame length, or 0 if empty.
     */
    public int dequeue(final FrameHandler handler)
    {
        final byte[] frame = removeNext();
        if (null == frame)
        {
            return 0;
        }
        handler.onFrame(new UnsafeBuffer(frame), 0, frame.length);
        return frame.length;
    }

    /**
     * Frames sent while a more urgent frame waited.
     *
     * @return the count.
     */
    long rankInversions()
    {
        return rankInversions;
    }

    private byte[] removeNext()
    {
        if (packets.isEmpty())
        {
            return null;
        }
        Packet mostUrgent = null;
        for (final Packet packet : packets)
        {
            if (null == mostUrgent || packet.priority < mostUrgent.priority)
            {
                mostUrgent = packet;
            }
        }
        Packet chosen = null;
        for (final Packet packet : packets)
        {
            if (packet.flowId == mostUrgent.flowId)
            {
                chosen = packet;
                break;
            }
        }
        packets.remove(chosen);
        byteCount -= chosen.frame.length;
        for (final Packet packet : packets)
        {
            if (packet.priority < chosen.priority)
            {
                rankInversions++;
                break;
            }
        }
        return chosen.frame;
    }

    /**
     * Frames buffered.
     *
     * @return the count.
     */
    public int packetCount()
    {
        return packets.size();
    }

    /**
     * Bytes buffered.
     *
     * @return the byte count.
     */
    public long byteCount()
    {
        return byteCount;
    }
}
