package io.pfabric.common.packet;

import io.netty.channel.uring.IoUring;
import io.pfabric.testsupport.Await;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Two VXLAN ports on loopback, no privilege needed.
 */
class VxlanPortTest
{
    private static final Duration RECEIVE_TIMEOUT = Duration.ofSeconds(5);

    private static int freePort() throws Exception
    {
        try (DatagramChannel probe = DatagramChannel.open())
        {
            probe.bind(new InetSocketAddress("127.0.0.1", 0));
            return ((InetSocketAddress)probe.getLocalAddress()).getPort();
        }
    }

    private static List<byte[]> receive(final VxlanPort port, final int count, final String description)
    {
        return receive(port, null, count, description);
    }

    private static List<byte[]> receive(
        final VxlanPort port, final VxlanPort sender, final int count, final String description)
    {
        final List<byte[]> frames = new ArrayList<>();
        Await.await(() ->
        {
            if (null != sender)
            {
                sender.receive((buffer, offset, length) -> { }, 32);
            }
            port.receive((buffer, offset, length) ->
            {
                final byte[] frame = new byte[length];
                buffer.getBytes(offset, frame);
                frames.add(frame);
            }, 32);
            return frames.size() >= count;
        }, RECEIVE_TIMEOUT, () -> description + " (" + frames.size() + " of " + count + " frames arrived)");
        return frames;
    }

    @ParameterizedTest
    @EnumSource(NettyTransport.class)
    void carriesFramesByteForByteAndDropsForeignOrBrokenDatagrams(final NettyTransport transport) throws Exception
    {
        assumeTrue(NettyTransport.EPOLL == transport || IoUring.isAvailable(), "io_uring is not available here");
        final InetSocketAddress a = new InetSocketAddress("127.0.0.1", freePort());
        final InetSocketAddress b = new InetSocketAddress("127.0.0.1", freePort());
        final VxlanPort portA = VxlanPort.open(a, b, 42, 1514, transport);
        try (VxlanPort portB = VxlanPort.open(b, a, 42, 1514, transport))
        {
            assertEquals(0, portB.receive((buffer, offset, length) -> { }, 32), "nothing has been sent yet");
            final List<byte[]> sent = new ArrayList<>();
            for (int i = 0; i < 100; i++)
            {
                final byte[] frame = new byte[60 + i * 14];
                Arrays.fill(frame, (byte)i);
                sent.add(frame);
                assertTrue(portA.transmit(new UnsafeBuffer(frame), 0, frame.length));
            }
            portA.flush();
            final List<byte[]> received = receive(portB, portA, 100, "the 100 frames arrived");
            assertEquals(100, received.size());
            for (int i = 0; i < 100; i++)
            {
                assertArrayEquals(sent.get(i), received.get(i), "frame " + i);
            }
            assertFalse(portA.transmit(new UnsafeBuffer(new byte[1515]), 0, 1515));

            portA.close();
            try (DatagramChannel asPeer = DatagramChannel.open())
            {
                asPeer.bind(a);
                final ByteBuffer noFlag = ByteBuffer.allocate(8 + 60);
                noFlag.putInt(4, 42 << 8);
                asPeer.send(noFlag, b);
                final ByteBuffer wrongVni = ByteBuffer.allocate(8 + 60);
                wrongVni.putInt(0, 0x0800_0000).putInt(4, 43 << 8);
                asPeer.send(wrongVni, b);
                asPeer.send(ByteBuffer.allocate(4), b);
                final ByteBuffer good = ByteBuffer.allocate(8 + 60);
                good.putInt(0, 0x0800_0000).putInt(4, 42 << 8);
                asPeer.send(good, b);
            }
            assertEquals(1, receive(portB, 1, "the well-formed datagram from the peer arrived").size(),
                "only the well-formed datagram from the peer arrives");
            assertEquals(3, portB.oversizeDrops(), "no I flag, another VNI and a runt are counted and dropped");
        }
        finally
        {
            portA.close();
        }
    }

    @Test
    void belongsToTheThreadThatFirstUsesIt() throws Exception
    {
        final InetSocketAddress a = new InetSocketAddress("127.0.0.1", freePort());
        final InetSocketAddress b = new InetSocketAddress("127.0.0.1", freePort());
        final VxlanPort port = VxlanPort.open(a, b, 7, 1514);
        try
        {
            final CompletableFuture<Integer> onOther = CompletableFuture.supplyAsync(
                () -> port.receive((buffer, offset, length) -> { }, 32));
            assertEquals(0, onOther.get(5, TimeUnit.SECONDS));
            assertThrows(IllegalStateException.class, () -> port.receive((buffer, offset, length) -> { }, 32));
        }
        finally
        {
            port.close();
        }
    }

    @Test
    void reportsAnAddressThatCannotBeBoundWhenOpened() throws Exception
    {
        final InetSocketAddress a = new InetSocketAddress("127.0.0.1", freePort());
        final InetSocketAddress b = new InetSocketAddress("127.0.0.1", freePort());
        try (DatagramChannel holder = DatagramChannel.open())
        {
            holder.bind(a);
            final PacketSocketException ex =
                assertThrows(PacketSocketException.class, () -> VxlanPort.open(a, b, 7, 1514));
            assertTrue(ex.getMessage().contains(a.getHostString() + ":" + a.getPort()), ex.getMessage());
        }
    }
}
