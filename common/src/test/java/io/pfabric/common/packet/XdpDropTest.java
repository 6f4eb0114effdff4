package io.pfabric.common.packet;

import io.pfabric.common.os.Commands;
import io.pfabric.testsupport.Await;
import io.pfabric.testsupport.RequiresNetns;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The XDP drop program on a veth pair inside a network namespace this test creates and deletes: attached, it drops
 * every arriving frame before a packet socket on the interface sees it and the interface counts the drops; detached,
 * frames arrive again.
 */
@Timeout(60)
@RequiresNetns
class XdpDropTest
{
    private static final String SENDER = "pfxa";
    private static final String RECEIVER = "pfxb";
    private static final Pattern XDP_DROPS = Pattern.compile("rx_queue_\\d+_xdp_drops:\\s*(\\d+)");
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    @RegisterExtension
    static final TestNamespace NETNS = new TestNamespace("pfxdp-").veth(SENDER, RECEIVER, 0);
    private static final String NAMESPACE = NETNS.name();

    private static <T> T inNamespace(final Callable<T> task) throws Exception
    {
        return NETNS.call(task);
    }

    private static long xdpDrops()
    {
        final Matcher matcher;
        try
        {
            matcher = XDP_DROPS.matcher(Commands.inNamespace(NAMESPACE, "ethtool", "-S", RECEIVER));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        long sum = 0;
        while (matcher.find())
        {
            sum += Long.parseLong(matcher.group(1));
        }
        return sum;
    }

    private static void send(final PacketPort port, final int count)
    {
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[60]);
        frame.putLong(0, 0xFFFF_FFFF_FFFFL << 16, ByteOrder.BIG_ENDIAN);
        frame.putShort(12, (short)0x88B5, ByteOrder.BIG_ENDIAN);
        for (int i = 0; i < count; i++)
        {
            frame.putInt(14, i, ByteOrder.BIG_ENDIAN);
            Await.await(() -> port.transmit(frame, 0, frame.capacity()), TIMEOUT, () -> "room in the transmit ring");
            port.flush();
        }
    }

    @Test
    void dropsEveryFrameWhileAttachedAndNoneOnceClosed() throws Exception
    {
        final int dropped = 100;
        final int delivered = 10;
        inNamespace(() ->
        {
            try (PacketPort sender = PacketPort.open(SENDER); PacketPort receiver = PacketPort.open(RECEIVER))
            {
                final AtomicInteger received = new AtomicInteger();
                final long dropsBefore = xdpDrops();
                final XdpDrop drop = XdpDrop.attach(RECEIVER);
                try
                {
                    send(sender, dropped);
                    Await.await(() -> xdpDrops() - dropsBefore >= dropped, TIMEOUT,
                        () -> dropped + " frames dropped by the program");
                    receiver.receive((buffer, offset, length) -> received.incrementAndGet(), 1024);
                    assertEquals(0, received.get(), "a frame the program dropped reached the packet socket");
                }
                finally
                {
                    drop.close();
                }
                send(sender, delivered);
                Await.await(() ->
                {
                    receiver.receive((buffer, offset, length) -> received.incrementAndGet(), 1024);
                    return received.get() >= delivered;
                }, TIMEOUT, () -> delivered + " frames arrived after the program was detached (" + received + ")");
                assertEquals(dropped, xdpDrops() - dropsBefore, "frames dropped after the program was detached");
            }
            return null;
        });
    }

    @Test
    void namesAnInterfaceThatDoesNotExist() throws Exception
    {
        final PacketSocketException error =
            inNamespace(() -> assertThrows(PacketSocketException.class, () -> XdpDrop.attach("pfx-none")));
        assertTrue(error.getMessage().contains("pfx-none"), error.getMessage());
    }
}
