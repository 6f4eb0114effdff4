package io.pfabric.hostd;

import io.pfabric.common.topology.Topologies;
import io.pfabric.common.topology.Topology;
import io.pfabric.common.wire.PfabricHeaderFlyweight;
import io.pfabric.hostd.io.UdpPacketIo;
import io.pfabric.hostd.transport.FlowRecord;
import io.pfabric.hostd.transport.TransportConfiguration;
import io.pfabric.hostd.transport.TransportListener;
import io.pfabric.testsupport.Await;
import io.pfabric.testsupport.LoopbackPorts;
import org.agrona.DirectBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * A sender restarted while its receiver remembers the flows of its earlier start, two hosts over loopback UDP: the
 * new start's flow ids carry a new incarnation, so its first message is a new flow to the receiver, delivered whole,
 * and not taken for the completed flow with the same counter (which the receiver would acknowledge as a duplicate,
 * and the sender report as complete, with nothing delivered).
 */
@Timeout(60)
class HostRestartTest
{
    private static final Duration PATIENCE = Duration.ofSeconds(20);

    private final List<HostDaemon> hosts = new ArrayList<>();
    private final Map<Long, byte[]> delivered = new ConcurrentHashMap<>();

    @AfterEach
    void stop()
    {
        hosts.forEach(HostDaemon::close);
    }

    private HostDaemon start(final Topology topology, final String name, final List<InetSocketAddress> addresses,
        final TransportListener listener) throws IOException
    {
        final HostDaemon host = HostDaemon.start(topology, name,
            new HostDaemon.Options(TransportConfiguration.PAPER.withTimeoutNs(2_000_000), 0, 42, null, true),
            (t, local) -> UdpPacketIo.open(addresses, local), listener);
        hosts.add(host);
        return host;
    }

    @Test
    void aRestartedSendersFirstMessageIsANewFlowDeliveredWhole() throws Exception
    {
        final Topology topology = Topologies.star(2, "", 0, "pfabric");
        final List<InetSocketAddress> addresses = LoopbackPorts.hosts(2);
        start(topology, "h2", addresses, new TransportListener()
        {
            public void onMessage(final int sourceHost, final long flowId, final DirectBuffer message, final int length)
            {
                final byte[] bytes = new byte[length];
                message.getBytes(0, bytes);
                delivered.put(flowId, bytes);
            }
        });
        final SplittableRandom random = new SplittableRandom(12);
        final byte[] before = new byte[50_000];
        random.nextBytes(before);
        final HostDaemon first = start(topology, "h1", addresses, new TransportListener() { });
        final FlowRecord beforeRecord = first.send("h2", before).get(30, TimeUnit.SECONDS);
        Await.await(() -> delivered.containsKey(beforeRecord.flowId()), PATIENCE, "the first start's message arrived");
        final int firstIncarnation = first.incarnation();
        first.close();
        hosts.remove(first);
        Await.await(() -> HostDaemon.incarnationNow() != firstIncarnation, PATIENCE,
            "the clock moved to the next incarnation");

        final HostDaemon second = start(topology, "h1", addresses, new TransportListener() { });
        assertNotEquals(firstIncarnation, second.incarnation());
        final byte[] after = new byte[50_000];
        random.nextBytes(after);
        final FlowRecord afterRecord = second.send("h2", after).get(30, TimeUnit.SECONDS);
        assertEquals(PfabricHeaderFlyweight.flowCounter(beforeRecord.flowId()),
            PfabricHeaderFlyweight.flowCounter(afterRecord.flowId()), "both starts' first flow has counter 0");
        assertNotEquals(beforeRecord.flowId(), afterRecord.flowId());
        Await.await(() -> delivered.containsKey(afterRecord.flowId()), PATIENCE,
            "the restarted sender's message arrived as a new flow");
        assertArrayEquals(after, delivered.get(afterRecord.flowId()));
        assertArrayEquals(before, delivered.get(beforeRecord.flowId()));
        assertEquals(2, delivered.size());
    }
}
