package io.pfabric.switchd;

import io.pfabric.common.packet.NetworkNamespace;
import io.pfabric.common.packet.PacketPort;
import io.pfabric.common.wire.ParseReason;
import io.pfabric.dataplane.pacer.EgressPacer;
import io.pfabric.dataplane.queue.DisciplineKind;
import io.pfabric.testsupport.Await;
import io.pfabric.testsupport.RequiresNetns;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteOrder;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * 100,000 random and malformed frames injected on a switch port while kernel ping crosses the switch: every bad
 * frame is counted by reason, the ping gets through, nothing escapes the forwarder, and it allocates nothing.
 */
@Timeout(180)
@RequiresNetns
class BadInputSystemTest
{
    private static final int FRAMES = 100_000;
    /**
     * Frames injected before the injector waits for the switch to have counted them: well below the 1,024 frames of
     * the receive ring, so that a forwarder held off its core for a while (a busy machine) delays the injection
     * instead of overflowing the ring.
     */
    private static final int WINDOW_FRAMES = 256;

    private StarFabric fabric;

    @AfterEach
    void tearDown() throws Exception
    {
        if (null != fabric)
        {
            fabric.close();
        }
    }

    /**
     * A frame of one of five kinds: random bytes after a valid MAC header, IPv4 with a broken header, pFabric with
     * a broken header, IPv4 to an address no host has, or a non-IP ethertype.
     */
    private static int badFrame(final UnsafeBuffer frame, final SplittableRandom random, final int index)
    {
        final int length = 60 + random.nextInt(200);
        for (int i = 0; i < length; i++)
        {
            frame.putByte(i, (byte)random.nextInt(256));
        }
        frame.putLong(0, StarFabric.macValue(2) << 16, ByteOrder.BIG_ENDIAN);
        frame.putShort(6, (short)0x0200, ByteOrder.BIG_ENDIAN);
        frame.putInt(8, (int)StarFabric.macValue(1), ByteOrder.BIG_ENDIAN);
        switch (index % 5)
        {
            case 0 -> frame.putShort(12, (short)0x0800, ByteOrder.BIG_ENDIAN);
            case 1 ->
            {
                frame.putShort(12, (short)0x0800, ByteOrder.BIG_ENDIAN);
                frame.putByte(14, (byte)(0x40 | random.nextInt(5)));
            }
            case 2 ->
            {
                frame.putShort(12, (short)0x0800, ByteOrder.BIG_ENDIAN);
                frame.putByte(14, (byte)0x45);
                frame.putShort(16, (short)(length - 14), ByteOrder.BIG_ENDIAN);
                frame.putShort(20, (short)0, ByteOrder.BIG_ENDIAN);
                frame.putByte(23, (byte)253);
                frame.putByte(34, (byte)0x71);
            }
            case 3 ->
            {
                frame.putShort(12, (short)0x0800, ByteOrder.BIG_ENDIAN);
                frame.putByte(14, (byte)0x45);
                frame.putShort(16, (short)(length - 14), ByteOrder.BIG_ENDIAN);
                frame.putShort(20, (short)0, ByteOrder.BIG_ENDIAN);
                frame.putByte(23, (byte)99);
                frame.putInt(30, 0x0A00_0063, ByteOrder.BIG_ENDIAN);
            }
            default -> frame.putShort(12, (short)0x88B5, ByteOrder.BIG_ENDIAN);
        }
        return length;
    }

    private void inject() throws Exception
    {
        NetworkNamespace.enterOnCurrentThread(fabric.host(1));
        final SplittableRandom random = new SplittableRandom(1);
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[512]);
        final EgressPacer pacer = new EgressPacer(30_000_000L, 16);
        try (PacketPort port = PacketPort.open("eth0"))
        {
            int sent = 0;
            while (sent < FRAMES)
            {
                if (sent % WINDOW_FRAMES == 0 && sent > 0)
                {
                    port.flush();
                    final long injected = sent;
                    Await.await(() -> droppedAndCounted(fabric.port(1)) >= injected, Duration.ofSeconds(30),
                        () -> "the switch counted the " + injected + " frames injected so far (counted " +
                        droppedAndCounted(fabric.port(1)) + ", ring full " +
                        fabric.port(1).counters().get(PortCounter.DROPPED_RING_FULL) + ")");
                }
                final long nowNs = System.nanoTime();
                if (pacer.mayRelease(nowNs) && port.canTransmit())
                {
                    final int length = badFrame(frame, random, sent);
                    port.transmit(frame, 0, length);
                    pacer.onRelease(nowNs, length);
                    sent++;
                }
                else
                {
                    port.flush();
                    // The injector's pacing, part of the traffic it generates: not a wait for a condition.
                    LockSupport.parkNanos(Math.max(1_000, pacer.nextDepartureNs() - nowNs));
                }
            }
            port.flush();
        }
    }

    private static long droppedAndCounted(final SwitchPort ingress)
    {
        return ingress.counters().get(PortCounter.DROPPED_MALFORMED) +
            ingress.counters().get(PortCounter.DROPPED_UNSUPPORTED) +
            ingress.counters().get(PortCounter.DROPPED_NO_ROUTE) +
            ingress.counters().get(PortCounter.DROPPED_OVERSIZE);
    }

    @Test
    void countsEveryBadFrameByReasonAndKeepsForwarding() throws Exception
    {
        fabric = new StarFabric(2, 100_000_000L, DisciplineKind.PFABRIC);
        Namespaces.exec(fabric.host(1), "ping", "-c", "1", "-W", "2", "10.0.0.2");
        final long allocatedBefore = fabric.forwarderAllocatedBytes();

        final CompletableFuture<Void> injector = CompletableFuture.runAsync(() ->
        {
            try
            {
                inject();
            }
            catch (final Exception ex)
            {
                throw new IllegalStateException(ex);
            }
        }, fabric.threads());
        final String ping = Namespaces.exec(fabric.host(1), "ping", "-c", "10", "-i", "0.2", "-W", "2", "10.0.0.2");
        injector.get(120, TimeUnit.SECONDS);
        final String pingAfter = Namespaces.exec(fabric.host(1), "ping", "-c", "3", "-i", "0.2", "-W", "2", "10.0.0.2");
        final long allocated = fabric.forwarderAllocatedBytes() - allocatedBefore;
        fabric.stop();

        assertTrue(ping.contains(" 0% packet loss"), ping);
        assertTrue(pingAfter.contains("3 received"), pingAfter);
        final SwitchPort ingress = fabric.port(1);
        final Forwarder forwarder = fabric.forwarder();
        long malformed = 0;
        for (int reason = 0; reason < ParseReason.COUNT; reason++)
        {
            malformed += forwarder.malformed(reason);
        }
        assertEquals(malformed, ingress.counters().get(PortCounter.DROPPED_MALFORMED));
        assertEquals(0, ingress.counters().get(PortCounter.DROPPED_RING_FULL), "receive ring kept up");
        assertEquals(FRAMES, droppedAndCounted(ingress), "every injected frame dropped and counted");
        assertEquals(FRAMES / 5, ingress.counters().get(PortCounter.DROPPED_UNSUPPORTED));
        assertTrue(forwarder.malformed(ParseReason.BAD_IHL) > 0);
        assertTrue(forwarder.malformed(ParseReason.UNKNOWN_PFABRIC_VERSION) > 0);
        assertTrue(ingress.counters().get(PortCounter.DROPPED_NO_ROUTE) >= FRAMES / 5,
            () -> "no route: " + ingress.counters().get(PortCounter.DROPPED_NO_ROUTE));
        assertTrue(allocated < 64 * 1024, "forwarder allocated " + allocated + " bytes");
    }
}
