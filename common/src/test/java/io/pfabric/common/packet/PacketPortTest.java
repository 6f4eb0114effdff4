package io.pfabric.common.packet;

import io.pfabric.common.os.Commands;
import io.pfabric.testsupport.Await;
import io.pfabric.testsupport.RequiresNetns;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Raw-socket ports on a veth pair inside a network namespace this test creates and deletes.
 */
@Timeout(60)
@RequiresNetns
class PacketPortTest
{
    private static final String A = "pfta";
    private static final String B = "pftb";
    private static final String C = "pftc";
    private static final String D = "pftd";
    private static final int OPENS = 50;
    private static final Duration RECEIVE_TIMEOUT = Duration.ofSeconds(10);
    @RegisterExtension
    static final TestNamespace NETNS = new TestNamespace("pft-").veth(A, B, 9000).veth(C, D, 0);
    private static final String NAMESPACE = NETNS.name();

    private static void run(final String... command) throws IOException
    {
        Commands.run(command);
    }

    private static <T> T inNamespace(final Callable<T> task) throws Exception
    {
        return NETNS.call(task);
    }

    private static UnsafeBuffer frame(final int id, final int length)
    {
        return TestNamespace.numberedFrame(id, length);
    }

    private static List<byte[]> receiveAtLeast(final PacketPort port, final int count)
    {
        final List<byte[]> received = new ArrayList<>();
        Await.await(() ->
        {
            int taken;
            do
            {
                taken = port.receive((buffer, offset, length) ->
                {
                    final byte[] bytes = new byte[length];
                    buffer.getBytes(offset, bytes);
                    received.add(bytes);
                }, 64);
            }
            while (taken > 0 && received.size() < count);
            return received.size() >= count;
        }, RECEIVE_TIMEOUT, () -> count + " frames arrived (" + received.size() + " did)");
        return received;
    }

    @Test
    void carriesFramesByteForByteFromOneTransmitRingToTheOtherEndsReceiveRing() throws Exception
    {
        final List<byte[]> received = inNamespace(() ->
        {
            try (PacketPort a = PacketPort.open(A); PacketPort b = PacketPort.open(B))
            {
                assertEquals(9000, a.mtu());
                assertEquals(2048 - 32 - 20 - 10, a.maxFrameLength(),
                    "limited by the ring frame less the virtio header, not the 9000-byte MTU");
                int sent = 0;
                while (sent < 500)
                {
                    final int length = 60 + (sent * 37) % 1400;
                    if (a.transmit(frame(sent, length), 0, length))
                    {
                        sent++;
                    }
                    if (0 == sent % 32 || sent == 500)
                    {
                        a.flush();
                    }
                }
                a.flush();
                final List<byte[]> frames = receiveAtLeast(b, 500);
                assertEquals(0, a.receive((buffer, offset, length) -> { }, 64), "own transmissions not received");
                return frames;
            }
        });
        assertEquals(500, received.size());
        for (int id = 0; id < 500; id++)
        {
            final byte[] expected = frame(id, 60 + (id * 37) % 1400).byteArray();
            assertTrue(java.util.Arrays.equals(expected, received.get(id)), "frame " + id);
        }
    }

    @Test
    void countsAndDropsFramesLongerThanTheMaximum() throws Exception
    {
        final long[] counts = inNamespace(() ->
        {
            try (PacketPort a = PacketPort.open(A); PacketPort b = PacketPort.open(B, 64, 1514))
            {
                assertTrue(a.transmit(frame(1, 1514), 0, 1514));
                assertTrue(a.transmit(frame(2, 1515), 0, 1515));
                assertTrue(a.transmit(frame(3, 1900), 0, 1900));
                assertTrue(a.transmit(frame(4, 100), 0, 100));
                a.flush();
                final List<byte[]> frames = receiveAtLeast(b, 2);
                b.updateKernelStatistics();
                return new long[]{ frames.size(), b.oversizeDrops(), frames.get(0).length, frames.get(1).length,
                    b.kernelPackets() };
            }
        });
        assertEquals(2, counts[0]);
        assertEquals(2, counts[1]);
        assertEquals(1514, counts[2]);
        assertEquals(100, counts[3]);
        assertEquals(4, counts[4]);
    }

    @Test
    void refusesAFrameLongerThanItsMaximumOrAFullRing() throws Exception
    {
        final boolean[] results = inNamespace(() ->
        {
            try (PacketPort a = PacketPort.open(A, 4, 1514))
            {
                final boolean tooLong = a.transmit(frame(1, 1515), 0, 1515);
                int placed = 0;
                while (placed < 10 && a.transmit(frame(placed, 100), 0, 100))
                {
                    placed++;
                }
                return new boolean[]{ tooLong, 4 == placed };
            }
        });
        assertFalse(results[0]);
        assertTrue(results[1]);
    }

    @Test
    void namesTheMissingInterface() throws Exception
    {
        final PacketSocketException error = inNamespace(() ->
            assertThrows(PacketSocketException.class, () -> PacketPort.open("pft-missing")));
        assertTrue(error.getMessage().contains("no interface named 'pft-missing'"), error.getMessage());
    }

    @Test
    void receivesOnlyItsOwnInterfacesFramesFromTheMomentItOpensWhileAnotherInterfaceIsBusy() throws Exception
    {
        final AtomicBoolean flooding = new AtomicBoolean(true);
        final AtomicLong flooded = new AtomicLong();
        final CountDownLatch floodStarted = new CountDownLatch(1);
        final ExecutorService flooder = Executors.newSingleThreadExecutor();
        try
        {
            final Future<?> flood = flooder.submit(() ->
            {
                NetworkNamespace.enterOnCurrentThread(NAMESPACE);
                try (PacketPort d = PacketPort.open(D, 256, 1514))
                {
                    final UnsafeBuffer frame = frame(7, 60);
                    final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                    while (flooding.get() && System.nanoTime() < deadlineNs)
                    {
                        for (int i = 0; i < 32; i++)
                        {
                            d.transmit(frame, 0, 60);
                        }
                        flooded.addAndGet(d.flush());
                        floodStarted.countDown();
                    }
                }
                return null;
            });
            assertTrue(floodStarted.await(20, TimeUnit.SECONDS), "the other interface is busy");
            final int[] strays = inNamespace(() ->
            {
                int framesTaken = 0;
                int opensWhileBusy = 0;
                for (int i = 0; i < OPENS; i++)
                {
                    final long floodedBefore = flooded.get();
                    try (PacketPort a = PacketPort.open(A))
                    {
                        opensWhileBusy += flooded.get() > floodedBefore ? 1 : 0;
                        framesTaken += a.receive((buffer, offset, length) -> { }, 1024);
                    }
                }
                return new int[] { framesTaken, opensWhileBusy };
            });
            flooding.set(false);
            flood.get(30, TimeUnit.SECONDS);
            assertTrue(strays[1] > OPENS / 2, () -> "frames crossed the other interface during most opens: " +
                strays[1] + " of " + OPENS);
            assertEquals(0, strays[0], "a port received frames of another interface (A's peer sends nothing)");
        }
        finally
        {
            flooding.set(false);
            flooder.shutdownNow();
        }
    }
}
