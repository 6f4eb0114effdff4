package io.pfabric.common.control;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hosts and a controller exchanging signed messages over a network that loses 20%, duplicates 10% and reorders
 * everything in flight, while a forger injects messages under another key: every host still gets a grant for each
 * packet it has to send, and a host's rates never go back to an older value.
 */
class ControlProtocolTest
{
    private static final int HOSTS = 4;
    private static final int ROUNDS = 2_000;
    private static final int GRANTS_PER_PAIR_PER_ROUND = 3;

    private final Random random = new Random(42);
    private final List<byte[]> toController = new ArrayList<>();
    private final List<byte[]> toHosts = new ArrayList<>();

    private void transmit(final List<byte[]> network, final UnsafeBuffer buffer, final int length)
    {
        if (random.nextDouble() < 0.2)
        {
            return;
        }
        final byte[] datagram = Arrays.copyOf(buffer.byteArray(), length);
        network.add(datagram);
        if (random.nextDouble() < 0.1)
        {
            network.add(datagram.clone());
        }
    }

    private List<byte[]> deliver(final List<byte[]> network)
    {
        final List<byte[]> arriving = new ArrayList<>(network);
        network.clear();
        java.util.Collections.shuffle(arriving, random);
        return arriving;
    }

    @Test
    void everyPacketGetsItsGrantAndRatesNeverGoBack()
    {
        final ControlAuthenticator key = new ControlAuthenticator(ControlInboxTest.KEY);
        final ControlAuthenticator forgersKey =
            new ControlAuthenticator("the forger's own 32-byte key....".getBytes());
        final ControlMessageFlyweight message = new ControlMessageFlyweight();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[ControlMessageFlyweight.MAX_MESSAGE_LENGTH]);

        final long[][] packetsToSend = new long[HOSTS][HOSTS];
        final GrantLedger[] ledgers = new GrantLedger[HOSTS];
        final ControlInbox[] hostInboxes = new ControlInbox[HOSTS];
        final long[] hostSequences = new long[HOSTS];
        final long[][] appliedRates = new long[HOSTS][HOSTS];
        long totalPackets = 0;
        for (int h = 0; h < HOSTS; h++)
        {
            ledgers[h] = new GrantLedger(HOSTS);
            hostInboxes[h] = ControlInbox.forHost(key, h);
            for (int d = 0; d < HOSTS; d++)
            {
                if (d != h)
                {
                    packetsToSend[h][d] = 50 + random.nextInt(200);
                    ledgers[h].addDemand(d, packetsToSend[h][d]);
                    totalPackets += packetsToSend[h][d];
                }
            }
        }
        final ControlInbox controllerInbox = ControlInbox.forController(key, HOSTS);
        final long[][] demandTotal = new long[HOSTS][HOSTS];
        final long[][] grantedTotal = new long[HOSTS][HOSTS];
        long controllerSequence = 0;
        long nextSlot = 0;
        long sent = 0;
        long forged = 0;

        int round = 0;
        for (; round < ROUNDS && sent < totalPackets; round++)
        {
            for (int h = 0; h < HOSTS; h++)
            {
                message.wrap(buffer, 0).start(ControlMessageFlyweight.TYPE_DEMAND, h, ++hostSequences[h], 1);
                for (int d = 0; d < HOSTS; d++)
                {
                    if (d != h)
                    {
                        message.appendEntry(d, 0, 0, ledgers[h].demandTotal(d));
                    }
                }
                transmit(toController, buffer, key.sign(buffer, 0, message.bodyLength()));
            }
            message.wrap(buffer, 0).start(ControlMessageFlyweight.TYPE_DEMAND, 0, Long.MAX_VALUE, 2);
            message.appendEntry(1, 0, 0, 1_000_000);
            toController.add(Arrays.copyOf(buffer.byteArray(), forgersKey.sign(buffer, 0, message.bodyLength())));
            forged++;

            for (final byte[] datagram : deliver(toController))
            {
                final UnsafeBuffer received = new UnsafeBuffer(datagram);
                if (ControlInbox.Outcome.ACCEPTED == controllerInbox.accept(received, 0, datagram.length, message))
                {
                    final int from = message.host();
                    for (int i = 0; i < message.entryCount(); i++)
                    {
                        final int to = message.entryPeer(i);
                        demandTotal[from][to] = Math.max(demandTotal[from][to], message.entryValue(i));
                    }
                }
            }

            for (int h = 0; h < HOSTS; h++)
            {
                message.wrap(buffer, 0).start(ControlMessageFlyweight.TYPE_GRANTS, h, ++controllerSequence, 1);
                for (int d = 0; d < HOSTS; d++)
                {
                    final long grants = Math.min(GRANTS_PER_PAIR_PER_ROUND, demandTotal[h][d] - grantedTotal[h][d]);
                    for (int g = 0; g < grants; g++)
                    {
                        message.appendEntry(d, 0, 0, nextSlot++);
                    }
                    grantedTotal[h][d] += grants;
                    if (d != h)
                    {
                        message.appendEntry(d, 0, ControlMessageFlyweight.FLAG_TOTAL, grantedTotal[h][d]);
                    }
                }
                transmit(toHosts, buffer, key.sign(buffer, 0, message.bodyLength()));
                message.wrap(buffer, 0).start(ControlMessageFlyweight.TYPE_RATES, h, ++controllerSequence, 1);
                for (int d = 0; d < HOSTS; d++)
                {
                    message.appendEntry(d, 0, 0, 1_000L * round + d);
                }
                transmit(toHosts, buffer, key.sign(buffer, 0, message.bodyLength()));
            }

            for (final byte[] datagram : deliver(toHosts))
            {
                final UnsafeBuffer received = new UnsafeBuffer(datagram);
                final int h = new ControlMessageFlyweight().wrap(received, 0).host();
                if (h >= HOSTS ||
                    ControlInbox.Outcome.ACCEPTED != hostInboxes[h].accept(received, 0, datagram.length, message))
                {
                    continue;
                }
                if (ControlMessageFlyweight.TYPE_RATES == message.type())
                {
                    if (hostInboxes[h].newest())
                    {
                        for (int i = 0; i < message.entryCount(); i++)
                        {
                            final int d = message.entryPeer(i);
                            assertTrue(message.entryValue(i) >= appliedRates[h][d], "a rate went back");
                            appliedRates[h][d] = message.entryValue(i);
                        }
                    }
                    continue;
                }
                for (int i = 0; i < message.entryCount(); i++)
                {
                    final int d = message.entryPeer(i);
                    if (0 != (message.entryFlags(i) & ControlMessageFlyweight.FLAG_TOTAL))
                    {
                        ledgers[h].onGrantedTotal(d, message.entryValue(i));
                    }
                    else
                    {
                        ledgers[h].onGrant(d);
                        if (packetsToSend[h][d] > 0)
                        {
                            packetsToSend[h][d]--;
                            sent++;
                        }
                    }
                }
            }
        }

        assertEquals(totalPackets, sent, "every packet got a grant within " + ROUNDS + " rounds");
        for (int h = 0; h < HOSTS; h++)
        {
            assertArrayEquals(new long[HOSTS], packetsToSend[h]);
        }
        long lost = 0;
        for (final GrantLedger ledger : ledgers)
        {
            lost += ledger.lostGrants();
        }
        assertTrue(lost > 0, "some grants were lost and asked for again");
        assertEquals(forged, controllerInbox.unauthenticated(), "every forgery was refused");
        assertTrue(controllerInbox.duplicates() > 0, "duplicates were refused");
        assertTrue(round < ROUNDS);
    }
}
