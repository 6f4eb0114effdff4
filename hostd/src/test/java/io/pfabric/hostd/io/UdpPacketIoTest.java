package io.pfabric.hostd.io;

import io.pfabric.common.packet.NettyTransport;
import io.pfabric.testsupport.Await;
import io.pfabric.testsupport.LoopbackPorts;
import org.agrona.concurrent.UnsafeBuffer;
import io.netty.channel.uring.IoUring;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Two UDP packet I/Os on loopback, each on a thread of its own as the transport would run them, over epoll and over
 * io_uring. The sender keeps at most {@value #WINDOW} datagrams in flight, so that a receiver descheduled for a while
 * finds them all in its socket's buffer rather than lost.
 */
@Timeout(60)
class UdpPacketIoTest
{
    private static final int WINDOW = 64;
    private static final Duration RECEIVE_TIMEOUT = Duration.ofSeconds(20);

    @ParameterizedTest
    @EnumSource(NettyTransport.class)
    void exchangesPacketsIntactAndDropsUnknownSources(final NettyTransport transport) throws Exception
    {
        assumeTrue(NettyTransport.EPOLL == transport || IoUring.isAvailable(),
            "io_uring is not available on this kernel");
        final InetAddress loopback = InetAddress.getLoopbackAddress();
        final List<InetSocketAddress> hosts = LoopbackPorts.hosts(2);
        final int count = 2_000;
        final SplittableRandom random = new SplittableRandom(17);
        final List<byte[]> payloads = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            final byte[] payload = new byte[1 + random.nextInt(1_400)];
            random.nextBytes(payload);
            payload[0] = (byte)i;
            payloads.add(payload);
        }
        final CompletableFuture<List<byte[]>> receiver = new CompletableFuture<>();
        final CompletableFuture<Long> unknown = new CompletableFuture<>();
        final CountDownLatch bound = new CountDownLatch(1);
        final AtomicInteger arrived = new AtomicInteger();
        final Thread receiving = new Thread(() ->
        {
            try
            {
                final UdpPacketIo io = UdpPacketIo.open(hosts, 1, transport);
                bound.countDown();
                try
                {
                    final List<byte[]> got = new ArrayList<>();
                    try (DatagramSocket stranger = new DatagramSocket())
                    {
                        stranger.send(new DatagramPacket(new byte[]{ 1, 2, 3 }, 3, hosts.get(1)));
                    }
                    final PacketIo.InboundHandler keep = (source, buffer, offset, length) ->
                    {
                        assertEquals(0, source);
                        final byte[] bytes = new byte[length];
                        buffer.getBytes(offset, bytes);
                        got.add(bytes);
                        arrived.set(got.size());
                    };
                    Await.await(() ->
                    {
                        int taken;
                        do
                        {
                            taken = io.poll(keep, 32);
                        }
                        while (taken > 0);
                        return got.size() >= count;
                    }, RECEIVE_TIMEOUT, () -> "all " + count + " datagrams arrived (" + got.size() + " did)");
                    unknown.complete(io.unknownSourceDrops());
                    receiver.complete(got);
                }
                finally
                {
                    io.close();
                }
            }
            catch (final Exception | AssertionError ex)
            {
                bound.countDown();
                receiver.completeExceptionally(ex);
            }
        }, "udp-receiver");
        receiving.start();
        assertTrue(bound.await(10, TimeUnit.SECONDS), "the receiver bound its port");
        final UdpPacketIo sender = UdpPacketIo.open(hosts, 0, transport);
        try
        {
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[2_048]);
            for (int i = 0; i < count; i++)
            {
                buffer.putBytes(0, payloads.get(i));
                while (!sender.send(1, buffer, 0, payloads.get(i).length))
                {
                    sender.flush();
                    sender.poll((source, b, o, l) -> { }, 32);
                }
                sender.flush();
                sender.poll((source, b, o, l) -> { }, 32);
                final int sent = i + 1;
                if (0 == sent % WINDOW)
                {
                    Await.await(() ->
                    {
                        sender.poll((source, b, o, l) -> { }, 32);
                        return arrived.get() >= sent || receiver.isDone();
                    }, RECEIVE_TIMEOUT, () -> "the receiver had the first " + sent + " datagrams (it had " +
                        arrived.get() + ")");
                }
            }
        }
        finally
        {
            final List<byte[]> got = receiver.get();
            sender.close();
            assertEquals(count, got.size(), "every datagram arrived (loopback loses none with " + WINDOW +
                " in flight)");
            for (int i = 0; i < count; i++)
            {
                assertArrayEquals(payloads.get(i), got.get(i), "datagram " + i);
            }
            assertEquals(1L, unknown.get(), "the stranger's datagram was counted and dropped");
        }
        try (DatagramSocket rebind = new DatagramSocket(hosts.get(0)))
        {
            assertTrue(rebind.isBound(), "closing released the port");
        }
    }

    @Test
    void runsOfOneLengthToOneHostLeaveAsUdpGsoSendsAndArriveAsTheirOwnDatagrams() throws Exception
    {
        final InetAddress loopback = InetAddress.getLoopbackAddress();
        try (DatagramSocket receiver = new DatagramSocket(new InetSocketAddress(loopback, 0)))
        {
            receiver.setReceiveBufferSize(4 * 1024 * 1024);
            receiver.setSoTimeout((int)RECEIVE_TIMEOUT.toMillis());
            final List<InetSocketAddress> hosts = List.of(new InetSocketAddress(loopback, LoopbackPorts.free()),
                (InetSocketAddress)receiver.getLocalSocketAddress());
            // 100 of 1,200 B (54 to a send at most: 65,507 B of UDP payload), 5 of 300 B, 1 of 1,200 B
            final List<byte[]> payloads = new ArrayList<>();
            final SplittableRandom random = new SplittableRandom(5);
            for (int i = 0; i < 106; i++)
            {
                final byte[] payload = new byte[i < 100 || 105 == i ? 1_200 : 300];
                random.nextBytes(payload);
                payloads.add(payload);
            }
            for (final boolean segmenting : new boolean[] {true, false})
            {
                final String before = System.getProperty("pfabric.udp.gso");
                System.setProperty("pfabric.udp.gso", Boolean.toString(segmenting));
                final UdpPacketIo sender;
                try
                {
                    sender = UdpPacketIo.open(hosts, 0, NettyTransport.EPOLL);
                }
                finally
                {
                    if (null == before)
                    {
                        System.clearProperty("pfabric.udp.gso");
                    }
                    else
                    {
                        System.setProperty("pfabric.udp.gso", before);
                    }
                }
                try
                {
                    final UnsafeBuffer buffer = new UnsafeBuffer(new byte[2_048]);
                    for (final byte[] payload : payloads)
                    {
                        buffer.putBytes(0, payload);
                        while (!sender.send(1, buffer, 0, payload.length))
                        {
                            sender.flush();
                        }
                    }
                    sender.flush();
                    assertEquals(segmenting ? 3 : 0, sender.segmentedSends(), "UDP GSO sends of more than one");
                    assertEquals(payloads.size(), sender.packetsSent());
                    final byte[] into = new byte[2_048];
                    for (int i = 0; i < payloads.size(); i++)
                    {
                        final DatagramPacket datagram = new DatagramPacket(into, into.length);
                        receiver.receive(datagram);
                        assertArrayEquals(payloads.get(i),
                            Arrays.copyOf(datagram.getData(), datagram.getLength()),
                            "datagram " + i + (segmenting ? " with" : " without") + " UDP GSO");
                    }
                }
                finally
                {
                    sender.close();
                }
            }
        }
    }
}
