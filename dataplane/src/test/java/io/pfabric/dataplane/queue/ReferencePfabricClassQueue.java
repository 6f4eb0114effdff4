package io.pfabric.dataplane.queue;

import io.pfabric.common.topology.TrafficClasses;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * A deliberately simple model of {@link PfabricClassQueue}: one list of frames in arrival order, scanned in full for
 * every decision, and the round of backlogged classes as a list. It shares no code with the queue.
 */
final class ReferencePfabricClassQueue
{
    private static final class Packet
    {
        final byte[] frame;
        final int trafficClass;
        final long priority;
        final long flowId;
        final long sequence;

        Packet(final byte[] frame, final int trafficClass, final long priority, final long flowId, final long sequence)
        {
            this.frame = frame;
            this.trafficClass = trafficClass;
            this.priority = priority;
            this.flowId = flowId;
            this.sequence = sequence;
        }
    }

    private final List<Packet> packets = new ArrayList<>();
    private final List<Integer> round = new ArrayList<>();
    private final TrafficClasses classes;
    private final long capacityLength;
    private final int maxFrameLength;
    private final long[] deficitLength;
    private final DropHandler dropHandler;
    private boolean headCredited;
    private long byteCount;
    private long nextSequence;

    ReferencePfabricClassQueue(
        final long capacityLength,
        final int maxFrameLength,
        final TrafficClasses classes,
        final DropHandler dropHandler)
    {
        this.capacityLength = capacityLength;
        this.maxFrameLength = maxFrameLength;
        this.classes = classes;
        this.deficitLength = new long[classes.classCount()];
        this.dropHandler = dropHandler;
    }

    boolean enqueue(
        final DirectBuffer src,
        final int srcOffset,
        final int length,
        final long priority,
        final long flowId,
        final int dscp)
    {
        if (length <= 0 || length > maxFrameLength)
        {
            dropHandler.onDrop(src, srcOffset, length, DropReason.BAD_LENGTH);
            return false;
        }
        final long saturated = Math.max(0, Math.min(priority, QueueDiscipline.MAX_PRIORITY));
        final int trafficClass = classes.classOf(dscp & 63);
        if (byteCount + length > capacityLength && !makeRoom(trafficClass, length, saturated))
        {
            dropHandler.onDrop(src, srcOffset, length, DropReason.PRIORITY_DROP_ARRIVAL);
            return false;
        }
        if (0 == bytesOf(trafficClass) && !round.contains(trafficClass))
        {
            if (round.isEmpty())
            {
                headCredited = false;
            }
            round.add(trafficClass);
        }
        final byte[] frame = new byte[length];
        src.getBytes(srcOffset, frame);
        packets.add(new Packet(frame, trafficClass, saturated, flowId, nextSequence++));
        byteCount += length;
        return true;
    }

    private boolean makeRoom(final int trafficClass, final int length, final long priority)
    {
        if (bytesOf(trafficClass) + length <= share(trafficClass))
        {
            while (byteCount + length > capacityLength)
            {
                int furthest = -1;
                long furthestOver = 0;
                for (int k = 0; k < classes.classCount(); k++)
                {
                    final long over = bytesOf(k) - share(k);
                    if (k != trafficClass && over > furthestOver)
                    {
                        furthest = k;
                        furthestOver = over;
                    }
                }
                if (-1 == furthest)
                {
                    break;
                }
                evict(leastUrgent(packetsOf(furthest)), DropReason.CLASS_SHARE_EVICTION);
            }
            if (byteCount + length <= capacityLength)
            {
                return true;
            }
        }
        final List<Packet> own = packetsOf(trafficClass);
        final List<Packet> victims = new ArrayList<>();
        long bytes = byteCount;
        while (bytes + length > capacityLength)
        {
            final Packet leastUrgent = leastUrgent(own);
            if (null == leastUrgent || leastUrgent.priority <= priority)
            {
                return false;
            }
            own.remove(leastUrgent);
            victims.add(leastUrgent);
            bytes -= leastUrgent.frame.length;
        }
        for (final Packet victim : victims)
        {
            evict(victim, DropReason.PRIORITY_EVICTION);
        }
        return true;
    }

    int dequeue(final MutableDirectBuffer dst, final int dstOffset)
    {
        if (packets.isEmpty())
        {
            return 0;
        }
        while (true)
        {
            final int trafficClass = round.get(0);
            if (!headCredited)
            {
                deficitLength[trafficClass] += (long)classes.weight(trafficClass) * maxFrameLength;
                headCredited = true;
            }
            final List<Packet> own = packetsOf(trafficClass);
            Packet mostUrgent = null;
            for (final Packet packet : own)
            {
                if (null == mostUrgent || packet.priority < mostUrgent.priority)
                {
                    mostUrgent = packet;
                }
            }
            Packet chosen = null;
            for (final Packet packet : own)
            {
                if (packet.flowId == mostUrgent.flowId)
                {
                    chosen = packet;
                    break;
                }
            }
            if (chosen.frame.length <= deficitLength[trafficClass])
            {
                deficitLength[trafficClass] -= chosen.frame.length;
                remove(chosen);
                dst.putBytes(dstOffset, chosen.frame);
                return chosen.frame.length;
            }
            round.remove(0);
            round.add(trafficClass);
            headCredited = false;
        }
    }

    long byteCount()
    {
        return byteCount;
    }

    int packetCount()
    {
        return packets.size();
    }

    private void evict(final Packet victim, final DropReason reason)
    {
        remove(victim);
        dropHandler.onDrop(new UnsafeBuffer(victim.frame), 0, victim.frame.length, reason);
    }

    private void remove(final Packet packet)
    {
        packets.remove(packet);
        byteCount -= packet.frame.length;
        if (0 == bytesOf(packet.trafficClass))
        {
            if (round.get(0) == packet.trafficClass)
            {
                headCredited = false;
            }
            round.remove(Integer.valueOf(packet.trafficClass));
            deficitLength[packet.trafficClass] = 0;
        }
    }

    private static Packet leastUrgent(final List<Packet> candidates)
    {
        Packet leastUrgent = null;
        for (final Packet packet : candidates)
        {
            if (null == leastUrgent || packet.priority > leastUrgent.priority ||
                (packet.priority == leastUrgent.priority && packet.sequence > leastUrgent.sequence))
            {
                leastUrgent = packet;
            }
        }
        return leastUrgent;
    }

    private List<Packet> packetsOf(final int trafficClass)
    {
        final List<Packet> own = new ArrayList<>();
        for (final Packet packet : packets)
        {
            if (packet.trafficClass == trafficClass)
            {
                own.add(packet);
            }
        }
        return own;
    }

    private long bytesOf(final int trafficClass)
    {
        long bytes = 0;
        for (final Packet packet : packets)
        {
            if (packet.trafficClass == trafficClass)
            {
                bytes += packet.frame.length;
            }
        }
        return bytes;
    }

    private long share(final int trafficClass)
    {
        return capacityLength * classes.weight(trafficClass) / classes.totalWeight();
    }
}
