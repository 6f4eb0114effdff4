package io.pfabric.hostd.app;

import io.pfabric.hostd.HostDaemon;
import io.pfabric.testsupport.Await;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The application socket's doors, on one host over loopback UDP: the socket file is owner-only (or the given group's
 * too) from the moment it is reachable, the number of clients is bounded, and a client that announces too long a
 * frame, sends one that does not parse or stops in the middle of one is disconnected while the others are served.
 */
@Timeout(60)
class AppServerAccessTest
{
    private static final Duration PATIENCE = Duration.ofSeconds(20);

    @TempDir
    Path directory;

    private HostDaemon host;
    private AppServer server;

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

    /**
     * A request the host answers without the network: a send to a host the topology does not have fails at once.
     */
    private static void assertServed(final AppClient client) throws Exception
    {
        final ExecutionException answered = assertThrows(ExecutionException.class,
            () -> client.send("h9", 10).get(10, TimeUnit.SECONDS));
        assertTrue(answered.getCause().getMessage().contains("h9"), answered.getCause().getMessage());
    }

    private static SocketChannel connectRaw(final Path socket) throws IOException
    {
        final SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        channel.connect(UnixDomainSocketAddress.of(socket));
        return channel;
    }

    /**
     * What the server says before it disconnects a client: the reason of its CLOSING frame; then the stream ends.
     */
    private static String closingReason(final SocketChannel channel) throws IOException
    {
        final DataInputStream in = new DataInputStream(Channels.newInputStream(channel));
        final DataInputStream fields = new DataInputStream(new ByteArrayInputStream(AppProtocol.readFrame(in)));
        assertEquals(AppProtocol.CLOSING, fields.readUnsignedByte());
        final String reason = AppProtocol.readString(fields);
        assertNull(AppProtocol.readFrame(in), "the server closed the connection after saying why");
        return reason;
    }

    @Test
    void theSocketIsTheOwnersOnlyAndReplacesAnOldFile() throws Exception
    {
        final Path socket = directory.resolve("h1.sock");
        Files.writeString(socket, "a stale file");
        server = AppServer.start(socket, host);
        final PosixFileAttributes attributes = Files.readAttributes(socket, PosixFileAttributes.class);
        assertTrue(attributes.isOther(), "a socket, not the stale file");
        assertEquals("rw-------", PosixFilePermissions.toString(attributes.permissions()));
        try (Stream<Path> left = Files.list(directory))
        {
            assertEquals(List.of(socket), left.toList(), "nothing is left of the private directory it was bound in");
        }
        try (AppClient client = AppClient.connect(socket))
        {
            assertServed(client);
        }
        server.close();
        server = null;
        assertFalse(Files.exists(socket), "closing removes the socket file");
    }

    @Test
    void aGroupGivenMayConnectToo() throws Exception
    {
        final GroupPrincipal group = Files.readAttributes(directory, PosixFileAttributes.class).group();
        final Path socket = directory.resolve("h1.sock");
        server = AppServer.start(socket, host, AppServer.Access.DEFAULT.withGroup(group.getName()));
        final PosixFileAttributes attributes = Files.readAttributes(socket, PosixFileAttributes.class);
        assertEquals("rw-rw----", PosixFilePermissions.toString(attributes.permissions()));
        assertEquals(group, attributes.group());

        final IOException unknown = assertThrows(IOException.class, () -> AppServer.start(directory.resolve("x.sock"),
            host, AppServer.Access.DEFAULT.withGroup("no-such-group-pfabric")));
        assertTrue(unknown.getMessage().contains("no group named 'no-such-group-pfabric'"), unknown.getMessage());
        assertFalse(Files.exists(directory.resolve("x.sock")));
    }

    @Test
    void clientsBeyondTheLimitAreToldAndTurnedAway() throws Exception
    {
        final Path socket = directory.resolve("h1.sock");
        server = AppServer.start(socket, host, new AppServer.Access(null, 2, 10_000_000_000L), new CachedNanoClock());
        final AppClient second = AppClient.connect(socket);
        try (AppClient first = AppClient.connect(socket))
        {
            Await.await(() -> 2 == server.clients(), PATIENCE, () -> "the server took both clients");
            try (AppClient third = AppClient.connect(socket))
            {
                Await.await(() -> !third.isConnected(), PATIENCE, () -> "the server turned the third client away");
                final ExecutionException refused = assertThrows(ExecutionException.class,
                    () -> third.send("h2", 10).get(10, TimeUnit.SECONDS));
                assertEquals("hostd closed the connection: hostd serves at most 2 clients at once",
                    refused.getCause().getMessage());
            }
            assertEquals(1, server.refusedClients());
            assertServed(first);
            second.close();
            Await.await(() -> 1 == server.clients(), PATIENCE, () -> "the server let the second client go");
            try (AppClient fourth = AppClient.connect(socket))
            {
                assertServed(fourth);
            }
            assertEquals(1, server.refusedClients());
        }
        finally
        {
            second.close();
        }
    }

    @Test
    void aFrameAnnouncedTooLongEndsThatClientOnly() throws Exception
    {
        final Path socket = directory.resolve("h1.sock");
        server = AppServer.start(socket, host);
        try (AppClient other = AppClient.connect(socket); SocketChannel rogue = connectRaw(socket))
        {
            rogue.write(ByteBuffer.allocate(4).putInt(0, AppProtocol.MAX_FRAME_LENGTH + 1));
            assertTrue(closingReason(rogue).startsWith("frame length " + (AppProtocol.MAX_FRAME_LENGTH + 1L) +
                " out of range"));
            assertEquals(1, server.oversizedFrames());
            assertServed(other);
        }
    }

    @Test
    void aFrameThatDoesNotParseEndsThatClientOnly() throws Exception
    {
        final Path socket = directory.resolve("h1.sock");
        server = AppServer.start(socket, host);
        try (AppClient other = AppClient.connect(socket); SocketChannel rogue = connectRaw(socket))
        {
            rogue.write(ByteBuffer.wrap(new byte[]{ 0, 0, 0, 3, AppProtocol.SEND, 0, 0 }));
            assertEquals("frame of type 1 ends before its fields", closingReason(rogue));
            try (SocketChannel unknown = connectRaw(socket))
            {
                unknown.write(ByteBuffer.wrap(new byte[]{ 0, 0, 0, 1, 99 }));
                assertEquals("unknown frame type 99", closingReason(unknown));
            }
            assertEquals(2, server.malformedFrames());
            assertServed(other);
        }
    }

    @Test
    void aClientThatStopsInsideAFrameIsDisconnectedAndAnIdleOneIsNot() throws Exception
    {
        final Path socket = directory.resolve("h1.sock");
        final long timeoutNs = 200_000_000L;
        final CachedNanoClock clock = new CachedNanoClock();
        server = AppServer.start(socket, host, new AppServer.Access(null, 64, timeoutNs), clock);
        try (AppClient idle = AppClient.connect(socket); SocketChannel stalling = connectRaw(socket))
        {
            Await.await(() -> 2 == server.clients(), PATIENCE, () -> "the server took both clients");
            stalling.write(ByteBuffer.wrap(new byte[]{ 0, 0, 0, 100, AppProtocol.SEND, 0, 0, 0, 7 }));
            Await.await(() ->
            {
                clock.advance(timeoutNs + 1);
                return 1 == server.stalledClients();
            }, PATIENCE, () -> "the server found the client paused inside its frame");
            assertEquals(-1, stalling.read(ByteBuffer.allocate(16)), "the stalled client's connection ends");
            assertEquals(1, server.stalledClients());
            assertTrue(idle.isConnected(), "a client idle between frames stays connected");
            assertServed(idle);
            Await.await(() -> 1 == server.clients(), PATIENCE, () -> "the server let the stalled client go");
        }
    }

    @Test
    void aFrameTakesMemoryForTheBytesThatArrivedNotForTheLengthAnnounced() throws Exception
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final byte[] stream = new byte[4 + 100];
        ByteBuffer.wrap(stream).putInt(1 << 30);
        final DataInputStream in = new DataInputStream(new ByteArrayInputStream(stream));
        final long beforeBytes = threads.getCurrentThreadAllocatedBytes();
        final IOException ended = assertThrows(IOException.class, () -> AppProtocol.readFrame(in));
        final long allocatedBytes = threads.getCurrentThreadAllocatedBytes() - beforeBytes;
        assertEquals("the stream ended inside a frame", ended.getMessage());
        assertTrue(allocatedBytes < 1 << 20, () -> "reading 100 bytes of a frame announced at 1 GiB allocated " +
            allocatedBytes + " bytes");
    }
}
