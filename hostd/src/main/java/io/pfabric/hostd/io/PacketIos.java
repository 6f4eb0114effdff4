package io.pfabric.hostd.io;

import io.pfabric.common.packet.NettyTransport;
import io.pfabric.common.topology.HostSpec;
import io.pfabric.common.topology.Topology;
import io.pfabric.common.wire.EthernetFlyweight;
import io.pfabric.common.wire.Ipv4Flyweight;
import io.pfabric.common.wire.UdpFlyweight;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The packet I/O a host uses, by name: {@code udp}, pFabric over UDP port 7253 through the kernel's UDP stack with
 * Netty's epoll transport ({@code udp-io_uring} with its io_uring transport), {@code raw}, pFabric directly in IPv4
 * as protocol 253 on a packet socket, or {@code vxlan}, the same frames in a VXLAN tunnel to the switch's UDP port
 * (no privilege needed).
 */
public final class PacketIos
{
    /**
     * pFabric over UDP.
     */
    public static final String UDP = "udp";

    /**
     * pFabric over UDP with Netty's io_uring transport.
     */
    public static final String UDP_IO_URING = "udp-io_uring";

    /**
     * pFabric directly in IPv4, protocol 253, on a packet socket.
     */
    public static final String RAW = "raw";

    /**
     * pFabric directly in IPv4, protocol 253, in Ethernet frames over a VXLAN tunnel to the host's switch port.
     */
    public static final String VXLAN = "vxlan";

    private PacketIos()
    {
    }

    /**
     * Opens the named I/O for a host of a topology.
     *
     * @param mode {@code udp} (epoll), {@code udp-io_uring}, {@code raw} or {@code vxlan}.
     * @return the factory.
     * @throws IllegalArgumentException for another name.
     */
    public static PacketIoFactory factory(final String mode)
    {
        return switch (mode.toLowerCase(Locale.ROOT))
        {
            case UDP -> (topology, localHost) -> UdpPacketIo.open(udpAddresses(topology), localHost);
            case UDP_IO_URING -> (topology, localHost) ->
                UdpPacketIo.open(udpAddresses(topology), localHost, NettyTransport.IO_URING);
            case RAW -> RawIpPacketIo::open;
            case VXLAN -> RawIpPacketIo::openVxlan;
            default -> throw new IllegalArgumentException("unknown I/O '" + mode + "'; use udp, udp-io_uring, raw or " +
                "vxlan");
        };
    }

    /**
     * A group for the named I/O, in which one thread serves several hosts; owned by the calling thread.
     *
     * @param mode     {@code udp}, {@code udp-io_uring} or {@code raw}.
     * @param capacity most hosts it will serve.
     * @return the group.
     * @throws IOException if the I/O is not available here.
     * @throws IllegalArgumentException for {@code vxlan} (a thread per host) or another name.
     */
    public static PacketIoGroup group(final String mode, final int capacity) throws IOException
    {
        return switch (mode.toLowerCase(Locale.ROOT))
        {
            case UDP -> UdpIoGroup.open(NettyTransport.EPOLL);
            case UDP_IO_URING -> UdpIoGroup.open(NettyTransport.IO_URING);
            case RAW -> new RawIoGroup(capacity);
            default -> throw new IllegalArgumentException("hosts on one thread need udp, udp-io_uring or raw, not '" +
                mode + "'");
        };
    }

    /**
     * Whether {@link #group} serves the named I/O.
     *
     * @param mode an I/O's name.
     * @return true for {@code udp}, {@code udp-io_uring} and {@code raw}.
     */
    public static boolean groups(final String mode)
    {
        final String name = mode.toLowerCase(Locale.ROOT);
        return UDP.equals(name) || UDP_IO_URING.equals(name) || RAW.equals(name);
    }

    /**
     * Bytes each packet of the named I/O takes on the wire besides the pFabric header and payload (FCS excluded).
     *
     * @param mode {@code udp}, {@code udp-io_uring}, {@code raw} or {@code vxlan}.
     * @return Ethernet, IPv4 and (for UDP) UDP headers.
     */
    public static int wireOverheadLength(final String mode)
    {
        factory(mode);
        return EthernetFlyweight.HEADER_LENGTH + Ipv4Flyweight.HEADER_LENGTH +
            (mode.toLowerCase(Locale.ROOT).startsWith(UDP) ? UdpFlyweight.HEADER_LENGTH : 0);
    }

    /**
     * Every host's UDP address, port 7253.
     *
     * @param topology the fabric.
     * @return addresses by host index.
     */
    public static List<InetSocketAddress> udpAddresses(final Topology topology)
    {
        final List<InetSocketAddress> addresses = new ArrayList<>();
        for (final HostSpec host : topology.hosts())
        {
            final int ip = host.ip();
            try
            {
                addresses.add(new InetSocketAddress(InetAddress.getByAddress(new byte[]{
                    (byte)(ip >>> 24), (byte)(ip >>> 16), (byte)(ip >>> 8), (byte)ip }),
                    UdpFlyweight.PFABRIC_DEFAULT_PORT));
            }
            catch (final UnknownHostException ex)
            {
                throw new IllegalStateException(ex);
            }
        }
        return addresses;
    }
}
