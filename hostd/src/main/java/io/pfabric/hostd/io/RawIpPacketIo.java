package io.pfabric.hostd.io;

import io.pfabric.common.packet.FramePort;
import io.pfabric.common.packet.PacketHandler;
import io.pfabric.common.packet.PacketPort;
import io.pfabric.common.packet.PacketSocketException;
import io.pfabric.common.packet.ProtocolSink;
import io.pfabric.common.packet.VxlanPort;
import io.pfabric.common.topology.HostSpec;
import io.pfabric.common.topology.PortSpec;
import io.pfabric.common.topology.Topology;
import io.pfabric.common.topology.UdpEndpoints;
import io.pfabric.common.wire.EthernetFlyweight;
import io.pfabric.common.wire.Ipv4Flyweight;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Int2IntHashMap;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Enumeration;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * pFabric packets directly in IPv4 as protocol 253, in Ethernet frames on a packet socket ({@link PacketPort},
 * TPACKET_V2 rings) bound to the interface that holds the host's address, or on a VXLAN-over-UDP tunnel to the
 * host's switch port ({@link #openVxlan}). Frames are addressed to the destination host's MAC from the
 * topology (the switch forwards by IP address anyway). A {@link ProtocolSink} claims protocol 253 so the kernel
 * does not answer each packet with ICMP protocol-unreachable. Received frames count only if they are IPv4
 * protocol 253 to this host's address with a valid header checksum, from a host of the topology.
 * <p>
 * Waiting ({@link #await}) is a {@code ppoll(2)} on the packet socket and an eventfd, which a new send
 * ({@link #wakeup()}) writes; several hosts' I/O can be waited for together ({@link RawIoGroup}).
 */
public final class RawIpPacketIo implements PacketIo, PacketHandler
{
    private static final int MTU_LENGTH = 1_500;
    private static final int DEFAULT_TTL = 64;
    private static final int FRAME_OVERHEAD = EthernetFlyweight.HEADER_LENGTH + Ipv4Flyweight.HEADER_LENGTH;

    private final FramePort port;
    private final ProtocolSink sink;
    private final int maxPacketLength;
    private final int localAddress;
    private final long localMac;
    private final int[] addresses;
    private final long[] macs;
    private final Int2IntHashMap hostByAddress = new Int2IntHashMap(-1);
    private final UnsafeBuffer frame = new UnsafeBuffer(ByteBuffer.allocateDirect(2_048));
    private final EthernetFlyweight ethernet = new EthernetFlyweight();
    private final Ipv4Flyweight ipv4 = new Ipv4Flyweight();
    private final Ipv4Flyweight inboundIpv4 = new Ipv4Flyweight();
    private InboundHandler handler;
    private int identification;
    private long packetsSent;
    private long packetsReceived;
    private long framesIgnored;
    private long sendFailures;

    private RawIpPacketIo(final FramePort port, final ProtocolSink sink, final Topology topology, final int localHost,
        final long localMac, final int mtu)
    {
        this.port = port;
        this.sink = sink;
        final List<HostSpec> hosts = topology.hosts();
        this.addresses = new int[hosts.size()];
        this.macs = new long[hosts.size()];
        for (int i = 0; i < hosts.size(); i++)
        {
            addresses[i] = hosts.get(i).ip();
            macs[i] = hosts.get(i).mac();
            hostByAddress.put(addresses[i], i);
        }
        this.localAddress = addresses[localHost];
        this.localMac = localMac;
        this.maxPacketLength = Math.min(mtu, MTU_LENGTH) - Ipv4Flyweight.HEADER_LENGTH;
    }

    /**
     * Open the I/O of a host in the calling thread's network namespace.
     *
     * @param topology  the fabric.
     * @param localHost this host's index.
     * @return the open I/O.
     * @throws IOException if no interface holds the host's address, or the sockets cannot be opened (root needed).
     */
    public static RawIpPacketIo open(final Topology topology, final int localHost) throws IOException
    {
        final HostSpec host = topology.hosts().get(localHost);
        final String interfaceName = interfaceHolding(host.ipText());
        PacketPort port = null;
        try
        {
            port = PacketPort.open(interfaceName);
            final ProtocolSink sink = ProtocolSink.open(Ipv4Flyweight.PROTOCOL_PFABRIC);
            return new RawIpPacketIo(port, sink, topology, localHost, port.macAddress(), port.mtu());
        }
        catch (final PacketSocketException ex)
        {
            if (null != port)
            {
                port.close();
            }
            throw new IOException(ex.getMessage(), ex);
        }
    }

    /**
     * Open the I/O of a host attached to its switch by a VXLAN-over-UDP port (the topology's {@code udp} port of
     * the switch): the host's end of the tunnel is the port's remote address, its peer the port's local one. Needs
     * no privilege, so a whole fabric can run on loopback.
     *
     * @param topology  the fabric.
     * @param localHost this host's index.
     * @return the I/O.
     * @throws IOException if the host's port is not a UDP port or its address cannot be bound.
     */
    public static RawIpPacketIo openVxlan(final Topology topology, final int localHost) throws IOException
    {
        final HostSpec host = topology.hosts().get(localHost);
        final PortSpec attachment = topology.switchNamed(host.switchName()).port(host.portName());
        if (null == attachment || !attachment.isUdp())
        {
            throw new IOException("host " + host.name() + " hangs on " + host.switchName() + ":" + host.portName() +
                ", which is not a udp (VXLAN) port");
        }
        final UdpEndpoints tunnel = attachment.udp();
        try
        {
            final VxlanPort port = VxlanPort.open(new InetSocketAddress(tunnel.remoteHost(), tunnel.remotePort()),
                new InetSocketAddress(tunnel.localHost(), tunnel.localPort()), tunnel.vni(),
                EthernetFlyweight.HEADER_LENGTH + MTU_LENGTH);
            return new RawIpPacketIo(port, null, topology, localHost, host.mac(), MTU_LENGTH);
        }
        catch (final PacketSocketException ex)
        {
            throw new IOException(ex.getMessage(), ex);
        }
    }

        private static String interfaceHolding(final String address) throws IOException
    {
        final InetAddress wanted = InetAddress.getByName(address);
        try
        {
            final Enumeration<NetworkInterface> interfaces = NetworkInterface.getNetworkInterfaces();
            while (interfaces.hasMoreElements())
            {
                final NetworkInterface candidate = interfaces.nextElement();
                final Enumeration<InetAddress> held = candidate.getInetAddresses();
                while (held.hasMoreElements())
                {
                    final InetAddress heldAddress = held.nextElement();
                    if (heldAddress instanceof Inet4Address && heldAddress.equals(wanted))
                    {
                        return candidate.getName();
                    }
                }
            }
        }
        catch (final SocketException ex)
        {
            throw new IOException("cannot list the interfaces: " + ex.getMessage(), ex);
        }
        throw new IOException("no interface holds " + address + " in this network namespace");
    }

    /**
     * {@inheritDoc}
     */
    public int poll(final InboundHandler inboundHandler, final int limit)
    {
        handler = inboundHandler;
        return port.receive(this, limit);
    }

    /**
     * {@inheritDoc}
     */
    public int await(final InboundHandler inboundHandler, final long timeoutNs)
    {
        if (port instanceof PacketPort packetPort)
        {
            packetPort.awaitReceiveNs(timeoutNs);
        }
        else
        {
            LockSupport.parkNanos(timeoutNs);
        }
        return poll(inboundHandler, Integer.MAX_VALUE);
    }

    /**
     * {@inheritDoc}
     * <p>
     * On a packet socket; a VXLAN tunnel's or AF_XDP port's wait is a bounded park.
     */
    public boolean wakeable()
    {
        return port instanceof PacketPort;
    }

    /**
     * {@inheritDoc}
     */
    public void wakeup()
    {
        if (port instanceof PacketPort packetPort)
        {
            packetPort.wakeup();
        }
    }

    /**
     * {@inheritDoc}
     */
    public void onPacket(final MutableDirectBuffer buffer, final int offset, final int length)
    {
        if (length < FRAME_OVERHEAD || EthernetFlyweight.ETHERTYPE_IPV4 !=
            (buffer.getShort(offset + EthernetFlyweight.ETHERTYPE_FIELD_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF))
        {
            framesIgnored++;
            return;
        }
        final int ipOffset = offset + EthernetFlyweight.HEADER_LENGTH;
        inboundIpv4.wrap(buffer, ipOffset);
        final int headerLength = inboundIpv4.headerLength();
        final int totalLength = inboundIpv4.totalLength();
        if (Ipv4Flyweight.VERSION != inboundIpv4.version() || headerLength < Ipv4Flyweight.HEADER_LENGTH ||
            Ipv4Flyweight.PROTOCOL_PFABRIC != inboundIpv4.protocol() ||
            localAddress != inboundIpv4.destinationAddress() || totalLength < headerLength ||
            totalLength > length - EthernetFlyweight.HEADER_LENGTH || inboundIpv4.moreFragments() ||
            0 != inboundIpv4.fragmentOffset() || !inboundIpv4.checksumValid())
        {
            framesIgnored++;
            return;
        }
        final int source = hostByAddress.get(inboundIpv4.sourceAddress());
        if (source < 0 || null == handler)
        {
            framesIgnored++;
            return;
        }
        packetsReceived++;
        handler.onPacket(source, buffer, ipOffset + headerLength, totalLength - headerLength);
    }

    /**
     * {@inheritDoc}
     */
    public boolean send(final int destinationHost, final DirectBuffer buffer, final int offset, final int length)
    {
        return send(destinationHost, buffer, offset, length, 0);
    }

    /**
     * {@inheritDoc}
     */
    public boolean send(
        final int destinationHost, final DirectBuffer buffer, final int offset, final int length, final int dscp)
    {
        if (length > maxPacketLength() || !port.canTransmit())
        {
            sendFailures++;
            return false;
        }
        ethernet.wrap(frame, 0)
            .destinationMac(macs[destinationHost])
            .sourceMac(localMac)
            .etherType(EthernetFlyweight.ETHERTYPE_IPV4);
        ipv4.wrap(frame, EthernetFlyweight.HEADER_LENGTH)
            .version(Ipv4Flyweight.VERSION)
            .ihl(Ipv4Flyweight.MIN_IHL)
            .dscp(dscp)
            .ecn(0)
            .totalLength(Ipv4Flyweight.HEADER_LENGTH + length)
            .identification(identification++ & 0xFFFF)
            .flagsAndFragmentOffset(Ipv4Flyweight.DONT_FRAGMENT_FLAG)
            .ttl(DEFAULT_TTL)
            .protocol(Ipv4Flyweight.PROTOCOL_PFABRIC)
            .sourceAddress(localAddress)
            .destinationAddress(addresses[destinationHost])
            .computeChecksum();
        frame.putBytes(FRAME_OVERHEAD, buffer, offset, length);
        if (!port.transmit(frame, 0, FRAME_OVERHEAD + length))
        {
            sendFailures++;
            return false;
        }
        packetsSent++;
        return true;
    }

    /**
     * {@inheritDoc}
     * <p>
     * A 1500-byte MTU less the IPv4 header.
     */
    public int maxPacketLength()
    {
        return maxPacketLength;
    }

    FramePort port()
    {
        return port;
    }

    /**
     * {@inheritDoc}
     */
    public void flush()
    {
        port.flush();
    }

    /**
     * {@inheritDoc}
     */
    public void claim()
    {
        port.claim();
    }

    /**
     * {@inheritDoc}
     */
    public void close()
    {
        port.close();
        if (null != sink)
        {
            sink.close();
        }
    }

    /**
     * Packets sent.
     *
     * @return the count.
     */
    public long packetsSent()
    {
        return packetsSent;
    }

    /**
     * Packets received for this host.
     *
     * @return the count.
     */
    public long packetsReceived()
    {
        return packetsReceived;
    }

    /**
     * Frames on the interface that were not protocol 253 to this host from a known host, or were malformed.
     *
     * @return the count.
     */
    public long framesIgnored()
    {
        return framesIgnored;
    }

    /**
     * Packets the ring would not take.
     *
     * @return the count.
     */
    public long sendFailures()
    {
        return sendFailures;
    }
}
