package io.pfabric.hostd.app;

import io.pfabric.common.topology.Topologies;
import io.pfabric.common.topology.Topology;
import io.pfabric.hostd.HostDaemon;
import io.pfabric.hostd.io.UdpPacketIo;
import io.pfabric.hostd.transport.FlowRecord;
import io.pfabric.hostd.transport.TransportConfiguration;
import io.pfabric.hostd.transport.TransportListener;
import io.pfabric.testsupport.Await;
import io.pfabric.testsupport.LoopbackPorts;
import org.agrona.DirectBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two hosts on loopback UDP, unprivileged, each serving the application socket: a client of one sends a message, a
 * subscriber of the other receives it whole, and a send to an unknown host fails with a reason.
 */
@Timeout(60)
class AppSocketTest
{

    @Test
    void aMessageSentThroughOneHostsSocketArrivesWholeAtTheOthersSubscriber(@TempDir final Path directory)
        throws Exception
    {
        final Topology topology = Topologies.star(2, "", 0, "pfabric");
        final List<InetSocketAddress> addresses = LoopbackPorts.hosts(2);
        final AtomicReference<AppServer> receiverServer = new AtomicReference<>();
        final TransportListener publishing = new TransportListener()
        {
            public void onMessage(final int sourceHost, final long flowId, final DirectBuffer message,
                final int length)
            {
                final byte[] bytes = new byte[length];
                message.getBytes(0, bytes);
                receiverServer.get().publish(topology.hosts().get(sourceHost).name(), flowId, bytes);
            }
        };
        final HostDaemon.Options options = new HostDaemon.Options(
            TransportConfiguration.PAPER.withTimeoutNs(2_000_000), 0, 42, null, true);
        try (HostDaemon h1 = HostDaemon.start(topology, "h1", options,
                (t, local) -> UdpPacketIo.open(addresses, local), new TransportListener() { });
            HostDaemon h2 = HostDaemon.start(topology, "h2", options,
                (t, local) -> UdpPacketIo.open(addresses, local), publishing);
            AppServer senderServer = AppServer.start(directory.resolve("h1.sock"), h1))
        {
            assertEquals(0, senderServer.droppedMessages());
            receiverServer.set(AppServer.start(directory.resolve("h2.sock"), h2));
            try (AppClient sender = AppClient.connect(directory.resolve("h1.sock"));
                AppClient receiver = AppClient.connect(directory.resolve("h2.sock")))
            {
                final CompletableFuture<byte[]> arrived = new CompletableFuture<>();
                final CompletableFuture<String> from = new CompletableFuture<>();
                receiver.subscribe((source, flowId, message) ->
                {
                    from.complete(source);
                    arrived.complete(message);
                });
                Await.await(() -> 1 == receiverServer.get().subscribers(), Duration.ofSeconds(10),
                    "h2's application server has read the subscription");
                final byte[] payload = new byte[300_000];
                new SplittableRandom(4).nextBytes(payload);
                final AppClient.Completion completion = sender.send("h2", payload).get(30, TimeUnit.SECONDS);
                assertTrue(completion.fctNs() > 0);
                assertArrayEquals(payload, arrived.get(10, TimeUnit.SECONDS));
                assertEquals("h1", from.get());

                final ExecutionException unknown = assertThrows(ExecutionException.class,
                    () -> sender.send("h9", 10).get(10, TimeUnit.SECONDS));
                assertTrue(unknown.getCause().getMessage().contains("h9"), unknown.getCause().getMessage());
            }
            finally
            {
                receiverServer.get().close();
            }
            final FlowRecord sizeOnly = h2.send("h1", 5_000).get(30, TimeUnit.SECONDS);
            assertEquals(5_000, sizeOnly.sizeBytes());
        }
    }
}
