package io.pfabric.hostd.app;

import io.pfabric.hostd.HostDaemon;
import io.pfabric.testsupport.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Messages that arrive while no client is subscribed to the application socket: the next subscriber gets them, in
 * order, before the ones that arrive after it subscribed; beyond the inbox's bounds (messages and bytes) the oldest
 * are dropped and counted.
 */
@Timeout(60)
class AppServerInboxTest
{
    private static final Duration PATIENCE = Duration.ofSeconds(20);

    @TempDir
    Path directory;

    private HostDaemon host;
    private AppServer server;

    private record Received(String sourceHost, long flowId, byte[] message)
    {
    }

    @BeforeEach
    void startHost() throws Exception
    {
        host = LoopbackHosts.startH1();
    }

    @AfterEach
    void stop()
    {
        if (null != server)
        {
            server.close();
        }
        if (null != host)
        {
            host.close();
        }
    }

    private static byte[] message(final int length, final int fill)
    {
        final byte[] bytes = new byte[length];
        Arrays.fill(bytes, (byte)fill);
        return bytes;
    }

    private AppClient subscriber(final Path socket, final BlockingQueue<Received> received) throws Exception
    {
        final AppClient client = AppClient.connect(socket);
        client.subscribe((source, flowId, message) -> received.add(new Received(source, flowId, message)));
        Await.await(() -> 1 == server.subscribers(), PATIENCE, "the server has read the subscription");
        return client;
    }

    private static void assertNext(final BlockingQueue<Received> received, final long flowId, final byte[] message)
        throws InterruptedException
    {
        final Received next = received.poll(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertNotNull(next, "message of flow " + flowId + " pushed");
        assertEquals("h2", next.sourceHost());
        assertEquals(flowId, next.flowId());
        assertArrayEquals(message, next.message());
    }

    @Test
    void aMessageThatArrivedWithNoSubscriberGoesToTheNextOneBeforeLaterMessages() throws Exception
    {
        final Path socket = directory.resolve("h1.sock");
        server = AppServer.start(socket, host);
        final byte[] early = message(5_000, 1);
        server.publish("h2", 7, early);

        final BlockingQueue<Received> received = new LinkedBlockingQueue<>();
        final AppClient client = subscriber(socket, received);
        try
        {
            final byte[] later = message(300, 2);
            server.publish("h2", 8, later);
            assertNext(received, 7, early);
            assertNext(received, 8, later);
        }
        finally
        {
            client.close();
        }
        assertEquals(0, server.inbox().keptDropped());
    }

    @Test
    void beyondTheBoundsTheOldestKeptMessagesAreDroppedAndCounted() throws Exception
    {
        final Path socket = directory.resolve("h1.sock");
        final MessageInbox inbox = new MessageInbox(3, 1_000);
        server = AppServer.start(socket, host, AppServer.Access.DEFAULT, inbox);
        for (int flow = 1; flow <= 5; flow++)
        {
            server.publish("h2", flow, message(100, flow));
        }
        assertEquals(2, inbox.keptDropped(), "more than 3 messages: flows 1 and 2 dropped");
        assertEquals(3, inbox.keptMessages());
        for (int flow = 6; flow <= 8; flow++)
        {
            server.publish("h2", flow, message(400, flow));
        }
        assertEquals(6, inbox.keptDropped(), "flows 3 to 5 for the count, 6 for the bytes (1,200 > 1,000)");
        server.publish("h2", 9, message(1_001, 9));
        assertEquals(7, inbox.keptDropped(), "a message longer than the byte bound is not kept");
        assertEquals(2, inbox.keptMessages());

        final BlockingQueue<Received> received = new LinkedBlockingQueue<>();
        final AppClient client = subscriber(socket, received);
        try
        {
            assertEquals(0, inbox.keptMessages());
            final byte[] marker = message(10, 10);
            server.publish("h2", 10, marker);
            assertNext(received, 7, message(400, 7));
            assertNext(received, 8, message(400, 8));
            assertNext(received, 10, marker);
        }
        finally
        {
            client.close();
        }
        assertEquals(7, inbox.keptDropped());
        assertEquals(0, inbox.subscriberDropped());
    }
}
