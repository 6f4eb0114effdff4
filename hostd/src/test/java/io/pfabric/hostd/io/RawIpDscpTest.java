package io.pfabric.hostd.io;

import io.pfabric.common.topology.Topology;
import io.pfabric.common.topology.TopologyParser;
import io.pfabric.common.wire.EthernetFlyweight;
import io.pfabric.common.wire.Ipv4Flyweight;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The IPv4 header hostd writes (raw and VXLAN I/O) carries the DSCP a packet is sent with: a host's VXLAN I/O on
 * loopback sends to a socket standing for its switch, which reads the DSCP of each datagram's inner frame.
 */
@Timeout(30)
class RawIpDscpTest
{
    private static final int VXLAN_HEADER_LENGTH = 8;

    private static int freeUdpPort() throws Exception
    {
        try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress()))
        {
            return socket.getLocalPort();
        }
    }

    @Test
    void eachPacketsIpv4HeaderCarriesTheDscpItWasSentWith(@TempDir final Path directory) throws Exception
    {
        final int hostPort = freeUdpPort();
        try (DatagramSocket switchEnd = new DatagramSocket(0, InetAddress.getLoopbackAddress()))
        {
            final int switchPort = switchEnd.getLocalPort();
            final Path file = directory.resolve("topology.yaml");
            Files.writeString(file, """
                hosts:
                  - {name: h1, ip: 10.0.0.1, mac: "02:00:00:00:00:01", switch: s1, port: p1}
                  - {name: h2, ip: 10.0.0.2, mac: "02:00:00:00:00:02", switch: s1, port: p2}
                switches:
                  - name: s1
                    ports:
                      - name: p1
                        udp: {local: "127.0.0.1:%d", remote: "127.0.0.1:%d"}
                      - name: p2
                        udp: {local: "127.0.0.1:%d", remote: "127.0.0.1:%d"}
                """.formatted(switchPort, hostPort, switchPort + 1, hostPort + 1));
            final Topology topology = TopologyParser.parse(file);
            switchEnd.setSoTimeout(10_000);
            try (RawIpPacketIo io = RawIpPacketIo.openVxlan(topology, 0))
            {
                io.poll((source, buffer, offset, length) -> { }, 1);
                final UnsafeBuffer packet = new UnsafeBuffer(new byte[100]);
                for (final int dscp : new int[]{ 46, 0, 8, 63 })
                {
                    io.send(1, packet, 0, packet.capacity(), dscp);
                }
                io.send(1, packet, 0, packet.capacity());
                io.flush();
                final byte[] datagram = new byte[2048];
                for (final int dscp : new int[]{ 46, 0, 8, 63, 0 })
                {
                    final DatagramPacket received = new DatagramPacket(datagram, datagram.length);
                    switchEnd.receive(received);
                    final Ipv4Flyweight ipv4 = new Ipv4Flyweight()
                        .wrap(new UnsafeBuffer(datagram), VXLAN_HEADER_LENGTH + EthernetFlyweight.HEADER_LENGTH);
                    assertEquals(dscp, ipv4.dscp());
                    assertEquals(0, ipv4.ecn());
                    assertTrue(ipv4.checksumValid());
                }
            }
        }
    }
}
