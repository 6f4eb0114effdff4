package io.pfabric.hostd.app;

import io.pfabric.common.topology.Topologies;
import io.pfabric.hostd.HostDaemon;
import io.pfabric.hostd.io.UdpPacketIo;
import io.pfabric.hostd.transport.TransportConfiguration;
import io.pfabric.hostd.transport.TransportListener;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;

/**
 * The host an application socket test serves: h1 of a two-host star, its transport over UDP on loopback ports free at
 * the time, with the paper's settings and a listener that ignores what arrives.
 */
final class LoopbackHosts
{
    private LoopbackHosts()
    {
    }

    /**
     * Start h1.
     *
     * @return the running host; the caller closes it.
     * @throws Exception if it cannot start.
     */
    static HostDaemon startH1() throws Exception
    {
        final InetAddress loopback = InetAddress.getLoopbackAddress();
        final List<InetSocketAddress> addresses =
            List.of(new InetSocketAddress(loopback, freePort()), new InetSocketAddress(loopback, freePort()));
        return HostDaemon.start(Topologies.star(2, "", 0, "pfabric"), "h1",
            new HostDaemon.Options(TransportConfiguration.PAPER, 0, 42, null, true),
            (t, local) -> UdpPacketIo.open(addresses, local), new TransportListener() { });
    }

    private static int freePort() throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0))
        {
            return socket.getLocalPort();
        }
    }
}
