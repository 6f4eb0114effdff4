package io.pfabric.common.packet;

import io.pfabric.common.os.Commands;
import io.pfabric.testsupport.Await;
import io.pfabric.testsupport.RequiresNetns;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The XDP live-frames generator on a veth pair inside a namespace this test creates and deletes, GRO on at the
 * receiving end: unpaced, every repetition leaves the sender, received or counted as a transmit drop; paced, no more
 * than the schedule allows leave, however many repetitions run.
 */
@Timeout(60)
@RequiresNetns
class XdpLiveFramesTest
{
    private static final String SENDER = "pfla";
    private static final String RECEIVER = "pflb";
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    @RegisterExtension
    static final TestNamespace NETNS = new TestNamespace("pflive-").veth(SENDER, RECEIVER, 0);
    private static final String NAMESPACE = NETNS.name();

    @BeforeAll
    static void receiveRing() throws IOException
    {
        Commands.inNamespace(NAMESPACE, "ethtool", "-K", RECEIVER, "gro", "on");
    }

    private static long counter(final String interfaceName, final String name)
    {
        try
        {
            return Long.parseLong(Commands.inNamespace(NAMESPACE, "cat",
                "/sys/class/net/" + interfaceName + "/statistics/" + name).trim());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static long leftOrDropped()
    {
        return counter(SENDER, "tx_packets") + counter(SENDER, "tx_dropped");
    }

    private static byte[] frame()
    {
        final byte[] frame = new byte[60];
        for (int i = 0; i < 6; i++)
        {
            frame[i] = (byte)0xff;
        }
        frame[6] = 0x02;
        frame[12] = (byte)0x88;
        frame[13] = (byte)0xb5;
        return frame;
    }

    @Test
    void unpacedEveryRepetitionLeavesTheSender() throws Exception
    {
        final int repetitions = 10_000;
        final long before = leftOrDropped();
        final long receivedBefore = counter(RECEIVER, "rx_packets");
        NETNS.call(() ->
        {
            try (XdpLiveFrames frames = XdpLiveFrames.open(SENDER, frame(), 0))
            {
                frames.send(repetitions);
            }
            return null;
        });
        assertEquals(repetitions, leftOrDropped() - before, "repetitions sent or dropped by the sender");
        final long left = counter(SENDER, "tx_packets");
        Await.await(() -> counter(RECEIVER, "rx_packets") - receivedBefore > 0, TIMEOUT,
            () -> "frames arriving at the receiving end");
        assertTrue(left > 0, "no frame left the sender");
    }

    @Test
    void pacedSendsNoMoreThanItsSchedule() throws Exception
    {
        final long intervalNs = TimeUnit.MILLISECONDS.toNanos(1);
        final int repetitions = 1_000_000;
        final long before = counter(SENDER, "tx_packets") + counter(SENDER, "tx_dropped");
        final long elapsedNs = NETNS.call(() ->
        {
            try (XdpLiveFrames frames = XdpLiveFrames.open(SENDER, frame(), intervalNs))
            {
                final long start = System.nanoTime();
                frames.send(repetitions);
                return System.nanoTime() - start;
            }
        });
        final long sent = leftOrDropped() - before;
        final long allowed = elapsedNs / intervalNs + 1;
        assertTrue(sent > 0, "nothing sent");
        assertTrue(sent <= allowed, () -> sent + " frames in " + elapsedNs + " ns, at most " + allowed + " allowed");
        assertTrue(sent < repetitions / 10, () -> sent + " of " + repetitions + " repetitions sent");
    }

    @Test
    void refusesAnInterfaceThatDoesNotExistAndAFrameTooShort() throws Exception
    {
        final PacketSocketException error = NETNS.call(() ->
            assertThrows(PacketSocketException.class, () -> XdpLiveFrames.open("pfl-none", frame(), 0)));
        assertTrue(error.getMessage().contains("pfl-none"), error.getMessage());
        assertThrows(IllegalArgumentException.class, () -> XdpLiveFrames.open(SENDER, new byte[59], 0));
    }
}
