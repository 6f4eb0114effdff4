package io.pfabric.switchd;

import io.pfabric.common.packet.FramePort;
import io.pfabric.common.packet.PacketHandler;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * A switch port in memory: frames queued in {@code arriving} are received (stamped with the times in {@code
 * arrivingAtNs}, while it has any), frames transmitted collect in {@code sent}.
 */
final class MemoryFramePort implements FramePort
{
    final ArrayDeque<byte[]> arriving = new ArrayDeque<>();
    final ArrayDeque<Long> arrivingAtNs = new ArrayDeque<>();
    private long arrivalNs = UNKNOWN_ARRIVAL;
    final List<byte[]> sent = new ArrayList<>();

    public int receive(final PacketHandler handler, final int limit)
    {
        int taken = 0;
        while (taken < limit && !arriving.isEmpty())
        {
            final byte[] frame = arriving.poll();
            final Long stampNs = arrivingAtNs.poll();
            arrivalNs = null == stampNs ? UNKNOWN_ARRIVAL : stampNs;
            handler.onPacket(new UnsafeBuffer(frame), 0, frame.length);
            taken++;
        }
        return taken;
    }

    public long arrivalNs()
    {
        return arrivalNs;
    }

    public boolean canTransmit()
    {
        return true;
    }

    public boolean transmit(final DirectBuffer src, final int srcOffset, final int length)
    {
        final byte[] frame = new byte[length];
        src.getBytes(srcOffset, frame);
        sent.add(frame);
        return true;
    }

    public int flush()
    {
        return 0;
    }

    public long transmitRetries()
    {
        return 0;
    }

    public void updateKernelStatistics()
    {
    }

    public long kernelDrops()
    {
        return 0;
    }

    public long oversizeDrops()
    {
        return 0;
    }

    public int maxFrameLength()
    {
        return 1514;
    }

    public String interfaceName()
    {
        return "memory";
    }

    public void close()
    {
    }
}
