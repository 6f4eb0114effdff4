package io.pfabric.hostd.app;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A client of a host's application socket ({@link AppProtocol}): sends messages and, once subscribed, receives
 * them. A reader thread matches answers to requests and hands messages to the handler. Cold path.
 */
public final class AppClient implements AutoCloseable
{
    /**
     * The answer to a send.
     *
     * @param flowId             the flow that carried it.
     * @param fctNs              its completion time.
     * @param timeouts           timeouts it took.
     * @param retransmittedBytes bytes it sent again.
     */
    public record Completion(long flowId, long fctNs, int timeouts, long retransmittedBytes)
    {
    }

    /**
     * Receives messages after {@link #subscribe(MessageHandler)}.
     */
    @FunctionalInterface
    public interface MessageHandler
    {
        /**
         * A whole message.
         *
         * @param sourceHost the sender's name.
         * @param flowId     the flow that carried it.
         * @param message    its bytes.
         */
        void onMessage(String sourceHost, long flowId, byte[] message);
    }

    private final SocketChannel channel;
    private final OutputStream out;
    private final Map<Integer, CompletableFuture<Completion>> pending = new ConcurrentHashMap<>();
    private final AtomicInteger nextRequest = new AtomicInteger();
    private final Thread reader;
    private volatile MessageHandler handler;
    private volatile IOException failure;

    private AppClient(final SocketChannel channel)
    {
        this.channel = channel;
        this.out = Channels.newOutputStream(channel);
        this.reader = new Thread(this::read, "pfabric-app-client");
        this.reader.setDaemon(true);
    }

    /**
     * Connect to a host's socket.
     *
     * @param path the socket's path.
     * @return the client.
     * @throws IOException if nothing listens there.
     */
    public static AppClient connect(final Path path) throws IOException
    {
        final SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        try
        {
            channel.connect(UnixDomainSocketAddress.of(path));
        }
        catch (final IOException ex)
        {
            channel.close();
            throw new IOException("no hostd listening on " + path + " (start one with 'pfabric hostd'): " +
                ex.getMessage(), ex);
        }
        final AppClient client = new AppClient(channel);
        client.reader.start();
        return client;
    }

    /**
     * Send a message of a given size whose content does not matter.
     *
     * @param destination the receiving host's name.
     * @param sizeBytes   its size.
     * @return completed when the last byte is acknowledged; fails with the host's reason.
     */
    public CompletableFuture<Completion> send(final String destination, final long sizeBytes)
    {
        return send(destination, sizeBytes, null, -1, 0);
    }

    /**
     * Send a message of a given size whose content does not matter, its packets marked with a DSCP (a traffic class
     * at switches that have classes).
     *
     * @param destination the receiving host's name.
     * @param sizeBytes   its size.
     * @param dscp        IPv4 DSCP of the flow's packets, 0 to 63.
     * @return completed when the last byte is acknowledged; fails with the host's reason.
     */
    public CompletableFuture<Completion> send(final String destination, final long sizeBytes, final int dscp)
    {
        return send(destination, sizeBytes, null, requireDscp(dscp), 0);
    }

    /**
     * Send a message, its packets marked with a DSCP.
     *
     * @param destination the receiving host's name.
     * @param payload     the message.
     * @param dscp        IPv4 DSCP of the flow's packets, 0 to 63.
     * @return completed when the last byte is acknowledged; fails with the host's reason.
     */
    public CompletableFuture<Completion> send(final String destination, final byte[] payload, final int dscp)
    {
        return send(destination, payload.length, payload, requireDscp(dscp), 0);
    }

    /**
     * Send a message.
     *
     * @param destination the receiving host's name.
     * @param payload     the message.
     * @return completed when the last byte is acknowledged; fails with the host's reason.
     */
    public CompletableFuture<Completion> send(final String destination, final byte[] payload)
    {
        return send(destination, payload.length, payload, -1, 0);
    }

    /**
     * Send a message of a given size whose content does not matter, with a DSCP and a deadline: the time it has to
     * complete from its arrival at the host, which its packets carry under the host's deadline priority.
     *
     * @param destination the receiving host's name.
     * @param sizeBytes   its size.
     * @param dscp        IPv4 DSCP of the flow's packets, 0 to 63.
     * @param deadlineNs  positive.
     * @return completed when the last byte is acknowledged; fails with the host's reason.
     */
    public CompletableFuture<Completion> send(final String destination, final long sizeBytes, final int dscp,
        final long deadlineNs)
    {
        return send(destination, sizeBytes, null, requireDscp(dscp), requireDeadline(deadlineNs));
    }

    /**
     * Send a message with a DSCP and a deadline.
     *
     * @param destination the receiving host's name.
     * @param payload     the message.
     * @param dscp        IPv4 DSCP of the flow's packets, 0 to 63.
     * @param deadlineNs  positive.
     * @return completed when the last byte is acknowledged; fails with the host's reason.
     */
    public CompletableFuture<Completion> send(final String destination, final byte[] payload, final int dscp,
        final long deadlineNs)
    {
        return send(destination, payload.length, payload, requireDscp(dscp), requireDeadline(deadlineNs));
    }

    private static long requireDeadline(final long deadlineNs)
    {
        if (deadlineNs <= 0)
        {
            throw new IllegalArgumentException("a deadline must be positive: " + deadlineNs + " ns");
        }
        return deadlineNs;
    }

    private static int requireDscp(final int dscp)
    {
        if (dscp < 0 || dscp > 63)
        {
            throw new IllegalArgumentException("DSCP must be 0 to 63: " + dscp);
        }
        return dscp;
    }

    /**
     * SEND, with the DSCP flag only when a DSCP is given (-1 for none) and the deadline flag only with a deadline (0
     * for none), so that a host of an earlier version reads the frames of a client that gives neither.
     */
    private CompletableFuture<Completion> send(
        final String destination, final long sizeBytes, final byte[] payload, final int dscp, final long deadlineNs)
    {
        final CompletableFuture<Completion> future = new CompletableFuture<>();
        final int requestId = nextRequest.getAndIncrement();
        pending.put(requestId, future);
        try
        {
            final ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + (null == payload ? 0 : payload.length));
            final DataOutputStream frame = new DataOutputStream(bytes);
            frame.writeByte(AppProtocol.SEND);
            frame.writeInt(requestId);
            AppProtocol.writeString(frame, destination);
            frame.writeLong(sizeBytes);
            frame.writeByte((null == payload ? 0 : AppProtocol.FLAG_PAYLOAD) | (dscp < 0 ? 0 : AppProtocol.FLAG_DSCP) |
                (deadlineNs > 0 ? AppProtocol.FLAG_DEADLINE : 0));
            if (dscp >= 0)
            {
                frame.writeByte(dscp);
            }
            if (deadlineNs > 0)
            {
                frame.writeLong(deadlineNs);
            }
            if (null != payload)
            {
                frame.write(payload);
            }
            write(bytes.toByteArray());
        }
        catch (final IOException ex)
        {
            pending.remove(requestId);
            final IOException ended = failure;
            future.completeExceptionally(null == ended ? ex : ended);
        }
        return future;
    }

    /**
     * Receive every whole message the host gets from now on.
     *
     * @param messageHandler called on the client's reader thread.
     * @throws IOException if the request cannot be sent.
     */
    public void subscribe(final MessageHandler messageHandler) throws IOException
    {
        handler = messageHandler;
        write(new byte[]{ (byte)AppProtocol.SUBSCRIBE });
    }

    private synchronized void write(final byte[] body) throws IOException
    {
        if (null != failure)
        {
            throw failure;
        }
        AppProtocol.writeFrame(out, body);
    }

    private void read()
    {
        final DataInputStream in = new DataInputStream(Channels.newInputStream(channel));
        try
        {
            byte[] body;
            while (null != (body = AppProtocol.readFrame(in)))
            {
                final DataInputStream fields = new DataInputStream(new ByteArrayInputStream(body));
                switch (fields.readUnsignedByte())
                {
                    case AppProtocol.COMPLETED ->
                    {
                        final CompletableFuture<Completion> future = pending.remove(fields.readInt());
                        final Completion completion =
                            new Completion(fields.readLong(), fields.readLong(), fields.readInt(), fields.readLong());
                        if (null != future)
                        {
                            future.complete(completion);
                        }
                    }
                    case AppProtocol.FAILED ->
                    {
                        final CompletableFuture<Completion> future = pending.remove(fields.readInt());
                        final String reason = AppProtocol.readString(fields);
                        if (null != future)
                        {
                            future.completeExceptionally(new IOException(reason));
                        }
                    }
                    case AppProtocol.MESSAGE ->
                    {
                        final String source = AppProtocol.readString(fields);
                        final long flowId = fields.readLong();
                        final int length = fields.readInt();
                        if (length < 0 || length > fields.available())
                        {
                            throw new IOException("a message frame announces " + length + " bytes and holds " +
                                fields.available());
                        }
                        final byte[] message = fields.readNBytes(length);
                        final MessageHandler current = handler;
                        if (null != current)
                        {
                            current.onMessage(source, flowId, message);
                        }
                    }
                    case AppProtocol.CLOSING -> throw new IOException("hostd closed the connection: " +
                        AppProtocol.readString(fields));
                    default -> throw new IOException("unknown frame from the host");
                }
            }
            failure = new IOException("the host closed the connection");
        }
        catch (final IOException ex)
        {
            failure = ex;
        }
        closeQuietly(in);
        pending.values().forEach(future -> future.completeExceptionally(failure));
        pending.clear();
    }

    /**
     * Close the connection only once its failure is recorded: {@link #isConnected()} is false from the close on, and a
     * send after it must fail with the host's reason, not with the closed channel's.
     */
    private static void closeQuietly(final DataInputStream in)
    {
        try
        {
            in.close();
        }
        catch (final IOException ex)
        {
            // Closed already.
        }
    }

    /**
     * Whether the connection to the host is still up.
     *
     * @return false once the host closed it or it failed.
     */
    public boolean isConnected()
    {
        return null == failure && channel.isOpen();
    }

    /**
     * Disconnect.
     */
    public void close()
    {
        try
        {
            channel.close();
        }
        catch (final IOException ex)
        {
            // Closing anyway.
        }
    }
}
