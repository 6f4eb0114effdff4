package io.pfabric.hostd.app;

import io.pfabric.hostd.HostDaemon;
import io.pfabric.hostd.transport.FlowRecord;
import io.pfabric.hostd.transport.IncompleteFlowException;
import io.pfabric.hostd.transport.MessageChunks;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipalNotFoundException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Serves {@link AppProtocol} on a Unix domain socket for one {@link HostDaemon}: a thread per client reads its
 * requests, another writes the answers to its sends, a third (once it subscribes) pushes messages from the host's
 * {@link MessageInbox}: those kept while no client was subscribed first, in order, then each as it arrives. A
 * subscriber that does not keep up loses messages (counted) rather than stalling the transport. A client that goes
 * away gives up its flows still in flight ({@link HostDaemon#abandon}). Cold path.
 * <p>
 * Locked down: the socket file is created owner-only (read and write for the group too when {@link Access} names
 * one), in a private directory before it is moved into place, so no one else can connect in between; at most
 * {@link Access#maxClients()} clients at once (one more is told so and disconnected); a client that announces a frame
 * beyond {@link AppProtocol#MAX_FRAME_LENGTH}, sends one that does not parse, or stops in the middle of a frame (in
 * either direction) for longer than {@link Access#stallTimeoutNs()} is disconnected, and no other client notices.
 */
public final class AppServer implements AutoCloseable
{
    /**
     * Who may connect and how much a client may hold.
     *
     * @param groupName      a group whose members may connect too, or null for the owner only.
     * @param maxClients     clients served at once.
     * @param stallTimeoutNs longest a client may pause inside a frame it sends or receives.
     */
    public record Access(String groupName, int maxClients, long stallTimeoutNs)
    {
        /**
         * The owner only, 64 clients, 10 s.
         */
        public static final Access DEFAULT = new Access(null, 64, 10_000_000_000L);

        /**
         * Check the values.
         */
        public Access
        {
            if (maxClients < 1)
            {
                throw new IllegalArgumentException("at least one client must be allowed, not " + maxClients);
            }
            if (stallTimeoutNs < 1_000_000L)
            {
                throw new IllegalArgumentException("the stall timeout must be at least 1 ms, not " + stallTimeoutNs +
                    " ns");
            }
        }

        /**
         * The same, with a group whose members may connect.
         *
         * @param name the group.
         * @return the access.
         */
        public Access withGroup(final String name)
        {
            return new Access(name, maxClients, stallTimeoutNs);
        }
    }

    private static final int WRITE_CHUNK_LENGTH = 64 * 1024;

    private final Path path;
    private final ServerSocketChannel server;
    private final HostDaemon host;
    private final Access access;
    private final NanoClock clock;
    private final List<Client> clients = new CopyOnWriteArrayList<>();
    private final MessageInbox inbox;
    private final AtomicLong refusedClients = new AtomicLong();
    private final AtomicLong oversizedFrames = new AtomicLong();
    private final AtomicLong malformedFrames = new AtomicLong();
    private final AtomicLong stalledClients = new AtomicLong();
    private final Thread acceptor;
    private final ScheduledExecutorService watcher;

    private AppServer(final Path path, final ServerSocketChannel server, final HostDaemon host, final Access access,
        final NanoClock clock, final MessageInbox inbox)
    {
        this.inbox = inbox;
        this.path = path;
        this.server = server;
        this.host = host;
        this.access = access;
        this.clock = clock;
        this.acceptor = new Thread(this::accept, "hostd-app-accept");
        this.acceptor.setDaemon(true);
        this.watcher = Executors.newSingleThreadScheduledExecutor(daemonThreads("hostd-app-watch"));
    }

    private static ThreadFactory daemonThreads(final String name)
    {
        return runnable ->
        {
            final Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    /**
     * Listen on a socket path for the owner only, with the default limits (an old socket file there is replaced).
     *
     * @param path the socket's path.
     * @param host the host whose transport serves the requests.
     * @return the running server.
     * @throws IOException if the socket cannot be bound.
     */
    public static AppServer start(final Path path, final HostDaemon host) throws IOException
    {
        return start(path, host, Access.DEFAULT);
    }

    /**
     * Listen on a socket path (an old socket file there is replaced).
     *
     * @param path   the socket's path.
     * @param host   the host whose transport serves the requests.
     * @param access who may connect and the limits.
     * @return the running server.
     * @throws IOException if the socket cannot be bound or the group does not exist.
     */
    public static AppServer start(final Path path, final HostDaemon host, final Access access) throws IOException
    {
        return start(path, host, access, new SystemNanoClock(), new MessageInbox());
    }

    /**
     * Listen on a socket path (an old socket file there is replaced), pushing the messages of a given inbox: those it
     * kept before the server started go to the first client that subscribes.
     *
     * @param path   the socket's path.
     * @param host   the host whose transport serves the requests.
     * @param access who may connect and the limits.
     * @param inbox  the host's received messages, which the server's subscribers take.
     * @return the running server.
     * @throws IOException if the socket cannot be bound or the group does not exist.
     */
    public static AppServer start(final Path path, final HostDaemon host, final Access access, final MessageInbox inbox)
        throws IOException
    {
        return start(path, host, access, new SystemNanoClock(), inbox);
    }

    /**
     * Listen on a socket path (an old socket file there is replaced), timing clients' pauses inside frames by a given
     * clock.
     *
     * @param path   the socket's path.
     * @param host   the host whose transport serves the requests.
     * @param access who may connect and the limits.
     * @param clock  the time a client's pause is measured in; a test moves it by hand.
     * @return the running server.
     * @throws IOException if the socket cannot be bound or the group does not exist.
     */
    public static AppServer start(final Path path, final HostDaemon host, final Access access, final NanoClock clock)
        throws IOException
    {
        return start(path, host, access, clock, new MessageInbox());
    }

    private static AppServer start(final Path path, final HostDaemon host, final Access access, final NanoClock clock,
        final MessageInbox inbox) throws IOException
    {
        final ServerSocketChannel server = bindPrivate(path, access.groupName());
        final AppServer appServer = new AppServer(path, server, host, access, clock, inbox);
        appServer.acceptor.start();
        final long periodNs = Math.max(1_000_000L, access.stallTimeoutNs() / 4);
        appServer.watcher.scheduleAtFixedRate(appServer::disconnectStalled, periodNs, periodNs, TimeUnit.NANOSECONDS);
        return appServer;
    }

    /**
     * Bind the socket inside a directory only the owner can enter, set its mode (and group), then rename it to the
     * path, replacing what was there: it is never reachable with wider permissions.
     */
    private static ServerSocketChannel bindPrivate(final Path path, final String groupName) throws IOException
    {
        final Path parent = path.toAbsolutePath().getParent();
        final GroupPrincipal group;
        try
        {
            group = null == groupName ? null :
                parent.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByGroupName(groupName);
        }
        catch (final UserPrincipalNotFoundException ex)
        {
            throw new IOException("there is no group named '" + groupName + "'", ex);
        }
        final Path staging;
        try
        {
            staging = Files.createTempDirectory(parent, ".pfabric-hostd-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
        catch (final IOException ex)
        {
            throw new IOException("cannot listen on " + path + ": " + ex.getMessage(), ex);
        }
        final Path staged = staging.resolve("s");
        final ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        try
        {
            server.bind(UnixDomainSocketAddress.of(staged));
            if (null != group)
            {
                Files.getFileAttributeView(staged, PosixFileAttributeView.class).setGroup(group);
            }
            Files.setPosixFilePermissions(staged, PosixFilePermissions.fromString(null == group ? "rw-------" :
                "rw-rw----"));
            Files.move(staged, path, StandardCopyOption.ATOMIC_MOVE);
            return server;
        }
        catch (final IOException ex)
        {
            server.close();
            throw new IOException("cannot listen on " + path + ": " + ex.getMessage(), ex);
        }
        finally
        {
            Files.deleteIfExists(staged);
            Files.delete(staging);
        }
    }

    /**
     * Hand a received message to every subscriber, or keep it for the next one ({@link MessageInbox#publish}); called
     * on the transport's thread, never blocks.
     *
     * @param sourceHost the sender's name.
     * @param flowId     the flow that carried it.
     * @param message    the message, which the server keeps as it is: the caller gives it up.
     */
    public void publish(final String sourceHost, final long flowId, final byte[] message)
    {
        inbox.publish(sourceHost, flowId, message);
    }

    /**
     * Messages subscribers lost because they did not keep up.
     *
     * @return the count.
     */
    public long droppedMessages()
    {
        return inbox.subscriberDropped();
    }

    /**
     * The messages the server's subscribers take.
     *
     * @return the inbox.
     */
    public MessageInbox inbox()
    {
        return inbox;
    }

    /**
     * Clients subscribed now: a client counts from when the server has read its SUBSCRIBE, so that messages received
     * from then on are pushed to it, until it disconnects.
     *
     * @return the count.
     */
    public int subscribers()
    {
        return inbox.subscribers();
    }

    /**
     * Clients connected now.
     *
     * @return the count.
     */
    public int clients()
    {
        return clients.size();
    }

    /**
     * Clients turned away because {@link Access#maxClients()} were connected.
     *
     * @return the count.
     */
    public long refusedClients()
    {
        return refusedClients.get();
    }

    /**
     * Clients disconnected for announcing a frame longer than {@link AppProtocol#MAX_FRAME_LENGTH}.
     *
     * @return the count.
     */
    public long oversizedFrames()
    {
        return oversizedFrames.get();
    }

    /**
     * Clients disconnected for a frame that does not parse.
     *
     * @return the count.
     */
    public long malformedFrames()
    {
        return malformedFrames.get();
    }

    /**
     * Clients disconnected for pausing inside a frame longer than {@link Access#stallTimeoutNs()}.
     *
     * @return the count.
     */
    public long stalledClients()
    {
        return stalledClients.get();
    }

    private void disconnectStalled()
    {
        final long nowNs = clock.nanoTime();
        for (final Client client : clients)
        {
            if (client.stalled(nowNs, access.stallTimeoutNs()))
            {
                stalledClients.incrementAndGet();
                client.disconnect();
            }
        }
    }

    private void accept()
    {
        while (server.isOpen())
        {
            try
            {
                final SocketChannel channel = server.accept();
                if (clients.size() >= access.maxClients())
                {
                    refusedClients.incrementAndGet();
                    refuse(channel, "hostd serves at most " + access.maxClients() + " clients at once");
                    continue;
                }
                final Client client = new Client(channel);
                clients.add(client);
                final Thread reader = new Thread(client::serve, "hostd-app-client");
                reader.setDaemon(true);
                reader.start();
            }
            catch (final ClosedChannelException ex)
            {
                return;
            }
            catch (final IOException ex)
            {
                if (!server.isOpen())
                {
                    return;
                }
            }
        }
    }

    private static void refuse(final SocketChannel channel, final String reason)
    {
        try (channel)
        {
            AppProtocol.writeFrame(Channels.newOutputStream(channel), closing(reason));
        }
        catch (final IOException ex)
        {
            // The client is gone already.
        }
    }

    private static String reason(final IncompleteFlowException incomplete)
    {
        return IncompleteFlowException.TRANSPORT_CLOSED.equals(incomplete.reason()) ?
            "incomplete: the host stopped" : "incomplete: " + incomplete.reason();
    }

    private static byte[] closing(final String reason) throws IOException
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + reason.length());
        final DataOutputStream frame = new DataOutputStream(bytes);
        frame.writeByte(AppProtocol.CLOSING);
        AppProtocol.writeString(frame, reason);
        return bytes.toByteArray();
    }

    private final class Client
    {
        private final SocketChannel channel;
        private final OutputStream out;
        private final ExecutorService answers = Executors.newSingleThreadExecutor(daemonThreads("hostd-app-answer"));
        private final Set<CompletableFuture<FlowRecord>> flowsInFlight = ConcurrentHashMap.newKeySet();
        private volatile MessageInbox.Subscriber subscription;
        private volatile Thread pusher;
        private volatile boolean readingFrame;
        private volatile long lastReadNs;
        private volatile boolean writingFrame;
        private volatile long lastWriteNs;

        Client(final SocketChannel channel)
        {
            this.channel = channel;
            this.out = Channels.newOutputStream(channel);
        }

        boolean stalled(final long nowNs, final long timeoutNs)
        {
            return (readingFrame && nowNs - lastReadNs > timeoutNs) || (writingFrame && nowNs - lastWriteNs > timeoutNs);
        }

        void disconnect()
        {
            try
            {
                channel.close();
            }
            catch (final IOException ignored)
            {
                // Closed already.
            }
        }

        void serve()
        {
            final InputStream progress = new FilterInputStream(Channels.newInputStream(channel))
            {
                public int read() throws IOException
                {
                    final int read = super.read();
                    lastReadNs = clock.nanoTime();
                    return read;
                }

                public int read(final byte[] bytes, final int offset, final int length) throws IOException
                {
                    final int read = super.read(bytes, offset, length);
                    lastReadNs = clock.nanoTime();
                    return read;
                }
            };
            final DataInputStream in = new DataInputStream(progress);
            try
            {
                int first;
                while ((first = in.read()) >= 0)
                {
                    readingFrame = true;
                    final byte[] body = AppProtocol.readFrame(first, in);
                    readingFrame = false;
                    handle(body);
                }
            }
            catch (final AppProtocol.FrameLengthException ex)
            {
                oversizedFrames.incrementAndGet();
                sayClosing(ex.getMessage());
            }
            catch (final AppProtocol.MalformedFrameException ex)
            {
                malformedFrames.incrementAndGet();
                sayClosing(ex.getMessage());
            }
            catch (final IOException ex)
            {
                // The client went away, or was disconnected for stalling.
            }
            finally
            {
                readingFrame = false;
                clients.remove(this);
                unsubscribe();
                disconnect();
                answers.shutdown();
                for (final CompletableFuture<FlowRecord> flow : flowsInFlight)
                {
                    host.abandon(flow);
                }
                final Thread current = pusher;
                if (null != current)
                {
                    current.interrupt();
                }
            }
        }

        private void sayClosing(final String reason)
        {
            try
            {
                write(closing(reason));
            }
            catch (final IOException ex)
            {
                // Gone already.
            }
        }

        private void handle(final byte[] body) throws IOException
        {
            switch (AppProtocol.parseRequest(body))
            {
                case AppProtocol.Send send -> send(send);
                case AppProtocol.Subscribe subscribe -> subscribe();
            }
        }

        private void send(final AppProtocol.Send request)
        {
            final long requestId = request.requestId();
            try
            {
                final CompletableFuture<FlowRecord> flow = null != request.payload() ?
                    host.send(request.destination(), request.payload(), request.dscp(), request.deadlineNs()) :
                    host.send(request.destination(), request.sizeBytes(), request.dscp(), request.deadlineNs());
                flowsInFlight.add(flow);
                flow.whenComplete((record, failure) -> flowsInFlight.remove(flow))
                    .whenCompleteAsync((record, failure) -> answer(requestId, record, failure), this::runAnswer);
            }
            catch (final IllegalArgumentException ex)
            {
                answer(requestId, null, ex);
            }
        }

        /**
         * Runs an answer on the client's writer thread; after the client is gone, the answer has no one to go to.
         */
        private void runAnswer(final Runnable answer)
        {
            try
            {
                answers.execute(answer);
            }
            catch (final RejectedExecutionException ex)
            {
                // The client disconnected.
            }
        }

        private void subscribe()
        {
            if (null != subscription)
            {
                return;
            }
            final MessageInbox.Subscriber subscriber = inbox.subscribe();
            subscription = subscriber;
            final Thread thread = new Thread(() -> push(subscriber), "hostd-app-push");
            thread.setDaemon(true);
            pusher = thread;
            thread.start();
        }

        private void unsubscribe()
        {
            final MessageInbox.Subscriber current = subscription;
            if (null != current)
            {
                inbox.unsubscribe(current);
            }
        }

        /**
         * Push each message as a MESSAGE frame: its fields first, then the message's own bytes, never assembled into
         * one array.
         */
        private void push(final MessageInbox.Subscriber subscriber)
        {
            final ByteArrayOutputStream fields = new ByteArrayOutputStream(64);
            final DataOutputStream frame = new DataOutputStream(fields);
            try
            {
                while (channel.isOpen())
                {
                    final MessageInbox.Message message = subscriber.take();
                    fields.reset();
                    frame.writeInt(0);
                    frame.writeByte(AppProtocol.MESSAGE);
                    AppProtocol.writeString(frame, message.sourceHost());
                    frame.writeLong(message.flowId());
                    frame.writeInt(message.bytes().length());
                    final byte[] head = fields.toByteArray();
                    ByteBuffer.wrap(head).putInt(0, head.length - Integer.BYTES + message.bytes().length());
                    write(head, head.length, message.bytes());
                }
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            catch (final IOException ex)
            {
                unsubscribe();
            }
        }

        private void answer(final long requestId, final FlowRecord record, final Throwable failure)
        {
            try
            {
                final ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
                final DataOutputStream frame = new DataOutputStream(bytes);
                if (null == failure)
                {
                    frame.writeByte(AppProtocol.COMPLETED);
                    frame.writeInt((int)requestId);
                    frame.writeLong(record.flowId());
                    frame.writeLong(record.fctNs());
                    frame.writeInt(record.timeouts());
                    frame.writeLong(record.retransmittedBytes());
                }
                else
                {
                    final Throwable cause = failure instanceof CompletionException && null != failure.getCause() ?
                        failure.getCause() : failure;
                    frame.writeByte(AppProtocol.FAILED);
                    frame.writeInt((int)requestId);
                    AppProtocol.writeString(frame, cause instanceof IncompleteFlowException incomplete ?
                        reason(incomplete) : String.valueOf(cause.getMessage()));
                }
                write(bytes.toByteArray());
            }
            catch (final IOException ex)
            {
                unsubscribe();
            }
        }

        private void write(final byte[] body) throws IOException
        {
            write(AppProtocol.lengthOf(body), Integer.BYTES, MessageChunks.of(body));
        }

        /**
         * Write a frame, its first bytes from one array and the rest from another, in slices, each slice's progress
         * noted, so a client that stops reading is found stalled.
         */
        private synchronized void write(final byte[] head, final int headLength, final MessageChunks tail)
            throws IOException
        {
            lastWriteNs = clock.nanoTime();
            writingFrame = true;
            try
            {
                out.write(head, 0, headLength);
                for (int i = 0; i < tail.chunkCount(); i++)
                {
                    final byte[] chunk = tail.chunk(i);
                    for (int offset = 0; offset < chunk.length; offset += WRITE_CHUNK_LENGTH)
                    {
                        out.write(chunk, offset, Math.min(WRITE_CHUNK_LENGTH, chunk.length - offset));
                        lastWriteNs = clock.nanoTime();
                    }
                }
            }
            finally
            {
                writingFrame = false;
            }
        }
    }

    /**
     * Stop listening, disconnect every client and remove the socket file.
     */
    public void close()
    {
        watcher.shutdownNow();
        try
        {
            server.close();
            for (final Client client : clients)
            {
                client.disconnect();
            }
            Files.deleteIfExists(path);
        }
        catch (final IOException ex)
        {
            // Best effort at shutdown.
        }
    }
}
