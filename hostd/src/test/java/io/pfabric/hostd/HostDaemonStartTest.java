package io.pfabric.hostd;

import io.pfabric.common.topology.Topologies;
import io.pfabric.common.topology.Topology;
import io.pfabric.hostd.io.PacketIo;
import io.pfabric.hostd.transport.TransportConfiguration;
import io.pfabric.hostd.transport.TransportListener;
import org.agrona.DirectBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * A started host is receiving: its I/O is claimed by the host's own thread before {@link HostDaemon#start} returns,
 * so that a VXLAN port, which binds its socket on the first call from its thread, cannot lose the first packets another
 * host sends it the moment it is started (a base-RTT measurement's, say).
 */
@Timeout(60)
class HostDaemonStartTest
{
    @Test
    void theHostsOwnThreadClaimsItsIoBeforeStartReturns() throws Exception
    {
        final Topology topology = Topologies.star(2, "", 0, "pfabric");
        final AtomicReference<Thread> claimedBy = new AtomicReference<>();
        final PacketIo io = new PacketIo()
        {
            public int poll(final InboundHandler handler, final int limit)
            {
                return 0;
            }

            public boolean send(final int destinationHost, final DirectBuffer buffer, final int offset,
                final int length)
            {
                return true;
            }

            public int maxPacketLength()
            {
                return 1_500;
            }

            public void flush()
            {
            }

            public void close()
            {
            }

            public void claim()
            {
                claimedBy.set(Thread.currentThread());
            }
        };
        final HostDaemon host = HostDaemon.start(topology, "h2",
            new HostDaemon.Options(TransportConfiguration.PAPER, 0, 42, null, false), (t, local) -> io,
            new TransportListener()
            {
            });
        try
        {
            assertNotNull(claimedBy.get(), "the I/O was claimed before start returned");
            assertEquals("hostd-h2", claimedBy.get().getName(), "by the host's own thread");
        }
        finally
        {
            host.close();
        }
    }
}
