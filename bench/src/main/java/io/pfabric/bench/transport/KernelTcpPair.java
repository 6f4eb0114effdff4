package io.pfabric.bench.transport;

import io.pfabric.common.packet.NetworkNamespace;
import io.pfabric.common.packet.PacketSocketException;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One kernel TCP connection between two network namespaces, from Java NIO: a server in one namespace that reads
 * messages (an 8-byte length, then that many bytes) and answers each with one byte, and a client socket made in the
 * other. Both ends set TCP_NODELAY and use blocking channels with direct buffers, so each byte crosses the
 * kernel once per side. A socket belongs to the namespace it was made in whichever thread uses it, so the client's
 * calls run on the caller's thread.
 */
final class KernelTcpPair implements AutoCloseable
{
    /**
     * The server's TCP port.
     */
    static final int PORT = 7256;

    /**
     * The length prefix of each message.
     */
    static final int HEADER_LENGTH = Long.BYTES;

    private static final int CHUNK_LENGTH = 256 * 1024;
    private static final long CONNECT_TIMEOUT_SECONDS = 10;

    private final ServerSocketChannel server;
    private final Thread serving;
    private final AtomicReference<SocketChannel> accepted = new AtomicReference<>();
    private final ByteBuffer chunk = ByteBuffer.allocateDirect(CHUNK_LENGTH);
    private final ByteBuffer reply = ByteBuffer.allocateDirect(1);
    private SocketChannel client;

    private KernelTcpPair(final ServerSocketChannel server)
    {
        this.server = server;
        this.serving = new Thread(this::serve, "pfabric-tcp-server");
        this.serving.setDaemon(true);
    }

    /**
     * Start the server and connect to it.
     *
     * @param serverNamespace namespace of the server.
     * @param serverAddress   the address it listens on.
     * @param clientNamespace namespace of the client.
     * @return the connected pair.
     * @throws IOException if a namespace cannot be entered or the connection fails.
     */
    static KernelTcpPair open(final String serverNamespace, final String serverAddress, final String clientNamespace)
        throws IOException
    {
        final InetSocketAddress address = new InetSocketAddress(InetAddress.getByName(serverAddress), PORT);
        final ServerSocketChannel server = inNamespace(serverNamespace, () ->
        {
            final ServerSocketChannel channel = ServerSocketChannel.open(StandardProtocolFamily.INET);
            try
            {
                channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
                channel.bind(address, 1);
                return channel;
            }
            catch (final IOException ex)
            {
                channel.close();
                throw ex;
            }
        });
        final KernelTcpPair pair = new KernelTcpPair(server);
        pair.serving.start();
        try
        {
            pair.client = inNamespace(clientNamespace, () -> SocketChannel.open(StandardProtocolFamily.INET));
            pair.client.setOption(StandardSocketOptions.TCP_NODELAY, true);
            pair.client.socket().connect(address, (int)TimeUnit.SECONDS.toMillis(CONNECT_TIMEOUT_SECONDS));
            return pair;
        }
        catch (final IOException ex)
        {
            pair.close();
            throw ex;
        }
    }

    private interface Opener<T>
    {
        T open() throws IOException;
    }

    private static <T> T inNamespace(final String namespace, final Opener<T> opener) throws IOException
    {
        try
        {
            return CompletableFuture.supplyAsync(() ->
            {
                try
                {
                    NetworkNamespace.enterOnCurrentThread(namespace);
                    return opener.open();
                }
                catch (final IOException | PacketSocketException ex)
                {
                    throw new CompletionException(ex);
                }
            }, runnable -> new Thread(runnable, "pfabric-tcp-open").start())
                .get(CONNECT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        catch (final ExecutionException ex)
        {
            final Throwable cause = ex.getCause();
            throw cause instanceof IOException io ? io : new IOException(cause.getMessage(), cause);
        }
        catch (final TimeoutException ex)
        {
            throw new IOException("opening a socket in " + namespace + " took over " + CONNECT_TIMEOUT_SECONDS +
                " s", ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", ex);
        }
    }

    private void serve()
    {
        try (SocketChannel channel = server.accept())
        {
            accepted.set(channel);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            final ByteBuffer buffer = ByteBuffer.allocateDirect(CHUNK_LENGTH);
            final ByteBuffer header = ByteBuffer.allocate(HEADER_LENGTH);
            final ByteBuffer answer = ByteBuffer.allocateDirect(1);
            long bodyRemaining = -1;
            while (true)
            {
                buffer.clear();
                if (channel.read(buffer) < 0)
                {
                    return;
                }
                buffer.flip();
                while (buffer.hasRemaining())
                {
                    if (bodyRemaining < 0)
                    {
                        while (header.hasRemaining() && buffer.hasRemaining())
                        {
                            header.put(buffer.get());
                        }
                        if (header.hasRemaining())
                        {
                            break;
                        }
                        bodyRemaining = header.getLong(0);
                        header.clear();
                    }
                    final int taken = (int)Math.min(buffer.remaining(), bodyRemaining);
                    buffer.position(buffer.position() + taken);
                    bodyRemaining -= taken;
                    if (0 == bodyRemaining)
                    {
                        answer.clear();
                        while (answer.hasRemaining())
                        {
                            channel.write(answer);
                        }
                        bodyRemaining = -1;
                    }
                }
            }
        }
        catch (final IOException ex)
        {
            // Closed: the bench is over, or the client went away.
        }
    }

    /**
     * Round trips of one message of a given length and its one-byte answer, one at a time.
     *
     * @param messageLength bytes written per request, length prefix included: 1448 is one full segment.
     * @param warmUps       round trips done first and not recorded.
     * @param samples       round trips recorded.
     * @return each recorded round trip in nanoseconds, from the write to the answer.
     * @throws IOException if the connection fails.
     */
    long[] roundTripsNs(final int messageLength, final int warmUps, final int samples) throws IOException
    {
        final long[] rttsNs = new long[samples];
        for (int i = 0; i < warmUps + samples; i++)
        {
            final long rttNs = exchange(messageLength - HEADER_LENGTH);
            if (i >= warmUps)
            {
                rttsNs[i - warmUps] = rttNs;
            }
        }
        return rttsNs;
    }

    /**
     * Send one message and wait for its answer: the time from the first byte written to the answer read, the
     * kernel-TCP analogue of a hostd flow's completion time (last byte acknowledged).
     *
     * @param sizeBytes the message's size, not counting its 8-byte length prefix.
     * @return nanoseconds.
     * @throws IOException if the connection fails.
     */
    long exchange(final long sizeBytes) throws IOException
    {
        final long startNs = System.nanoTime();
        long remaining = HEADER_LENGTH + sizeBytes;
        chunk.clear();
        chunk.putLong(0, sizeBytes);
        while (remaining > 0)
        {
            chunk.clear().limit((int)Math.min(CHUNK_LENGTH, remaining));
            while (chunk.hasRemaining())
            {
                remaining -= client.write(chunk);
            }
        }
        reply.clear();
        while (reply.hasRemaining())
        {
            if (client.read(reply) < 0)
            {
                throw new IOException("the TCP server closed the connection");
            }
        }
        return System.nanoTime() - startNs;
    }

    /**
     * Close both ends and the server; the serving thread ends with them.
     */
    public void close()
    {
        closeQuietly(client);
        closeQuietly(server);
        closeQuietly(accepted.get());
        serving.interrupt();
    }

    private static void closeQuietly(final AutoCloseable channel)
    {
        if (null == channel)
        {
            return;
        }
        try
        {
            channel.close();
        }
        catch (final Exception ex)
        {
            // Closing anyway; nothing more to release.
        }
    }
}
