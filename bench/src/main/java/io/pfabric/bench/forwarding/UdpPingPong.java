package io.pfabric.bench.forwarding;

import io.pfabric.common.packet.NetworkNamespace;
import io.pfabric.common.packet.PacketSocketException;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Round trips of one UDP datagram between two hosts, one outstanding at a time: an echo thread in the server's
 * namespace, a client thread in the client's, each on a kernel UDP socket, the time from send to reply recorded in
 * an HdrHistogram.
 */
final class UdpPingPong
{
    static final int PORT = 7;

    private static final int REPLY_TIMEOUT_MS = 200;
    private static final long HIGHEST_TRACKABLE_NS = TimeUnit.SECONDS.toNanos(1);

    private UdpPingPong()
    {
    }

    /**
     * The round trips measured and the replies that never came.
     *
     * @param histogram of round-trip times in nanoseconds.
     * @param lost      requests without a reply within 200 ms (a late reply is recognised by its sequence number
     *                  and skipped).
     */
    record Result(Histogram histogram, int lost)
    {
        /**
         * A percentile of the round-trip time.
         *
         * @param percentile such as 50 or 99.
         * @return microseconds.
         */
        double micros(final double percentile)
        {
            return histogram.getValueAtPercentile(percentile) / 1_000.0;
        }
    }

    /**
     * Run the round trips.
     *
     * @param clientNamespace of the client host.
     * @param serverNamespace of the server host.
     * @param serverIp        the server host's address.
     * @param frameLength     of each request and reply on the wire, without FCS, 60 to 1514.
     * @param warmUps         round trips done first and not recorded.
     * @param samples         round trips recorded.
     * @return the result.
     * @throws IOException if a socket fails or every warm-up request is lost.
     */
    static Result run(
        final String clientNamespace,
        final String serverNamespace,
        final String serverIp,
        final int frameLength,
        final int warmUps,
        final int samples) throws IOException
    {
        final CountDownLatch bound = new CountDownLatch(1);
        final DatagramSocket[] serverSocket = new DatagramSocket[1];
        final int payloadLength = Math.max(Integer.BYTES, frameLength - Trafgen.HEADERS_LENGTH);
        final Thread echo = new Thread(
            () -> echo(serverNamespace, serverIp, payloadLength, serverSocket, bound), "pfabric-echo");
        echo.setDaemon(true);
        echo.start();
        try
        {
            if (!bound.await(10, TimeUnit.SECONDS) || null == serverSocket[0])
            {
                throw new IOException("the echo server in " + serverNamespace + " did not start");
            }
            return CompletableFuture.supplyAsync(
                () -> client(clientNamespace, serverIp, payloadLength, warmUps, samples),
                runnable -> new Thread(runnable, "pfabric-ping").start()).join();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", ex);
        }
        catch (final CompletionException ex)
        {
            if (ex.getCause() instanceof IOException cause)
            {
                throw cause;
            }
            throw ex;
        }
        finally
        {
            if (null != serverSocket[0])
            {
                serverSocket[0].close();
            }
        }
    }

    private static void echo(
        final String namespace,
        final String ip,
        final int payloadLength,
        final DatagramSocket[] socketOut,
        final CountDownLatch bound)
    {
        try
        {
            NetworkNamespace.enterOnCurrentThread(namespace);
            final DatagramSocket socket = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(ip), PORT));
            socketOut[0] = socket;
            bound.countDown();
            final DatagramPacket packet = new DatagramPacket(new byte[payloadLength], payloadLength);
            while (!socket.isClosed())
            {
                packet.setLength(payloadLength);
                socket.receive(packet);
                socket.send(packet);
            }
        }
        catch (final PacketSocketException | IOException ex)
        {
            bound.countDown();
        }
    }

    private static Result client(
        final String namespace, final String serverIp, final int payloadLength, final int warmUps, final int samples)
    {
        final Histogram histogram = new Histogram(HIGHEST_TRACKABLE_NS, 3);
        int lost = 0;
        try
        {
            NetworkNamespace.enterOnCurrentThread(namespace);
            try (DatagramSocket socket = new DatagramSocket())
            {
                socket.setSoTimeout(REPLY_TIMEOUT_MS);
                final ByteBuffer request = ByteBuffer.allocate(payloadLength);
                final DatagramPacket out = new DatagramPacket(request.array(), payloadLength,
                    new InetSocketAddress(InetAddress.getByName(serverIp), PORT));
                final ByteBuffer reply = ByteBuffer.allocate(payloadLength);
                final DatagramPacket in = new DatagramPacket(reply.array(), payloadLength);
                int warmUpReplies = 0;
                for (int i = 0; i < warmUps + samples; i++)
                {
                    request.putInt(0, i);
                    final long sentNs = System.nanoTime();
                    socket.send(out);
                    if (!awaitReply(socket, in, reply, i))
                    {
                        lost += i < warmUps ? 0 : 1;
                        continue;
                    }
                    final long roundTripNs = System.nanoTime() - sentNs;
                    if (i < warmUps)
                    {
                        warmUpReplies++;
                    }
                    else
                    {
                        histogram.recordValue(Math.min(roundTripNs, HIGHEST_TRACKABLE_NS));
                    }
                }
                if (0 == warmUpReplies && warmUps > 0)
                {
                    throw new IOException("no reply from " + serverIp + " to any of " + warmUps + " warm-up requests");
                }
            }
        }
        catch (final PacketSocketException | IOException ex)
        {
            throw new CompletionException(ex instanceof IOException io ? io : new IOException(ex.getMessage(), ex));
        }
        return new Result(histogram, lost);
    }

    private static boolean awaitReply(
        final DatagramSocket socket, final DatagramPacket in, final ByteBuffer reply, final int sequence)
        throws IOException
    {
        try
        {
            do
            {
                in.setLength(reply.capacity());
                socket.receive(in);
            }
            while (in.getLength() < Integer.BYTES || reply.getInt(0) != sequence);
            return true;
        }
        catch (final SocketTimeoutException ex)
        {
            return false;
        }
        catch (final SocketException ex)
        {
            throw new IOException("ping socket failed: " + ex.getMessage(), ex);
        }
    }
}
