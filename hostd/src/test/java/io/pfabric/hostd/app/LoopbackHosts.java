package io.pfabric.hostd.app;

import io.pfabric.common.topology.Topologies;
import io.pfabric.hostd.HostDaemon;
import io.pfabric.hostd.io.UdpPacketIo;
import io.pfabric.hostd.transport.TransportConfiguration;
import io.pfabric.hostd.transport.TransportListener;
import io.pfabric.testsupport.LoopbackPorts;

import java.net.InetSocketAddress;
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
        final List<InetSocketAddress> addresses = LoopbackPorts.hosts(2);
        return HostDaemon.start(Topologies.star(2, "", 0, "pfabric"), "h1",
            new HostDaemon.Options(TransportConfiguration.PAPER, 0, 42, null, true),
            (t, local) -> UdpPacketIo.open(addresses, local), new TransportListener() { });
    }
}
