package io.pfabric.common.control;

import io.netty.channel.uring.IoUring;
import io.pfabric.common.packet.NettyTransport;
import io.pfabric.testsupport.Await;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A host's control socket and the controller's on loopback, unprivileged: signed messages cross and are accepted;
 * a datagram from another socket without the key is refused and counted.
 */
class ControlChannelTest
{
    @ParameterizedTest
    @EnumSource(NettyTransport.class)
    void signedMessagesCrossAndForgeriesAreRefused(final NettyTransport transport) throws Exception
    {
        assumeTrue(NettyTransport.EPOLL == transport || IoUring.isAvailable(), "io_uring is not available here");
        final ControlAuthenticator key = new ControlAuthenticator(ControlInboxTest.KEY);
        final ControlInbox inbox = ControlInbox.forController(key, 4);
        final ControlMessageFlyweight message = new ControlMessageFlyweight();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[ControlMessageFlyweight.MAX_MESSAGE_LENGTH]);
        final List<ControlInbox.Outcome> outcomes = new ArrayList<>();
        final List<Long> demands = new ArrayList<>();
        final ControlMessageFlyweight read = new ControlMessageFlyweight();

        try (ControlChannel controller = ControlChannel.open(new InetSocketAddress("127.0.0.1", 0), transport);
            ControlChannel host = ControlChannel.open(new InetSocketAddress("127.0.0.1", 0), transport);
            DatagramChannel forger = DatagramChannel.open())
        {
            final InetSocketAddress controllerAddress = controller.localAddress();
            for (int i = 1; i <= 10; i++)
            {
                message.wrap(buffer, 0).start(ControlMessageFlyweight.TYPE_DEMAND, 3, i, 1);
                message.appendEntry(1, 0, 0, 100L * i);
                host.send(controllerAddress, buffer, 0, key.sign(buffer, 0, message.bodyLength()));
            }
            host.poll((b, o, l) -> { });
            final ByteBuffer forgery = ByteBuffer.allocate(ControlMessageFlyweight.HEADER_LENGTH +
                ControlMessageFlyweight.ENTRY_LENGTH + ControlMessageFlyweight.MAC_LENGTH);
            forgery.putShort((short)ControlMessageFlyweight.MAGIC).put((byte)1)
                .put((byte)ControlMessageFlyweight.TYPE_DEMAND).putShort((short)3).putShort((short)1)
                .putLong(11).putLong(1).rewind();
            forger.send(forgery, controllerAddress);

            Await.await(() ->
            {
                host.poll((b, o, l) -> { });
                controller.poll((b, o, l) ->
                {
                    final ControlInbox.Outcome outcome = inbox.accept(b, o, l, read);
                    outcomes.add(outcome);
                    if (ControlInbox.Outcome.ACCEPTED == outcome)
                    {
                        demands.add(read.entryValue(0));
                    }
                });
                return outcomes.size() >= 11;
            }, Duration.ofSeconds(5), () -> "the controller's socket took the 10 messages and the forgery (it took " +
                outcomes.size() + ")");
        }
        assertEquals(11, outcomes.size());
        assertEquals(10, inbox.accepted());
        assertEquals(1, inbox.unauthenticated());
        assertEquals(List.of(100L, 200L, 300L, 400L, 500L, 600L, 700L, 800L, 900L, 1_000L), demands);
    }
}
