package io.pfabric.switchd;

import io.pfabric.common.packet.NetworkNamespace;
import io.pfabric.common.packet.PacketPort;
import io.pfabric.common.wire.EthernetFlyweight;
import io.pfabric.common.wire.FrameKind;
import io.pfabric.common.wire.FrameParser;
import io.pfabric.common.wire.Ipv4Flyweight;
import io.pfabric.common.wire.PfabricHeaderFlyweight;
import io.pfabric.dataplane.pacer.EgressPacer;
import io.pfabric.dataplane.queue.DisciplineKind;
import io.pfabric.dataplane.queue.DropReason;
import io.pfabric.dataplane.queue.QueueCounter;
import io.pfabric.dataplane.queue.QueueCounters;
import io.pfabric.testsupport.Await;
import io.pfabric.testsupport.RequiresNetns;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two senders of pFabric packets into one switch egress paced at 100 Mb/s, one at 25 Mb/s with small priority
 * numbers and one at 100 Mb/s with large, for the same time: the urgent stream loses nothing, the other absorbs every
 * drop. The senders sleep between frames and send up to 8 back to back after a late wake-up, so that on a 2-core
 * machine they neither starve the switch of CPU nor fall below their rate. The egress buffer holds 100 frames: the
 * urgent frames that arrive while a descheduled forwarder is not draining (48 ms of them) all fit, so that a busy
 * machine tests the discipline rather than the scheduler of the operating system.
 * <p>
 * The departure order itself is checked on a backlog: the egress is plugged (paced at 1 kb/s, so after one frame
 * the next waits 12 s), the two flows' frames arrive interleaved, lazy ones first, and when the egress opens the
 * receiver's capture must show the urgent flow entire and in order before any further lazy frame (a FIFO would send
 * ten lazy frames first).
 */
@Timeout(120)
@RequiresNetns
class PriorityBottleneckSystemTest
{
    private static final int FRAMES = 1_500;
    private static final int LAZY_FRAMES = 4 * FRAMES;
    private static final long BUFFER_LENGTH = 100 * 1_500;
    private static final int FRAME_LENGTH = 1_500;
    private static final int PAYLOAD_LENGTH = FRAME_LENGTH - EthernetFlyweight.HEADER_LENGTH -
        Ipv4Flyweight.HEADER_LENGTH - PfabricHeaderFlyweight.HEADER_LENGTH;
    private static final long URGENT_PRIORITY = 1_000;
    private static final long URGENT_RATE_BITS_PER_SEC = 25_000_000L;
    private static final long LAZY_RATE_BITS_PER_SEC = 100_000_000L;
    private static final int SENDER_BURST_FRAMES = 8;
    private static final long LAZY_PRIORITY = 1_000_000_000L;
    private static final int BACKLOG_FRAMES = 20;
    /**
     * The capture's receive ring holds more frames than either test sends, so that a capture thread held off its
     * core (a busy machine) loses none of them.
     */
    private static final int CAPTURE_RING_FRAMES = 8_192;
    private static final long PLUGGED_RATE_BITS_PER_SEC = 1_000L;

    private StarFabric fabric;

    @AfterEach
    void tearDown() throws Exception
    {
        if (null != fabric)
        {
            fabric.close();
        }
    }

    private static void send(
        final String namespace, final int host, final long priority, final long rateBitsPerSec, final int frames)
        throws Exception
    {
        send(namespace, host, priority, rateBitsPerSec, 0, frames);
    }

    private static void send(
        final String namespace,
        final int host,
        final long priority,
        final long rateBitsPerSec,
        final int firstSequence,
        final int frames)
        throws Exception
    {
        NetworkNamespace.enterOnCurrentThread(namespace);
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[FRAME_LENGTH]);
        new EthernetFlyweight().wrap(frame, 0)
            .destinationMac(StarFabric.macValue(3))
            .sourceMac(StarFabric.macValue(host))
            .etherType(EthernetFlyweight.ETHERTYPE_IPV4);
        new Ipv4Flyweight().wrap(frame, EthernetFlyweight.HEADER_LENGTH)
            .version(Ipv4Flyweight.VERSION)
            .ihl(Ipv4Flyweight.MIN_IHL)
            .totalLength(FRAME_LENGTH - EthernetFlyweight.HEADER_LENGTH)
            .ttl(64)
            .protocol(Ipv4Flyweight.PROTOCOL_PFABRIC)
            .sourceAddress(StarFabric.address(host))
            .destinationAddress(StarFabric.address(3))
            .computeChecksum();
        final PfabricHeaderFlyweight header = new PfabricHeaderFlyweight()
            .wrap(frame, EthernetFlyweight.HEADER_LENGTH + Ipv4Flyweight.HEADER_LENGTH);
        header.version(PfabricHeaderFlyweight.VERSION)
            .type(PfabricHeaderFlyweight.TYPE_DATA)
            .headerLength(PfabricHeaderFlyweight.HEADER_LENGTH)
            .priority(priority)
            .flowId(PfabricHeaderFlyweight.flowId(host, 0, 1))
            .payloadLength(PAYLOAD_LENGTH);
        final EgressPacer pacer = new EgressPacer(rateBitsPerSec, SENDER_BURST_FRAMES);
        try (PacketPort port = PacketPort.open("eth0"))
        {
            int sent = 0;
            while (sent < frames)
            {
                final long nowNs = System.nanoTime();
                if (pacer.mayRelease(nowNs) && port.canTransmit())
                {
                    header.segmentOffset((long)(firstSequence + sent) * PAYLOAD_LENGTH);
                    port.transmit(frame, 0, FRAME_LENGTH);
                    port.flush();
                    pacer.onRelease(nowNs, FRAME_LENGTH);
                    sent++;
                }
                else
                {
                    // The sender's pacing, part of the traffic it generates: not a wait for a condition.
                    LockSupport.parkNanos(Math.max(1_000, pacer.nextDepartureNs() - nowNs));
                }
            }
        }
    }

    @Test
    void theUrgentStreamLosesNothingAndTheOtherAbsorbsTheDrops() throws Exception
    {
        fabric = new StarFabric(3, 100_000_000L, DisciplineKind.PFABRIC, false, BUFFER_LENGTH);
        final AtomicBoolean sendersDone = new AtomicBoolean();
        final CompletableFuture<List<long[]>> capture = startCapture(sendersDone, FRAMES + LAZY_FRAMES);
        final CompletableFuture<Void> urgent = CompletableFuture.runAsync(
            () -> run(1, URGENT_PRIORITY, URGENT_RATE_BITS_PER_SEC, FRAMES), fabric.threads());
        final CompletableFuture<Void> lazy = CompletableFuture.runAsync(
            () -> run(2, LAZY_PRIORITY, LAZY_RATE_BITS_PER_SEC, LAZY_FRAMES), fabric.threads());
        urgent.get(60, TimeUnit.SECONDS);
        lazy.get(60, TimeUnit.SECONDS);
        sendersDone.set(true);
        final List<long[]> received = capture.get(60, TimeUnit.SECONDS);

        final List<Long> urgentSequence = new ArrayList<>();
        final List<Long> lazySequence = new ArrayList<>();
        for (final long[] frame : received)
        {
            (1 == frame[0] ? urgentSequence : lazySequence).add(frame[1]);
        }
        final QueueCounters bottleneck = fabric.port(3).queue().counters();
        assertEquals(FRAMES, urgentSequence.size(), () -> "urgent frames delivered; switch receive rings dropped " +
            fabric.port(1).counters().get(PortCounter.DROPPED_RING_FULL) + " (urgent) and " +
            fabric.port(2).counters().get(PortCounter.DROPPED_RING_FULL) + " (lazy); bottleneck counters:\n" +
            bottleneck.appendTo(new StringBuilder()));
        for (int i = 0; i < FRAMES; i++)
        {
            assertEquals(i, urgentSequence.get(i), "urgent frames in order");
        }
        for (int i = 1; i < lazySequence.size(); i++)
        {
            assertTrue(lazySequence.get(i) > lazySequence.get(i - 1), "lazy frames in order");
        }
        final long drops = bottleneck.droppedPackets(DropReason.PRIORITY_DROP_ARRIVAL) +
            bottleneck.droppedPackets(DropReason.PRIORITY_EVICTION);
        assertTrue(drops > 0, "the bottleneck dropped");
        assertEquals(LAZY_FRAMES - lazySequence.size(), drops, "every drop was a lazy frame, counted at the bottleneck");
    }

    @Test
    void aBacklogDepartsMostUrgentFlowFirstAsTheReceiverCapturesIt() throws Exception
    {
        fabric = new StarFabric(3, 100_000_000L, DisciplineKind.PFABRIC, false, BUFFER_LENGTH);
        final SwitchPort bottleneck = fabric.port(3);
        onForwarder(() -> bottleneck.pacer(new EgressPacer(PLUGGED_RATE_BITS_PER_SEC, 1)));
        final AtomicBoolean sendersDone = new AtomicBoolean();
        final CompletableFuture<List<long[]>> capture = startCapture(sendersDone, 2 * BACKLOG_FRAMES + 1);

        final int half = BACKLOG_FRAMES / 2;
        runPhase(2, LAZY_PRIORITY, 0, 1 + half);
        runPhase(1, URGENT_PRIORITY, 0, half);
        runPhase(2, LAZY_PRIORITY, 1 + half, half);
        runPhase(1, URGENT_PRIORITY, half, half);
        final AtomicInteger buffered = new AtomicInteger();
        Await.await(() ->
        {
            buffered.set(queuedOnForwarder(bottleneck));
            return buffered.get() >= 2 * BACKLOG_FRAMES;
        }, Duration.ofSeconds(10), () -> "the backlog of " + 2 * BACKLOG_FRAMES + " frames waits behind the plugged " +
            "egress (" + buffered + " do)");
        onForwarder(() -> bottleneck.pacer(new EgressPacer(100_000_000L)));
        sendersDone.set(true);
        final List<long[]> received = capture.get(60, TimeUnit.SECONDS);

        final List<String> departures = new ArrayList<>();
        for (final long[] frame : received)
        {
            departures.add((1 == frame[0] ? "urgent " : "lazy ") + frame[1]);
        }
        final List<String> expected = new ArrayList<>();
        final boolean plugDeparted = !departures.isEmpty() && "lazy 0".equals(departures.get(0));
        if (plugDeparted)
        {
            expected.add("lazy 0");
        }
        for (int i = 0; i < BACKLOG_FRAMES; i++)
        {
            expected.add("urgent " + i);
        }
        for (int i = plugDeparted ? 1 : 0; i <= BACKLOG_FRAMES; i++)
        {
            expected.add("lazy " + i);
        }
        assertEquals(expected, departures, "the urgent flow entire and in order, then the lazy flow in order");
    }

    /**
     * The receiver's capture, which ends once the senders are done, the bottleneck has taken or dropped every frame
     * they sent and has drained, and every frame that left it has been captured.
     */
    private CompletableFuture<List<long[]>> startCapture(final AtomicBoolean sendersDone, final long framesSent)
        throws Exception
    {
        final CountDownLatch captureOpen = new CountDownLatch(1);
        final QueueCounters bottleneck = fabric.port(3).queue().counters();
        final CompletableFuture<List<long[]>> capture = CompletableFuture.supplyAsync(() ->
        {
            try
            {
                NetworkNamespace.enterOnCurrentThread(fabric.host(3));
                final List<long[]> received = new ArrayList<>();
                final long[] framesCaptured = new long[1];
                final FrameParser parser = new FrameParser();
                try (PacketPort port = PacketPort.open("eth0", CAPTURE_RING_FRAMES, 0))
                {
                    captureOpen.countDown();
                    while (!sendersDone.get() || !drainedAndCaptured(bottleneck, framesSent, framesCaptured[0]))
                    {
                        port.awaitReceive(10);
                        port.receive((buffer, offset, length) ->
                        {
                            framesCaptured[0]++;
                            if (FrameKind.PFABRIC_IP == parser.parse(buffer, offset, length))
                            {
                                received.add(new long[]{ PfabricHeaderFlyweight.hostId(parser.flowId()),
                                    buffer.getInt(parser.pfabricOffset() +
                                    PfabricHeaderFlyweight.SEGMENT_OFFSET_FIELD_OFFSET, java.nio.ByteOrder.BIG_ENDIAN) /
                                    PAYLOAD_LENGTH });
                            }
                        }, 64);
                    }
                }
                return received;
            }
            catch (final Exception ex)
            {
                captureOpen.countDown();
                throw new IllegalStateException(ex);
            }
        }, fabric.threads());
        assertTrue(captureOpen.await(30, TimeUnit.SECONDS), "the receiver's capture opened");
        return capture;
    }

    private static boolean drainedAndCaptured(final QueueCounters bottleneck, final long framesSent, final long captured)
    {
        final long dequeued = bottleneck.get(QueueCounter.DEQUEUED_PACKETS);
        final long enqueued = bottleneck.get(QueueCounter.ENQUEUED_PACKETS);
        final long evicted = bottleneck.get(QueueCounter.PRIORITY_EVICTION_PACKETS);
        final long refused = bottleneck.droppedPackets(DropReason.PRIORITY_DROP_ARRIVAL) +
            bottleneck.droppedPackets(DropReason.TAIL_DROP);
        return enqueued + refused >= framesSent && dequeued + evicted == enqueued && captured >= dequeued;
    }

    private void onForwarder(final Runnable command) throws InterruptedException
    {
        final CountDownLatch applied = new CountDownLatch(1);
        assertTrue(fabric.forwarder().offer(() ->
        {
            command.run();
            applied.countDown();
        }), "the forwarder took the command");
        assertTrue(applied.await(10, TimeUnit.SECONDS), "the forwarder ran the command");
    }

    private int queuedOnForwarder(final SwitchPort port)
    {
        final CompletableFuture<Integer> count = new CompletableFuture<>();
        assertTrue(fabric.forwarder().offer(() -> count.complete(port.queue().packetCount())),
            "the forwarder took the command");
        return count.orTimeout(10, TimeUnit.SECONDS).join();
    }

    private void runPhase(final int host, final long priority, final int firstSequence, final int frames)
        throws Exception
    {
        CompletableFuture.runAsync(() ->
        {
            try
            {
                send(fabric.host(host), host, priority, LAZY_RATE_BITS_PER_SEC, firstSequence, frames);
            }
            catch (final Exception ex)
            {
                throw new IllegalStateException(ex);
            }
        }, fabric.threads()).get(30, TimeUnit.SECONDS);
    }

    private void run(final int host, final long priority, final long rateBitsPerSec, final int frames)
    {
        try
        {
            send(fabric.host(host), host, priority, rateBitsPerSec, frames);
        }
        catch (final Exception ex)
        {
            throw new IllegalStateException(ex);
        }
    }
}
