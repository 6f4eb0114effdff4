package io.pfabric.controllerd;

import io.pfabric.common.control.ControlAuthenticator;
import io.pfabric.common.control.ControlChannel;
import io.pfabric.common.control.ControlInbox;
import io.pfabric.common.control.ControlMessageFlyweight;
import io.pfabric.common.control.ControlMode;
import io.pfabric.common.control.GrantLedger;
import io.pfabric.common.packet.NettyTransport;
import io.pfabric.common.topology.Topologies;
import io.pfabric.common.topology.Topology;
import io.pfabric.testsupport.Await;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A controller daemon against scripted hosts on loopback sockets: SYN grants every slot a host asks for, one per slot
 * per source and destination, with cumulative totals and heartbeats; a forged demand grants nothing; ASY's rates keep
 * every host link within capacity.
 */
@Timeout(60)
class ControllerDaemonTest
{
    private static final byte[] KEY = "controller daemon test key, 32 b".getBytes(StandardCharsets.UTF_8);
    private static final long RATE_BPS = 100_000_000L;
    private static final int HOSTS = 3;

    private final List<ControlChannel> hostChannels = new ArrayList<>();
    private final List<ControlInbox> inboxes = new ArrayList<>();
    private final ControlAuthenticator key = new ControlAuthenticator(KEY);
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[ControlMessageFlyweight.MAX_MESSAGE_LENGTH]);
    private final ControlMessageFlyweight message = new ControlMessageFlyweight();
    private ControllerDaemon controller;

    private void start(final ControlMode mode) throws Exception
    {
        final Topology topology = Topologies.star(HOSTS, "", RATE_BPS, "pfabric");
        final List<InetSocketAddress> addresses = new ArrayList<>();
        for (int i = 0; i < HOSTS; i++)
        {
            final ControlChannel channel =
                ControlChannel.open(new InetSocketAddress("127.0.0.1", 0), NettyTransport.EPOLL);
            hostChannels.add(channel);
            addresses.add(channel.localAddress());
            inboxes.add(ControlInbox.forHost(key, i));
        }
        controller = ControllerDaemon.start(new ControllerConfiguration.Context()
            .mode(mode).topology(topology).key(KEY).listen(new InetSocketAddress("127.0.0.1", 0))
            .hostAddresses(addresses));
    }

    @AfterEach
    void tearDown()
    {
        if (null != controller)
        {
            controller.close();
        }
        hostChannels.forEach(ControlChannel::close);
    }

    private void send(final ControlAuthenticator signer, final int type, final int host, final long sequence,
        final int peer, final long value)
    {
        message.wrap(buffer, 0).start(type, host, sequence, 1);
        message.appendEntry(peer, 0, 0, value);
        hostChannels.get(host).send(controller.localAddress(), buffer, 0, signer.sign(buffer, 0, message.bodyLength()));
    }

    @Test
    void synGrantsEverySlotAskedForOnePerSlotWithTotalsAndHeartbeats() throws Exception
    {
        start(ControlMode.SYN);
        final GrantLedger[] ledgers = { new GrantLedger(HOSTS), new GrantLedger(HOSTS), new GrantLedger(HOSTS) };
        ledgers[0].addDemand(2, 20);
        ledgers[1].addDemand(2, 20);
        send(new ControlAuthenticator("someone else's key, 32 bytes...".getBytes(StandardCharsets.UTF_8)),
            ControlMessageFlyweight.TYPE_DEMAND, 1, 1_000, 0, 1_000);
        final long[] grants = new long[HOSTS];
        final long[] messages = new long[HOSTS];
        final long[] clocks = new long[HOSTS];
        final List<Long> slotsToTwo = new ArrayList<>();
        final long[] sequence = { 0 };
        Await.await(() ->
        {
            sequence[0]++;
            for (int h = 0; h < 2; h++)
            {
                send(key, ControlMessageFlyweight.TYPE_DEMAND, h, sequence[0], 2, ledgers[h].demandTotal(2));
            }
            for (int h = 0; h < HOSTS; h++)
            {
                final int host = h;
                hostChannels.get(h).await((b, offset, length) ->
                {
                    if (ControlInbox.Outcome.ACCEPTED != inboxes.get(host).accept(b, offset, length, message))
                    {
                        return;
                    }
                    messages[host]++;
                    for (int i = 0; i < message.entryCount(); i++)
                    {
                        if (0 != (message.entryFlags(i) & ControlMessageFlyweight.FLAG_CLOCK))
                        {
                            assertEquals(0, i, "the clock comes first");
                            assertEquals(controller.slotNs(), message.entryExtra(i), "the slot length");
                            clocks[host]++;
                        }
                        else if (0 != (message.entryFlags(i) & ControlMessageFlyweight.FLAG_TOTAL))
                        {
                            ledgers[host].onGrantedTotal(2, message.entryValue(i));
                        }
                        else
                        {
                            assertEquals(2, message.entryPeer(i));
                            ledgers[host].onGrant(2);
                            grants[host]++;
                            slotsToTwo.add(message.entryValue(i));
                        }
                    }
                }, 100_000);
            }
            return grants[0] >= 20 && grants[1] >= 20 && messages[2] >= 20;
        }, Duration.ofSeconds(20), () -> "hosts 1 and 2 had 20 grants each and host 3 20 heartbeats (grants " +
            grants[0] + " and " + grants[1] + ", heartbeats " + messages[2] + "); " + controller.summary());
        final String summary = controller.summary();
        assertEquals(20, grants[0], summary);
        assertEquals(20, grants[1], summary);
        assertEquals(0, ledgers[0].outstanding(2), "every slot asked for was granted or found lost and asked again");
        assertEquals(0, grants[2], "the forged demand granted nothing");
        assertEquals(40, slotsToTwo.stream().distinct().count(), "one slot per destination per slot");
        assertTrue(messages[2] >= 20, "heartbeats to an idle host");
        assertArrayEquals(messages, clocks, "every GRANTS message names the slot clock");
        assertEquals(1, controller.inbox().unauthenticated());
        assertEquals(ledgers[0].lostGrants() + ledgers[1].lostGrants(), controller.counters().grantsDroppedLate(),
            "grants dropped late are found lost by the hosts\n" + summary);
    }

    @Test
    void aHostThatIsNotListeningDoesNotStopTheOthersMessages() throws Exception
    {
        final Topology topology = Topologies.star(HOSTS, "", RATE_BPS, "pfabric");
        final ControlChannel listening = ControlChannel.open(new InetSocketAddress("127.0.0.1", 0), NettyTransport.EPOLL);
        hostChannels.add(listening);
        final ControlChannel closed = ControlChannel.open(new InetSocketAddress("127.0.0.1", 0), NettyTransport.EPOLL);
        final InetSocketAddress nobody = closed.localAddress();
        closed.close();
        controller = ControllerDaemon.start(new ControllerConfiguration.Context()
            .mode(ControlMode.SYN).topology(topology).key(KEY).listen(new InetSocketAddress("127.0.0.1", 0))
            .hostAddresses(List.of(listening.localAddress(), nobody, nobody)));
        final long[] received = new long[1];
        Await.await(() ->
        {
            listening.poll((b, offset, length) -> received[0]++);
            return received[0] >= 10;
        }, Duration.ofSeconds(10), () -> "the listening host had 10 heartbeats, each sent before as many to the " +
            "unbound addresses (it had " + received[0] + "); " + controller.summary());
        final long before = received[0];
        Await.await(() ->
        {
            listening.poll((b, offset, length) -> received[0]++);
            return received[0] >= before + 10;
        }, Duration.ofSeconds(10), () -> "10 more heartbeats came after the sends to the unbound addresses (" +
            (received[0] - before) + " did); " + controller.summary());
    }

    @Test
    void asyRatesKeepEveryHostLinkWithinCapacity() throws Exception
    {
        start(ControlMode.ASY);
        final long[] sequence = { 0 };
        final long[] rateToTwo = new long[HOSTS];
        Await.await(() ->
        {
            sequence[0]++;
            send(key, ControlMessageFlyweight.TYPE_OFFER, 0, sequence[0], 2, RATE_BPS);
            send(key, ControlMessageFlyweight.TYPE_OFFER, 1, sequence[0], 2, RATE_BPS);
            for (int h = 0; h < 2; h++)
            {
                final int host = h;
                hostChannels.get(h).await((b, offset, length) ->
                {
                    if (ControlInbox.Outcome.ACCEPTED == inboxes.get(host).accept(b, offset, length, message))
                    {
                        for (int i = 0; i < message.entryCount(); i++)
                        {
                            if (2 == message.entryPeer(i))
                            {
                                rateToTwo[host] = message.entryValue(i);
                            }
                        }
                    }
                }, 200_000);
            }
            return 0 != rateToTwo[0] && 0 != rateToTwo[1];
        }, Duration.ofSeconds(10), () -> "hosts 1 and 2 both had a rate toward host 3; " + controller.summary());
        assertTrue(rateToTwo[0] + rateToTwo[1] <= RATE_BPS, rateToTwo[0] + " + " + rateToTwo[1]);
        assertEquals(RATE_BPS / 2, rateToTwo[0], RATE_BPS / 100);
        assertTrue(controller.counters().maxColumnRateBps() <= RATE_BPS);
    }
}
