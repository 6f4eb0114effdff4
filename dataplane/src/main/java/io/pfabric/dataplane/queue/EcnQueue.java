package io.pfabric.dataplane.queue;

import io.pfabric.common.wire.EthernetFlyweight;
import io.pfabric.common.wire.Ipv4Flyweight;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * A drop-tail FIFO that marks ECN Congestion Experienced on every ECN-capable IPv4 arrival that finds more than K
 * bytes buffered: the DCTCP switch (Alizadeh et al., SIGCOMM 2010, §3.1: mark on the instantaneous queue, no
 * averaging).
 */
public final class EcnQueue extends DropTailQueue
{
    /**
     * Name on the command line.
     */
    public static final String NAME = "ecn";

    /**
     * Default marking threshold K: 15 full frames, the pFabric simulations' DCTCP setting.
     */
    public static final long DEFAULT_MARKING_THRESHOLD_LENGTH = 22_500;

    private final long markingThresholdLength;

    /**
     * An ECN-marking queue for frames up to a 1500-byte MTU.
     *
     * @param capacityLength         bytes the buffer may hold.
     * @param markingThresholdLength K, in bytes.
     */
    public EcnQueue(final long capacityLength, final long markingThresholdLength)
    {
        this(capacityLength, DEFAULT_MAX_FRAME_LENGTH, markingThresholdLength);
    }

    /**
     * An ECN-marking queue.
     *
     * @param capacityLength         bytes the buffer may hold.
     * @param maxFrameLength         longest frame accepted.
     * @param markingThresholdLength K, in bytes.
     */
    public EcnQueue(final long capacityLength, final int maxFrameLength, final long markingThresholdLength)
    {
        this(capacityLength, maxFrameLength, maxFrameLength, markingThresholdLength);
    }

    /**
     * An ECN-marking queue that stores at most the first bytes of each frame (its Ethernet and IPv4 headers at
     * least, where the mark goes).
     *
     * @param capacityLength         bytes the buffer may hold.
     * @param maxFrameLength         longest frame accepted.
     * @param maxStoredLength        most bytes of a frame stored.
     * @param markingThresholdLength K, in bytes.
     */
    public EcnQueue(final long capacityLength, final int maxFrameLength, final int maxStoredLength,
        final long markingThresholdLength)
    {
        super(capacityLength, maxFrameLength, maxStoredLength);
        if (markingThresholdLength < 0)
        {
            throw new IllegalArgumentException("markingThresholdLength must not be negative: " + markingThresholdLength);
        }
        this.markingThresholdLength = markingThresholdLength;
    }

    /**
     * {@inheritDoc}
     */
    public String name()
    {
        return NAME;
    }

    /**
     * The marking threshold K.
     *
     * @return K in bytes.
     */
    public long markingThresholdLength()
    {
        return markingThresholdLength;
    }

    /**
     * {@inheritDoc}
     */
    public boolean marksFrames()
    {
        return true;
    }

    protected void onAdmitted(final int slot, final long occupancyBeforeLength)
    {
        if (occupancyBeforeLength <= markingThresholdLength)
        {
            return;
        }
        mark(slab, slot, counters);
    }

    /**
     * Mark a stored frame CE if it is ECN-capable IPv4, counting it as marked or unmarkable.
     */
    static void mark(final PacketSlab slab, final int slot, final QueueCounters counters)
    {
        final UnsafeBuffer buffer = slab.buffer();
        final int offset = slab.offset(slot);
        final boolean ipv4 =
            slab.storedLength(slot) >= EthernetFlyweight.HEADER_LENGTH + Ipv4Flyweight.HEADER_LENGTH &&
            EthernetFlyweight.ETHERTYPE_IPV4 ==
            (buffer.getShort(offset + EthernetFlyweight.ETHERTYPE_FIELD_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF);
        if (ipv4 && Ipv4Flyweight.markCongestionExperienced(buffer, offset + EthernetFlyweight.HEADER_LENGTH))
        {
            counters.add(QueueCounter.ECN_MARKED_PACKETS, 1);
        }
        else
        {
            counters.add(QueueCounter.ECN_UNMARKABLE_PACKETS, 1);
        }
    }
}
