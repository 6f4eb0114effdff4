package io.pfabric.switchd;

import io.pfabric.common.packet.NetworkNamespace;
import io.pfabric.common.packet.PacketPort;
import io.pfabric.common.wire.EthernetFlyweight;
import io.pfabric.common.wire.FrameKind;
import io.pfabric.common.wire.FrameParser;
import io.pfabric.common.wire.Ipv4Flyweight;
import io.pfabric.common.wire.PfabricHeaderFlyweight;
import io.pfabric.dataplane.pacer.EgressPacer;
import io.pfabric.dataplane.queue.QueueCounter;
import io.pfabric.dataplane.queue.QueueCounters;
import io.pfabric.dataplane.queue.ReferenceCommodityQueue;
import io.pfabric.dataplane.queue.StrictPriorityQueue;
import io.pfabric.testsupport.Await;
import io.pfabric.testsupport.RequiresNetns;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * switchd forwards through each commodity discipline in network namespaces, and the departures a receiver captures
 * are the discipline's reference model's ({@code ReferenceCommodityQueue} of dataplane's tests) for the same
 * arrivals. The egress to h3 is plugged (paced at 1 kb/s: after one frame the next waits 8 s); h1 sends one frame,
 * which leaves at once, then, once it has, {@value #BACKLOG_FRAMES} frames of seeded random ranks and DSCPs, which
 * all wait in the queue or are dropped by it; then the egress opens and h3's capture must show the model's order,
 * without the frames the model drops. One sender, so the switch receives the frames in the order they were sent.
 */
@Timeout(120)
@RequiresNetns
class CommodityDisciplineSystemTest
{
    private static final int BACKLOG_FRAMES = 40;
    private static final int FRAME_LENGTH = 1_000;
    private static final int PAYLOAD_LENGTH = FRAME_LENGTH - EthernetFlyweight.HEADER_LENGTH -
        Ipv4Flyweight.HEADER_LENGTH - PfabricHeaderFlyweight.HEADER_LENGTH;
    private static final long PLUGGED_RATE_BITS_PER_SEC = 1_000L;
    private static final long[] STRICT_THRESHOLDS = { 2_000, 20_000, 200_000 };
    private static final long STRICT_BUFFER_LENGTH = 225_000;
    private static final long SP_PIFO_BUFFER_LENGTH = 120_000;
    private static final long AIFO_BUFFER_LENGTH = 30_000;
    private static final long PIAS_BUFFER_LENGTH = 225_000;
    private static final int CAPTURE_RING_FRAMES = 1_024;

    private StarFabric fabric;

    private record Arrival(long id, long priority, int dscp)
    {
    }

    @AfterEach
    void tearDown() throws Exception
    {
        if (null != fabric)
        {
            fabric.close();
        }
    }

    private static ReferenceCommodityQueue reference(final String discipline)
    {
        return switch (discipline)
        {
            case "strict:4:2000,20000,200000" -> ReferenceCommodityQueue.strict(STRICT_BUFFER_LENGTH,
                STRICT_THRESHOLDS, StrictPriorityQueue.reservedLengthFor(STRICT_BUFFER_LENGTH, 4));
            case "sp-pifo:8" -> ReferenceCommodityQueue.spPifo(SP_PIFO_BUFFER_LENGTH, 8, SP_PIFO_BUFFER_LENGTH / 8);
            case "aifo" -> ReferenceCommodityQueue.aifo(AIFO_BUFFER_LENGTH, 0.1, 20, 15);
            case "pias" -> ReferenceCommodityQueue.pias(PIAS_BUFFER_LENGTH, 8, 22_500);
            default -> throw new IllegalArgumentException(discipline);
        };
    }

    private static long bufferLength(final String discipline)
    {
        return discipline.startsWith("strict") ? STRICT_BUFFER_LENGTH : discipline.startsWith("sp-pifo") ?
            SP_PIFO_BUFFER_LENGTH : discipline.startsWith("aifo") ? AIFO_BUFFER_LENGTH : PIAS_BUFFER_LENGTH;
    }

    /**
     * Frame 0 is the plug, then the backlog: ranks spread over six decades, so that they fall in every strict queue
     * and move SP-PIFO's bounds both ways; DSCPs 0 to 7 for PIAS.
     */
    private static List<Arrival> arrivals(final String discipline)
    {
        final SplittableRandom random = new SplittableRandom(discipline.hashCode());
        final List<Arrival> arrivals = new ArrayList<>();
        for (int id = 0; id <= BACKLOG_FRAMES; id++)
        {
            final long priority = (long)Math.pow(10, 1 + random.nextInt(6)) + random.nextInt(1_000);
            arrivals.add(new Arrival(id, priority, random.nextInt(8)));
        }
        return arrivals;
    }

    @ParameterizedTest
    @ValueSource(strings = { "strict:4:2000,20000,200000", "sp-pifo:8", "aifo", "pias" })
    void aBacklogDepartsAsTheReferenceModelSends(final String discipline) throws Exception
    {
        final List<Arrival> arrivals = arrivals(discipline);
        final ReferenceCommodityQueue model = reference(discipline);
        final List<Long> expected = new ArrayList<>();
        model.offer(0, FRAME_LENGTH, arrivals.get(0).priority(), arrivals.get(0).dscp());
        expected.add(model.take());
        for (int i = 1; i < arrivals.size(); i++)
        {
            final Arrival arrival = arrivals.get(i);
            model.offer(arrival.id(), FRAME_LENGTH, arrival.priority(), arrival.dscp());
        }
        for (long id = model.take(); id >= 0; id = model.take())
        {
            expected.add(id);
        }
        assertEquals(arrivals.size(), expected.size() + model.droppedIds.size());

        fabric = new StarFabric(3, 100_000_000L, discipline, false, bufferLength(discipline));
        // h3's kernel answers the frames with ICMP; with h1's address resolved it sends no ARP request, whose reply
        // the switch would queue at the same egress.
        Namespaces.exec(fabric.host(3), "ip", "neigh", "replace", "10.0.0.1", "lladdr", StarFabric.mac(1), "dev",
            "eth0", "nud", "permanent");
        final SwitchPort egress = fabric.port(3);
        final QueueCounters counters = egress.queue().counters();
        run(() -> egress.pacer(new EgressPacer(PLUGGED_RATE_BITS_PER_SEC, 1)));
        final CompletableFuture<List<Long>> capture = startCapture(expected.size());
        send(arrivals.subList(0, 1));
        Await.await(() -> read(() -> counters.get(QueueCounter.DEQUEUED_PACKETS)) >= 1,
            Duration.ofSeconds(10), () -> "the first frame left the plugged egress");
        send(arrivals.subList(1, arrivals.size()));
        Await.await(() -> read(() -> counters.get(QueueCounter.ENQUEUED_PACKETS) +
            counters.droppedPackets()) >= arrivals.size(), Duration.ofSeconds(10),
            () -> "every frame reached the plugged egress");
        assertEquals(1, read(() -> counters.get(QueueCounter.DEQUEUED_PACKETS)),
            "nothing but the first frame left the plugged egress");
        assertEquals(arrivals.size(), read(() -> counters.get(QueueCounter.ENQUEUED_PACKETS) +
            counters.droppedPackets()), "no other frame reached the egress");
        run(() -> egress.pacer(new EgressPacer(100_000_000L)));

        assertEquals(expected, capture.get(60, TimeUnit.SECONDS), discipline + ": departures in the model's order");
        assertEquals(model.droppedIds.size(), read(counters::droppedPackets),
            discipline + ": the model's drops");
    }

    private void send(final List<Arrival> frames) throws Exception
    {
        CompletableFuture.runAsync(() ->
        {
            try
            {
                NetworkNamespace.enterOnCurrentThread(fabric.host(1));
                final UnsafeBuffer frame = new UnsafeBuffer(new byte[FRAME_LENGTH]);
                new EthernetFlyweight().wrap(frame, 0)
                    .destinationMac(StarFabric.macValue(3))
                    .sourceMac(StarFabric.macValue(1))
                    .etherType(EthernetFlyweight.ETHERTYPE_IPV4);
                final Ipv4Flyweight ip = new Ipv4Flyweight().wrap(frame, EthernetFlyweight.HEADER_LENGTH);
                final PfabricHeaderFlyweight header = new PfabricHeaderFlyweight()
                    .wrap(frame, EthernetFlyweight.HEADER_LENGTH + Ipv4Flyweight.HEADER_LENGTH);
                try (PacketPort port = PacketPort.open("eth0"))
                {
                    for (final Arrival arrival : frames)
                    {
                        ip.version(Ipv4Flyweight.VERSION)
                            .ihl(Ipv4Flyweight.MIN_IHL)
                            .dscp(arrival.dscp())
                            .totalLength(FRAME_LENGTH - EthernetFlyweight.HEADER_LENGTH)
                            .ttl(64)
                            .protocol(Ipv4Flyweight.PROTOCOL_PFABRIC)
                            .sourceAddress(StarFabric.address(1))
                            .destinationAddress(StarFabric.address(3))
                            .computeChecksum();
                        header.version(PfabricHeaderFlyweight.VERSION)
                            .type(PfabricHeaderFlyweight.TYPE_DATA)
                            .headerLength(PfabricHeaderFlyweight.HEADER_LENGTH)
                            .priority(arrival.priority())
                            .flowId(PfabricHeaderFlyweight.flowId(1, 0, (int)arrival.id() + 1))
                            .segmentOffset(arrival.id() * PAYLOAD_LENGTH)
                            .payloadLength(PAYLOAD_LENGTH);
                        while (!port.canTransmit())
                        {
                            port.flush();
                        }
                        port.transmit(frame, 0, FRAME_LENGTH);
                        port.flush();
                    }
                }
            }
            catch (final Exception ex)
            {
                throw new IllegalStateException(ex);
            }
        }, fabric.threads()).get(30, TimeUnit.SECONDS);
    }

    /**
     * h3's capture of pFabric frames, by id, until it has as many as the model sends.
     */
    private CompletableFuture<List<Long>> startCapture(final int frames) throws Exception
    {
        final CountDownLatch open = new CountDownLatch(1);
        final CompletableFuture<List<Long>> capture = CompletableFuture.supplyAsync(() ->
        {
            try
            {
                NetworkNamespace.enterOnCurrentThread(fabric.host(3));
                final List<Long> received = new ArrayList<>();
                final FrameParser parser = new FrameParser();
                try (PacketPort port = PacketPort.open("eth0", CAPTURE_RING_FRAMES, 0))
                {
                    open.countDown();
                    while (received.size() < frames)
                    {
                        port.awaitReceive(10);
                        port.receive((buffer, offset, length) ->
                        {
                            if (FrameKind.PFABRIC_IP == parser.parse(buffer, offset, length))
                            {
                                received.add((long)buffer.getInt(parser.pfabricOffset() +
                                    PfabricHeaderFlyweight.SEGMENT_OFFSET_FIELD_OFFSET, ByteOrder.BIG_ENDIAN) /
                                    PAYLOAD_LENGTH);
                            }
                        }, 64);
                    }
                }
                return received;
            }
            catch (final Exception ex)
            {
                open.countDown();
                throw new IllegalStateException(ex);
            }
        }, fabric.threads());
        assertTrue(open.await(30, TimeUnit.SECONDS), "the receiver's capture opened");
        return capture;
    }

    private void run(final Runnable command)
    {
        read(() ->
        {
            command.run();
            return 0L;
        });
    }

    private long read(final LongSupplier read)
    {
        final CompletableFuture<Long> value = new CompletableFuture<>();
        assertTrue(fabric.forwarder().offer(() -> value.complete(read.getAsLong())), "the forwarder took the command");
        return value.orTimeout(10, TimeUnit.SECONDS).join();
    }
}
