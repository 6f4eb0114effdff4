package io.pfabric.hostd;

import io.pfabric.hostd.io.PacketIo;
import io.pfabric.hostd.io.UdpPacketIo;
import io.pfabric.testsupport.LoopbackPorts;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What sending over the UDP I/O allocates on the thread hostd runs its data path on: datagrams over loopback, each of
 * a length other than the last one's, so each leaves as a datagram of its own (no UDP GSO send gathers them), sent in
 * rounds of {@value #ROUND} that another thread receives. On that thread Netty reuses the outbound buffer's entries.
 * What is left is Netty's: the envelope of each datagram and its copy of the address bytes (24 bytes each), and the
 * traces of its leak detector, which follows one buffer in 128. Measured (2026-11-28, 96,000 datagrams a run): 65.7
 * to 69.2 bytes a datagram, under C2 and under C1 alone as the daemons run; 130.8 on an ordinary thread, whose entries
 * Netty's recycler does not keep. The bound, {@value #BYTES_PER_DATAGRAM_BOUND}, lies between. The receiving side is
 * not counted: Netty's epoll read makes a sender address, an envelope and a buffer slice for every datagram (about 175
 * bytes a datagram under C1).
 */
@Timeout(120)
class DataPathThreadAllocationTest
{
    private static final int ROUND = 32;
    private static final int WARM_UP_ROUNDS = 3_000;
    private static final int MEASURED_ROUNDS = 3_000;
    private static final long ROUND_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);
    private static final long BYTES_PER_DATAGRAM_BOUND = 96;

    @Test
    void sendsReuseNettysOutboundEntries() throws Exception
    {
        final List<InetSocketAddress> hosts = LoopbackPorts.hosts(2);
        final AtomicInteger received = new AtomicInteger();
        final AtomicBoolean sending = new AtomicBoolean(true);
        final CountDownLatch bound = new CountDownLatch(1);
        final CompletableFuture<Void> receiverDone = new CompletableFuture<>();
        final Thread receiver = new Thread(() ->
        {
            try (UdpPacketIo io = UdpPacketIo.open(hosts, 1))
            {
                bound.countDown();
                final PacketIo.InboundHandler handler = (host, buffer, offset, length) -> received.incrementAndGet();
                while (sending.get())
                {
                    io.await(handler, TimeUnit.MILLISECONDS.toNanos(50));
                }
                receiverDone.complete(null);
            }
            catch (final Throwable ex)
            {
                receiverDone.completeExceptionally(ex);
            }
        }, "receiver");
        receiver.start();
        assertTrue(bound.await(10, TimeUnit.SECONDS), "the receiver did not bind");

        final CompletableFuture<Long> allocated = new CompletableFuture<>();
        final Thread sender = HostDaemon.dataPathThread(() ->
        {
            final com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
            try (UdpPacketIo io = UdpPacketIo.open(hosts, 0))
            {
                final UnsafeBuffer payload = new UnsafeBuffer(new byte[1_400]);
                long before = 0;
                int sent = 0;
                for (int round = 0; round < WARM_UP_ROUNDS + MEASURED_ROUNDS && sending.get(); round++)
                {
                    if (WARM_UP_ROUNDS == round)
                    {
                        before = threads.getCurrentThreadAllocatedBytes();
                    }
                    for (int i = 0; i < ROUND; i++)
                    {
                        if (io.send(1, payload, 0, 100 + (i % 2) * 1_000))
                        {
                            sent++;
                        }
                    }
                    io.flush();
                    final long deadlineNs = System.nanoTime() + ROUND_TIMEOUT_NS;
                    while (received.get() < sent && System.nanoTime() < deadlineNs)
                    {
                        Thread.onSpinWait();
                    }
                }
                allocated.complete(threads.getCurrentThreadAllocatedBytes() - before);
            }
            catch (final Throwable ex)
            {
                allocated.completeExceptionally(ex);
            }
        }, "hostd-test");
        sender.start();
        final long bytes;
        try
        {
            bytes = allocated.get(100, TimeUnit.SECONDS);
        }
        finally
        {
            sending.set(false);
            sender.join(TimeUnit.SECONDS.toMillis(20));
            receiver.join(TimeUnit.SECONDS.toMillis(10));
        }
        receiverDone.get(10, TimeUnit.SECONDS);
        final long datagrams = (long)ROUND * MEASURED_ROUNDS;
        assertEquals((long)ROUND * (WARM_UP_ROUNDS + MEASURED_ROUNDS), received.get(), "datagrams received");
        assertTrue(bytes < BYTES_PER_DATAGRAM_BOUND * datagrams,
            "the data path's thread allocated " + bytes + " bytes for " + datagrams + " datagrams sent, " +
            (double)bytes / datagrams + " a datagram");
    }
}
