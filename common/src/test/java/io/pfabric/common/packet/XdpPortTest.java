package io.pfabric.common.packet;

import com.sun.jna.Memory;
import com.sun.jna.internal.Cleaner;
import io.pfabric.common.os.Commands;
import io.pfabric.testsupport.Await;
import io.pfabric.testsupport.RequiresNetns;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * AF_XDP ports on veth pairs inside a network namespace this test creates and deletes: frames cross byte for byte in
 * both directions between an AF_XDP port and a packet-socket port, many more than the UMEM has frames, the port
 * waits in a {@link PacketPortSet}, and closing it takes the redirect program off the interface, from any thread. A
 * redirect program left by a process that did not close its port is taken off; another XDP program is not, and the
 * error says to use AF_PACKET ports. A driver without native XDP (a bridge) gets generic mode.
 */
@Timeout(60)
@RequiresNetns
class XdpPortTest
{
    private static final String A = "pfxka";
    private static final String B = "pfxkb";
    private static final int FRAMES = 3 * (XdpPort.RECEIVE_FRAMES + XdpPort.TRANSMIT_FRAMES);
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    @RegisterExtension
    static final TestNamespace NETNS = new TestNamespace("pfxsk-").veth(A, B, 0);
    private static final String NAMESPACE = NETNS.name();

    private static <T> T inNamespace(final Callable<T> task) throws Exception
    {
        return NETNS.call(task);
    }

    private static UnsafeBuffer frame(final int id, final int length)
    {
        return TestNamespace.numberedFrame(id, length);
    }

    private static int length(final int id)
    {
        return 60 + (id * 37) % 1455;
    }

    /**
     * Send frames one batch at a time and take what arrives before the next batch, checking every frame byte for byte
     * and in order.
     */
    private static void carry(
        final FramePort from, final FramePort to, final PacketPortSet waitOn, final int count)
    {
        final List<String> mismatches = new ArrayList<>();
        final int[] received = {0};
        final PacketHandler check = (buffer, offset, length) ->
        {
            final byte[] bytes = new byte[length];
            buffer.getBytes(offset, bytes);
            final int id = received[0]++;
            if (!Arrays.equals(frame(id, length(id)).byteArray(), bytes) && mismatches.size() < 5)
            {
                mismatches.add("frame " + id + " (" + length + " bytes)");
            }
        };
        int sent = 0;
        while (sent < count)
        {
            final int batchEnd = Math.min(count, sent + 32);
            while (sent < batchEnd)
            {
                final int id = sent;
                Await.await(() -> from.canTransmit() || 0 < from.flush(), TIMEOUT, () -> "room to transmit " + id);
                assertTrue(from.transmit(frame(id, length(id)), 0, length(id)), "frame " + id + " placed");
                sent++;
            }
            from.flush();
            final int expected = sent;
            Await.await(() ->
            {
                from.flush();
                waitOn.await(1_000_000);
                to.receive(check, 64);
                return received[0] >= expected;
            }, TIMEOUT, () -> expected + " frames arrived (" + received[0] + " did)");
        }
        assertEquals(List.of(), mismatches);
        assertEquals(count, received[0]);
    }

    @Test
    void carriesFramesByteForByteBothWaysAndLeavesNoProgramBehind() throws Exception
    {
        final String mode = inNamespace(() ->
        {
            try (PacketPort a = PacketPort.open(A); XdpPort b = XdpPort.open(B))
            {
                assertEquals(1514, b.maxFrameLength());
                final PacketPortSet atB = new PacketPortSet(1);
                atB.add(b);
                final PacketPortSet atA = new PacketPortSet(1);
                atA.add(a);
                carry(a, b, atB, FRAMES);
                carry(b, a, atA, FRAMES);
                return b.attachMode();
            }
        });
        assertEquals("native, copy", mode, "veth has native XDP and no zero copy");
        final String link = Commands.inNamespace(NAMESPACE, "ip", "link", "show", B);
        assertFalse(link.contains("xdp"), "an XDP program is left on the interface: " + link);
    }

    /**
     * libxdp keeps pointers to the ring structures the port hands it and unmaps the rings through them when the port
     * closes; were they collected while the port is open, the rings would stay mapped, the socket alive and its queue
     * taken. Memory of their size is freed by JNA's cleaner thread and allocated again, filled with ones, before the
     * port closes.
     */
    @Test
    void collectionsWhileThePortIsOpenLeaveItsQueueFreeAfterItCloses() throws Exception
    {
        final String mode = inNamespace(() ->
        {
            try (XdpPort b = XdpPort.open(B))
            {
                for (int round = 0; round < 5; round++)
                {
                    for (int i = 0; i < 10_000; i++)
                    {
                        new Memory(48).setMemory(0, 48, (byte)0xff);
                    }
                    final CountDownLatch cleaned = new CountDownLatch(1);
                    Cleaner.getCleaner().register(new Object(), cleaned::countDown);
                    Await.await(() ->
                    {
                        System.gc();
                        return 0 == cleaned.getCount();
                    }, TIMEOUT, () -> "JNA's cleaner ran");
                }
                b.flush();
            }
            try (XdpPort again = XdpPort.open(B))
            {
                return again.attachMode();
            }
        });
        assertEquals("native, copy", mode);
    }

    @Test
    void aWaitEndsOnAFrameAndOnAWakeup() throws Exception
    {
        inNamespace(() ->
        {
            try (PacketPort a = PacketPort.open(A); XdpPort b = XdpPort.open(B))
            {
                final PacketPortSet set = new PacketPortSet(2);
                set.add(b);
                assertFalse(set.await(1_000_000), "nothing arrived");
                b.wakeup();
                assertFalse(set.await(10_000_000_000L), "a wakeup ends the wait without a frame");
                assertTrue(a.transmit(frame(0, 60), 0, 60));
                a.flush();
                assertTrue(set.await(10_000_000_000L), "the frame ends the wait");
                assertEquals(1, b.receive((buffer, offset, length) -> { }, 64));
            }
            return null;
        });
    }

    private static String link(final String interfaceName) throws Exception
    {
        return Commands.inNamespace(NAMESPACE, "ip", "link", "show", interfaceName);
    }

    @Test
    void closedFromAThreadOfAnotherNamespaceItStillTakesTheProgramOff() throws Exception
    {
        final XdpPort port = inNamespace(() -> XdpPort.open(B));
        assertTrue(link(B).contains("xdp"), "the redirect program is on while the port is open: " + link(B));
        port.close();
        assertFalse(link(B).contains("xdp"), "an XDP program is left on the interface: " + link(B));
    }

    @Test
    void takesOffARedirectProgramAStoppedProcessLeftAndSaysSo() throws Exception
    {
        Commands.run("ip", "netns", "exec", NAMESPACE, "xdp-loader", "load", "-m", "native", B,
            "/usr/lib/x86_64-linux-gnu/bpf/xsk_def_xdp_prog.o");
        assertTrue(link(B).contains("xdp"), link(B));
        final boolean[] detached = new boolean[2];
        inNamespace(() ->
        {
            try (PacketPort a = PacketPort.open(A); XdpPort b = XdpPort.open(B))
            {
                detached[0] = b.staleProgramDetached();
                final PacketPortSet atB = new PacketPortSet(1);
                atB.add(b);
                carry(a, b, atB, 100);
            }
            try (XdpPort b = XdpPort.open(B))
            {
                detached[1] = b.staleProgramDetached();
            }
            return null;
        });
        assertTrue(detached[0], "the stale program was taken off");
        assertFalse(detached[1], "after a clean close there is nothing to take off");
        assertFalse(link(B).contains("xdp"), "an XDP program is left on the interface: " + link(B));
    }

    /**
     * A queue an open port holds is refused at once; one that a port closed just before holds (the kernel gives it
     * back after freeing the socket) is waited for, which the reopening tests above need.
     */
    @Test
    void aQueueAnOpenPortHoldsIsRefused() throws Exception
    {
        final String message = inNamespace(() ->
        {
            try (XdpPort b = XdpPort.open(B))
            {
                final String refusal = assertThrows(PacketSocketException.class, () -> XdpPort.open(B)).getMessage();
                assertEquals("native, copy", b.attachMode(), "the open port stays as it was");
                return refusal;
            }
        });
        assertTrue(message.contains(B) && message.contains("queue 0 or its XDP hook is taken"), message);
    }

    @Test
    void leavesAnotherXdpProgramAloneAndSaysToUseAfPacket() throws Exception
    {
        final String message = inNamespace(() ->
        {
            final XdpDrop drop = XdpDrop.attach(B);
            try
            {
                final PacketSocketException error = assertThrows(PacketSocketException.class, () -> XdpPort.open(B));
                assertTrue(link(B).contains("xdp"), "the other program stays: " + link(B));
                return error.getMessage();
            }
            finally
            {
                drop.close();
            }
        });
        assertTrue(message.contains(B) && message.contains("use AF_PACKET ports instead (io: packet"), message);
    }

    @Test
    void usesGenericModeWhereTheDriverHasNoNativeHook() throws Exception
    {
        Commands.run("ip", "-n", NAMESPACE, "link", "add", "pfxkbr", "type", "bridge");
        Commands.run("ip", "-n", NAMESPACE, "link", "set", "pfxkbr", "up");
        try
        {
            final String mode = inNamespace(() ->
            {
                try (XdpPort port = XdpPort.open("pfxkbr"))
                {
                    assertTrue(link("pfxkbr").contains("xdpgeneric"), link("pfxkbr"));
                    return port.attachMode();
                }
            });
            assertEquals("generic, copy", mode);
            assertFalse(link("pfxkbr").contains("xdp"), "an XDP program is left on the interface: " + link("pfxkbr"));
        }
        finally
        {
            Commands.run("ip", "-n", NAMESPACE, "link", "del", "pfxkbr");
        }
    }

    @Test
    void namesAnInterfaceThatDoesNotExist() throws Exception
    {
        final PacketSocketException error =
            inNamespace(() -> assertThrows(PacketSocketException.class, () -> XdpPort.open("pfxk-none")));
        assertTrue(error.getMessage().contains("pfxk-none"), error.getMessage());
    }
}
