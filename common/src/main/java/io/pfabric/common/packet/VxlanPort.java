package io.pfabric.common.packet;

import io.pfabric.common.wire.VxlanFlyweight;
import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;

/**
 * A port that carries Ethernet frames in VXLAN (RFC 7348) over UDP to one peer: another switch's VXLAN port or a
 * Linux {@code vxlan} interface. A non-blocking {@link DatagramChannel} read and written from the data path's own
 * thread, through one pre-allocated direct buffer each way, so a frame is handled start to finish on that thread.
 * Datagrams are accepted from the peer's address whatever their source port (VXLAN senders vary it for ECMP entropy);
 * those from other addresses, with another VNI, without the I flag, or carrying a frame longer than
 * {@link #maxFrameLength()} are counted in {@link #oversizeDrops()} and dropped. Needs no privilege.
 */
public final class VxlanPort implements FramePort
{
    private static final int VXLAN_HEADER_LENGTH = VxlanFlyweight.HEADER_LENGTH;
    private static final int ETHERNET_HEADER_LENGTH = 14;
    private static final int FLAG_I = 0x08;

    private final DatagramChannel channel;
    private final InetSocketAddress remote;
    private final String description;
    private final int vni;
    private final int maxFrameLength;
    private final ByteBuffer rxBuffer;
    private final UnsafeBuffer rx;
    private final ByteBuffer txBuffer;
    private final UnsafeBuffer tx;
    private long badDatagrams;
    private long sendFailures;

    private VxlanPort(
        final DatagramChannel channel,
        final InetSocketAddress remote,
        final String description,
        final int vni,
        final int maxFrameLength)
    {
        this.channel = channel;
        this.remote = remote;
        this.description = description;
        this.vni = vni;
        this.maxFrameLength = maxFrameLength;
        final int capacity = BitUtil.align(VXLAN_HEADER_LENGTH + maxFrameLength + 1, 64);
        rxBuffer = BufferUtil.allocateDirectAligned(capacity, 64);
        rx = new UnsafeBuffer(rxBuffer);
        txBuffer = BufferUtil.allocateDirectAligned(capacity, 64);
        tx = new UnsafeBuffer(txBuffer);
    }

    /**
     * Open a VXLAN port.
     *
     * @param local          address and UDP port to receive on.
     * @param remote         the peer's address and UDP port.
     * @param vni            VXLAN network identifier, 24 bits.
     * @param maxFrameLength longest Ethernet frame carried, without FCS.
     * @return the port.
     * @throws PacketSocketException if the local address cannot be bound.
     */
    public static VxlanPort open(
        final InetSocketAddress local, final InetSocketAddress remote, final int vni, final int maxFrameLength)
        throws PacketSocketException
    {
        if (vni < 0 || vni > 0xFF_FFFF)
        {
            throw new IllegalArgumentException("VNI must fit 24 bits: " + vni);
        }
        final String description = "vxlan " + local.getHostString() + ":" + local.getPort() + "->" +
            remote.getHostString() + ":" + remote.getPort() + " vni " + vni;
        try
        {
            final DatagramChannel channel = DatagramChannel.open(StandardProtocolFamily.INET);
            try
            {
                channel.configureBlocking(false);
                channel.bind(local);
                return new VxlanPort(channel, remote, description, vni, maxFrameLength);
            }
            catch (final IOException | RuntimeException ex)
            {
                channel.close();
                throw ex;
            }
        }
        catch (final IOException ex)
        {
            throw new PacketSocketException("opening " + description + ": " + ex.getMessage());
        }
    }

    /**
     * {@inheritDoc}
     */
    public int receive(final PacketHandler handler, final int limit)
    {
        int taken = 0;
        while (taken < limit)
        {
            rxBuffer.clear();
            final SocketAddress sender;
            try
            {
                sender = channel.receive(rxBuffer);
            }
            catch (final IOException ex)
            {
                badDatagrams++;
                taken++;
                continue;
            }
            if (null == sender)
            {
                break;
            }
            taken++;
            final int frameLength = rxBuffer.position() - VXLAN_HEADER_LENGTH;
            if (!remote.getAddress().equals(((InetSocketAddress)sender).getAddress()) ||
                frameLength < ETHERNET_HEADER_LENGTH || frameLength > maxFrameLength ||
                FLAG_I != (rx.getByte(0) & FLAG_I) ||
                vni != (rx.getInt(4, ByteOrder.BIG_ENDIAN) >>> 8))
            {
                badDatagrams++;
                continue;
            }
            handler.onPacket(rx, VXLAN_HEADER_LENGTH, frameLength);
        }
        return taken;
    }

    /**
     * {@inheritDoc}
     */
    public boolean canTransmit()
    {
        return true;
    }

    /**
     * {@inheritDoc}
     */
    public boolean transmit(final DirectBuffer src, final int srcOffset, final int length)
    {
        if (length <= 0 || length > maxFrameLength)
        {
            return false;
        }
        tx.putInt(0, FLAG_I << 24, ByteOrder.BIG_ENDIAN);
        tx.putInt(4, vni << 8, ByteOrder.BIG_ENDIAN);
        tx.putBytes(VXLAN_HEADER_LENGTH, src, srcOffset, length);
        txBuffer.clear().limit(VXLAN_HEADER_LENGTH + length);
        try
        {
            if (0 == channel.send(txBuffer, remote))
            {
                sendFailures++;
                return false;
            }
            return true;
        }
        catch (final IOException ex)
        {
            sendFailures++;
            return false;
        }
    }

    /**
     * {@inheritDoc}
     */
    public int flush()
    {
        return 0;
    }

    /**
     * {@inheritDoc}
     */
    public void updateKernelStatistics()
    {
    }

    /**
     * {@inheritDoc}
     */
    public long kernelDrops()
    {
        return 0;
    }

    /**
     * {@inheritDoc}
     */
    public long oversizeDrops()
    {
        return badDatagrams;
    }

    /**
     * Frames that could not be sent (socket buffer full, or the peer unreachable).
     *
     * @return the count.
     */
    public long sendFailures()
    {
        return sendFailures;
    }

    /**
     * {@inheritDoc}
     */
    public int maxFrameLength()
    {
        return maxFrameLength;
    }

    /**
     * {@inheritDoc}
     */
    public String interfaceName()
    {
        return description;
    }

    /**
     * {@inheritDoc}
     */
    public void close()
    {
        try
        {
            channel.close();
        }
        catch (final IOException ex)
        {
            sendFailures++;
        }
    }
}
