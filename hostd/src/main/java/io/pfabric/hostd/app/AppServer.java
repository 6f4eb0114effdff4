package io.pfabric.hostd.app;

import io.pfabric.hostd.HostDaemon;
import io.pfabric.hostd.transport.FlowRecord;
import io.pfabric.hostd.transport.IncompleteFlowException;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Serves {@link AppProtocol} on a Unix domain socket for one {@link HostDaemon}: a thread per client, which reads
 * its requests; answers and pushed messages are written under the client's lock. A subscriber that does not keep up
 * loses messages (counted) rather than stalling the transport. Cold path.
 */
public final class AppServer implements AutoCloseable
{
    private static final int SUBSCRIBER_QUEUE_CAPACITY = 1_024;

    private final Path path;
    private final ServerSocketChannel server;
    private final HostDaemon host;
    private final List<Client> clients = new CopyOnWriteArrayList<>();
    private final AtomicLong droppedMessages = new AtomicLong();
    private final Thread acceptor;

    private AppServer(final Path path, final ServerSocketChannel server, final HostDaemon host)
    {
        this.path = path;
        this.server = server;
        this.host = host;
        this.acceptor = new Thread(this::accept, "hostd-app-accept");
        this.acceptor.setDaemon(true);
    }

    /**
     * Listen on a socket path (an old socket file there is replaced).
     *
     * @param path the socket's path.
     * @param host the host whose transport serves the requests.
     * @return the running server.
     * @throws IOException if the socket cannot be bound.
     */
    public static AppServer start(final Path path, final HostDaemon host) throws IOException
    {
        Files.deleteIfExists(path);
        final ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        try
        {
            server.bind(UnixDomainSocketAddress.of(path));
        }
        catch (final IOException ex)
        {
            server.close();
            throw new IOException("cannot listen on " + path + ": " + ex.getMessage(), ex);
        }
        final AppServer appServer = new AppServer(path, server, host);
        appServer.acceptor.start();
        return appServer;
    }

    /**
     * Hand a received message to every subscriber; called on the transport's thread, never blocks.
     *
     * @param sourceHost the sender's name.
     * @param flowId     the flow that carried it.
     * @param message    a copy of the message.
     */
    public void publish(final String sourceHost, final long flowId, final byte[] message)
    {
        for (final Client client : clients)
        {
            if (client.subscribed && !client.messages.offer(new Message(sourceHost, flowId, message)))
            {
                droppedMessages.incrementAndGet();
            }
        }
    }

    /**
     * Messages subscribers lost because they did not keep up.
     *
     * @return the count.
     */
    public long droppedMessages()
    {
        return droppedMessages.get();
    }

    /**
     * Clients subscribed now: a client counts from when the server has read its SUBSCRIBE, so that messages received
     * from then on are pushed to it, until it disconnects.
     *
     * @return the count.
     */
    public int subscribers()
    {
        int subscribers = 0;
        for (final Client client : clients)
        {
            subscribers += client.subscribed ? 1 : 0;
        }
        return subscribers;
    }

    private record Message(String sourceHost, long flowId, byte[] bytes)
    {
    }

    private void accept()
    {
        while (server.isOpen())
        {
            try
            {
                final SocketChannel channel = server.accept();
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

    private final class Client
    {
        private final SocketChannel channel;
        private final OutputStream out;
        private final BlockingQueue<Message> messages = new ArrayBlockingQueue<>(SUBSCRIBER_QUEUE_CAPACITY);
        private volatile boolean subscribed;

        Client(final SocketChannel channel)
        {
            this.channel = channel;
            this.out = Channels.newOutputStream(channel);
        }

        void serve()
        {
            try (DataInputStream in = new DataInputStream(Channels.newInputStream(channel)))
            {
                byte[] body;
                while (null != (body = AppProtocol.readFrame(in)))
                {
                    handle(body);
                }
            }
            catch (final IOException ex)
            {
                // The client went away or spoke nonsense: drop it.
            }
            finally
            {
                clients.remove(this);
                subscribed = false;
                try
                {
                    channel.close();
                }
                catch (final IOException ignored)
                {
                    // Already closed.
                }
            }
        }

        private void handle(final byte[] body) throws IOException
        {
            final DataInputStream fields = new DataInputStream(new ByteArrayInputStream(body));
            final int type = fields.readUnsignedByte();
            switch (type)
            {
                case AppProtocol.SEND -> send(fields);
                case AppProtocol.SUBSCRIBE -> subscribe();
                default -> throw new IOException("unknown frame type " + type);
            }
        }

        private void send(final DataInputStream fields) throws IOException
        {
            final long requestId = fields.readInt() & 0xFFFF_FFFFL;
            final String destination = AppProtocol.readString(fields);
            final long sizeBytes = fields.readLong();
            final boolean withPayload = 0 != (fields.readUnsignedByte() & AppProtocol.FLAG_PAYLOAD);
            try
            {
                final byte[] payload;
                if (withPayload)
                {
                    if (sizeBytes > fields.available())
                    {
                        throw new IllegalArgumentException("the payload is shorter than the size " + sizeBytes);
                    }
                    payload = fields.readNBytes((int)sizeBytes);
                }
                else
                {
                    payload = null;
                }
                (null != payload ? host.send(destination, payload) : host.send(destination, sizeBytes))
                    .whenCompleteAsync((record, failure) -> answer(requestId, record, failure));
            }
            catch (final IllegalArgumentException ex)
            {
                answer(requestId, null, ex);
            }
        }

        private void subscribe()
        {
            subscribed = true;
            final Thread pusher = new Thread(this::push, "hostd-app-push");
            pusher.setDaemon(true);
            pusher.start();
        }

        private void push()
        {
            try
            {
                while (channel.isOpen())
                {
                    final Message message = messages.take();
                    final ByteArrayOutputStream bytes = new ByteArrayOutputStream(message.bytes().length + 64);
                    final DataOutputStream frame = new DataOutputStream(bytes);
                    frame.writeByte(AppProtocol.MESSAGE);
                    AppProtocol.writeString(frame, message.sourceHost());
                    frame.writeLong(message.flowId());
                    frame.writeInt(message.bytes().length);
                    frame.write(message.bytes());
                    write(bytes.toByteArray());
                }
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            catch (final IOException ex)
            {
                subscribed = false;
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
                    AppProtocol.writeString(frame, cause instanceof IncompleteFlowException ?
                        "incomplete: the host stopped" : String.valueOf(cause.getMessage()));
                }
                write(bytes.toByteArray());
            }
            catch (final IOException ex)
            {
                subscribed = false;
            }
        }

        private synchronized void write(final byte[] body) throws IOException
        {
            AppProtocol.writeFrame(out, body);
        }
    }

    /**
     * Stop listening, disconnect every client and remove the socket file.
     */
    public void close()
    {
        try
        {
            server.close();
            for (final Client client : clients)
            {
                client.channel.close();
            }
            Files.deleteIfExists(path);
        }
        catch (final IOException ex)
        {
            // Best effort at shutdown.
        }
    }
}
