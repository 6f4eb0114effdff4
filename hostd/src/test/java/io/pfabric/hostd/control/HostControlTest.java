package io.pfabric.hostd.control;

import io.pfabric.common.control.ControlAuthenticator;
import io.pfabric.common.control.ControlChannel;
import io.pfabric.common.control.ControlMessageFlyweight;
import io.pfabric.common.control.ControlMode;
import io.pfabric.common.packet.NettyTransport;
import io.pfabric.hostd.io.PacketIo;
import io.pfabric.hostd.transport.HostTransport;
import io.pfabric.hostd.transport.TransportConfiguration;
import io.pfabric.hostd.transport.TransportListener;
import io.pfabric.testsupport.Await;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A host's control session against a scripted controller on loopback sockets, with the host's clock scripted (and
 * the LineRate variant, so that no window holds packets back in place of the controller): demand
 * is reported from the transport's backlog, a grant releases one packet, a forged grant releases none, silence
 * turns admission off (counted) and a message turns it back on; on the controller's slot clock a grant releases its
 * packet when its slot starts, not when it arrives, and one whose slot passed expires and is asked for again.
 */
@Timeout(60)
class HostControlTest
{
    private static final byte[] KEY = "a shared key of 32 bytes, for tests".getBytes(StandardCharsets.UTF_8);
    private static final long LINK_BPS = 100_000_000L;
    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(10);

    private final long[] now = { 1_000_000_000L };
    private final List<Integer> sentTo = new ArrayList<>();
    private final List<byte[]> received = new ArrayList<>();
    private ControlChannel controller;
    private HostControl control;
    private HostTransport transport;
    private long controllerSequence;

    private final PacketIo io = new PacketIo()
    {
        public int poll(final InboundHandler handler, final int limit)
        {
            return 0;
        }

        public boolean send(final int destinationHost, final DirectBuffer buffer, final int offset, final int length)
        {
            sentTo.add(destinationHost);
            return true;
        }

        public int maxPacketLength()
        {
            return 1_500;
        }

        public void flush()
        {
        }

        public void close()
        {
        }
    };

    private void start(final ControlMode mode) throws Exception
    {
        controller = ControlChannel.open(new InetSocketAddress("127.0.0.1", 0), NettyTransport.EPOLL);
        control = HostControl.open(new HostControlOptions(mode, controller.localAddress(),
            new InetSocketAddress("127.0.0.1", 0), KEY, 50_000_000L, 0, 0, NettyTransport.EPOLL), 0, 3, LINK_BPS,
            () -> now[0]);
        transport = new HostTransport(TransportConfiguration.forFabric(LINK_BPS, 1_000_000L, 36_000).withLineRate(), 0, LINK_BPS,
            42, io, () -> now[0], new TransportListener()
            {
            }, false);
        transport.admission(control);
    }

    @AfterEach
    void tearDown()
    {
        if (null != control)
        {
            control.close();
        }
        if (null != controller)
        {
            controller.close();
        }
    }

    private void step(final long ns)
    {
        now[0] += ns;
        transport.poll();
        controller.poll((buffer, offset, length) ->
        {
            final byte[] bytes = new byte[length];
            buffer.getBytes(offset, bytes);
            received.add(bytes);
        });
    }

    private void stepUntil(final BooleanSupplier condition, final long ns, final String description)
    {
        Await.await(() ->
        {
            if (!condition.getAsBoolean())
            {
                step(ns);
            }
            return condition.getAsBoolean();
        }, STEP_TIMEOUT, description + ", stepping the host's clock " + ns + " ns at a time");
    }

    private void sendToHost(final ControlAuthenticator key, final int type, final int peer, final int spine,
        final long value, final long total, final InetSocketAddress to)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[ControlMessageFlyweight.MAX_MESSAGE_LENGTH]);
        final ControlMessageFlyweight message = new ControlMessageFlyweight().wrap(buffer, 0)
            .start(type, 0, ++controllerSequence, 7);
        message.appendEntry(peer, spine, 0, value);
        if (total > 0)
        {
            message.appendEntry(peer, 0, ControlMessageFlyweight.FLAG_TOTAL, total);
        }
        controller.send(to, buffer, 0, key.sign(buffer, 0, message.bodyLength()));
    }

    private InetSocketAddress hostAddress()
    {
        return new InetSocketAddress("127.0.0.1", controlPort());
    }

    private int controlPort()
    {
        return control.localAddress().getPort();
    }

    @Test
    void synReportsDemandSendsOnAGrantRefusesAForgeryAndFallsBackOnSilence() throws Exception
    {
        start(ControlMode.SYN);
        transport.send(2, 3_000);
        stepUntil(() -> !received.isEmpty(), 10_000, "the controller received the demand");
        final ControlMessageFlyweight demand =
            new ControlMessageFlyweight().wrap(new UnsafeBuffer(received.get(0)), 0);
        assertEquals(ControlMessageFlyweight.TYPE_DEMAND, demand.type());
        assertEquals(2, demand.entryPeer(0));
        assertEquals(3, demand.entryValue(0), "three segments wanted");
        assertTrue(sentTo.isEmpty(), "nothing leaves before a grant");

        sendToHost(new ControlAuthenticator("the forger's key, also 32 bytes...".getBytes(StandardCharsets.UTF_8)),
            ControlMessageFlyweight.TYPE_GRANTS, 2, 1, 5, 1, hostAddress());
        stepUntil(() -> control.inbox().unauthenticated() == 1, 1_000, "the host refused the forgery");
        assertTrue(sentTo.isEmpty(), "a forged grant sends nothing");

        sendToHost(new ControlAuthenticator(KEY), ControlMessageFlyweight.TYPE_GRANTS, 2, 1, 6, 1, hostAddress());
        stepUntil(() -> !sentTo.isEmpty(), 1_000, "the grant released a packet");
        step(1_000);
        step(1_000);
        assertEquals(List.of(2), sentTo, "one grant, one packet");
        assertFalse(control.fallback());

        step(60_000_000L);
        assertTrue(control.fallback(), "silent for 60 ms");
        assertEquals(1, control.fallbacks());
        stepUntil(() -> sentTo.size() >= 3, 1_000, "the other two packets left in fallback");
        assertTrue(control.packetsAdmittedInFallback() >= 2, "the rest left as plain pFabric");

        sendToHost(new ControlAuthenticator(KEY), ControlMessageFlyweight.TYPE_GRANTS, 2, 0, 9, 2, hostAddress());
        stepUntil(() -> !control.fallback(), 1_000, "the controller's grant ended the fallback");
        assertEquals(1, control.resumptions());
    }

    @Test
    void asyOffersTheLineRateTowardABusyDestinationAndSendsAtTheGrantedRate() throws Exception
    {
        start(ControlMode.ASY);
        transport.send(1, 1_000_000);
        stepUntil(() -> !received.isEmpty(), 100_000, "the controller received the offer");
        final ControlMessageFlyweight offer =
            new ControlMessageFlyweight().wrap(new UnsafeBuffer(received.get(received.size() - 1)), 0);
        assertEquals(ControlMessageFlyweight.TYPE_OFFER, offer.type());
        assertEquals(2, offer.entryCount(), "every other host");
        assertEquals(1, offer.entryPeer(0));
        assertEquals(LINK_BPS, offer.entryValue(0));
        assertEquals(0, offer.entryValue(1));
        assertTrue(sentTo.isEmpty(), "no rate, no packet");

        sendToHost(new ControlAuthenticator(KEY), ControlMessageFlyweight.TYPE_RATES, 1, 0, LINK_BPS / 4, 0,
            hostAddress());
        stepUntil(() -> control.asy().rate(1) > 0, 1_000, "the host took the rate toward host 1");
        final int before = sentTo.size();
        for (int i = 0; i < 1_000; i++)
        {
            step(10_000);
        }
        final int packets = sentTo.size() - before;
        final double bitsPerSec = packets * (1_440 + 32 + 42 + 24) * 8 / 0.01;
        assertEquals(LINK_BPS / 4, bitsPerSec, LINK_BPS / 4 * 0.1, packets + " packets in 10 ms");
    }

    @Test
    void synSendsAGrantedPacketInItsSlotOnlyOnTheControllersClock() throws Exception
    {
        start(ControlMode.SYN);
        transport.send(2, 3_000);
        stepUntil(() -> !received.isEmpty(), 10_000, "the controller received the demand");
        final long slotNs = 100_000;
        final long startNs = now[0] - 10 * slotNs;
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[ControlMessageFlyweight.MAX_MESSAGE_LENGTH]);
        final ControlMessageFlyweight message = new ControlMessageFlyweight().wrap(buffer, 0)
            .start(ControlMessageFlyweight.TYPE_GRANTS, 0, ++controllerSequence, 7);
        message.appendEntry(0, 0, ControlMessageFlyweight.FLAG_CLOCK, slotNs, startNs);
        message.appendEntry(2, 1, 0, 15);
        message.appendEntry(2, 1, 0, 18);
        message.appendEntry(2, 0, ControlMessageFlyweight.FLAG_TOTAL, 2);
        controller.send(hostAddress(), buffer, 0, new ControlAuthenticator(KEY).sign(buffer, 0, message.bodyLength()));
        stepUntil(() -> control.inbox().accepted() == 1, 0, "the host accepted the grants with the slot clock");
        assertEquals(slotNs, control.slotClockNs());

        final long slot15Ns = startNs + 15 * slotNs;
        while (now[0] + 10_000 < slot15Ns)
        {
            step(10_000);
        }
        assertTrue(sentTo.isEmpty(), "nothing before the slot starts, though the grant is here");
        now[0] = slot15Ns;
        step(0);
        assertEquals(List.of(2), sentTo, "the packet leaves when its slot starts");
        step(50_000);
        step(40_000);
        assertEquals(List.of(2), sentTo, "one packet per slot: the next grant is for slot 18");

        now[0] = startNs + 19 * slotNs + 1;
        step(0);
        assertEquals(List.of(2), sentTo, "slot 18's window closed before the host woke: nothing leaves late");
        assertEquals(1, control.syn().grantsExpired());
        assertEquals(1, control.syn().grantsUsed());
        stepUntil(() -> received.size() > 1 && lastDemandToTwo() == 4, 10_000,
            "the host asked again for the expired grant's slot (a demand of 4 to host 2)");
    }

    private long lastDemandToTwo()
    {
        final ControlMessageFlyweight demand =
            new ControlMessageFlyweight().wrap(new UnsafeBuffer(received.get(received.size() - 1)), 0);
        return ControlMessageFlyweight.TYPE_DEMAND == demand.type() && 2 == demand.entryPeer(0) ?
            demand.entryValue(0) : -1;
    }
}
