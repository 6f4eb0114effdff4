package io.pfabric.controllerd;

import io.pfabric.common.control.ControlAuthenticator;
import io.pfabric.common.control.ControlChannel;
import io.pfabric.common.control.ControlInbox;
import io.pfabric.common.control.ControlMessageFlyweight;
import io.pfabric.common.control.ControlMode;
import io.pfabric.common.control.Timeslots;
import io.pfabric.common.packet.NettyTransport;
import io.pfabric.common.topology.Topologies;
import io.pfabric.controllerd.session.ControllerCounters;
import io.pfabric.controllerd.session.ControllerSession;
import io.pfabric.controllerd.session.SynControl;
import io.pfabric.testsupport.Await;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A flood of forged and malformed control messages from one source, against the SYN controller's duty cycle on
 * scripted time: each cycle takes at most one read batch ({@link ControlChannel#MAX_DATAGRAMS_PER_POLL}) from the
 * socket and then allocates and emits as it would without the flood, so the hosts that asked for slots get every
 * grant on time (none dropped late) while the flood is counted and dropped; a twin controller without the flood
 * allocates and sends exactly the same grants; the flood grants nothing to the host it impersonates and costs a
 * bounded number of bytes per datagram, none retained.
 */
@Timeout(60)
class ControllerFloodTest
{
    private static final byte[] KEY = "controller flood test key, 32 b.".getBytes(StandardCharsets.UTF_8);
    private static final long RATE_BPS = 100_000_000L;
    private static final int HOSTS = 3;
    private static final int FORGED = 60;
    private static final int MALFORMED = 60;
    /**
     * Netty's datagram read path leaves about 1.1 KB of garbage per datagram (packet, addresses, buffer handles);
     * nothing is retained, as the inbox keeps a fixed replay window per host.
     */
    private static final long BYTES_PER_DATAGRAM_BOUND = 2_048;
    private static final int CYCLES = 64;

    private final List<ControlChannel> hostChannels = new ArrayList<>();
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[ControlMessageFlyweight.MAX_MESSAGE_LENGTH]);
    private final ControlMessageFlyweight message = new ControlMessageFlyweight();

    private final List<ControllerSession> sessions = new ArrayList<>();
    private final long[] nowNs = { 0 };

    @AfterEach
    void tearDown()
    {
        sessions.forEach(ControllerSession::close);
        hostChannels.forEach(ControlChannel::close);
    }

    /**
     * A SYN controller on its own socket, its duty cycle run by the test on the test's clock.
     */
    private record Controller(ControllerSession session, ControllerCounters counters, ControllerAgent agent)
    {
    }

    private Controller controller(final ControllerConfiguration.Context context) throws Exception
    {
        final ControllerSession session =
            ControllerSession.open(context.listen(), context.transport(), context.key(), context.hostAddresses());
        sessions.add(session);
        final ControllerCounters counters = new ControllerCounters();
        final SynControl policy = new SynControl(session, counters, context.fabric(), context.metric(),
            context.batchSlots(), context.lookaheadBatches(), context.emitAheadSlots(), Timeslots.synSlotNs(RATE_BPS),
            context.heartbeatNs(), 0);
        return new Controller(session, counters, new ControllerAgent(session, policy, "syn", () -> nowNs[0]));
    }

    private int signedDemand(final ControlAuthenticator signer, final int host, final long sequence, final int peer,
        final long slots)
    {
        message.wrap(buffer, 0).start(ControlMessageFlyweight.TYPE_DEMAND, host, sequence, 1);
        message.appendEntry(peer, 0, 0, slots);
        return signer.sign(buffer, 0, message.bodyLength());
    }

    private static long judged(final ControlInbox inbox)
    {
        return inbox.accepted() + inbox.malformed() + inbox.unauthenticated() + inbox.duplicates() + inbox.stale();
    }

    @Test
    void aFloodCostsAtMostOneReadBatchPerDutyAndChangesNoGrant() throws Exception
    {
        final List<InetSocketAddress> addresses = new ArrayList<>();
        for (int i = 0; i < HOSTS; i++)
        {
            hostChannels.add(ControlChannel.open(new InetSocketAddress("127.0.0.1", 0), NettyTransport.EPOLL));
            addresses.add(hostChannels.get(i).localAddress());
        }
        final ControllerConfiguration.Context context = new ControllerConfiguration.Context()
            .mode(ControlMode.SYN).topology(Topologies.star(HOSTS, "", RATE_BPS, "pfabric")).key(KEY)
            .listen(new InetSocketAddress("127.0.0.1", 0)).hostAddresses(addresses).conclude();
        final Controller flooded = controller(context);
        final Controller quiet = controller(context);
        final ControlInbox inbox = flooded.session().inbox();

        final ControlAuthenticator key = new ControlAuthenticator(KEY);
        for (final Controller controller : List.of(flooded, quiet))
        {
            for (int h = 0; h < 2; h++)
            {
                hostChannels.get(h).send(controller.session().localAddress(), buffer, 0,
                    signedDemand(key, h, 1, 2, 1_000));
            }
            Await.await(() ->
            {
                controller.agent().doWork();
                return 2 == controller.session().inbox().accepted();
            }, Duration.ofSeconds(10), () -> "a controller took both hosts' demand");
        }

        final ControlAuthenticator forger =
            new ControlAuthenticator("not the controller's key, 32 b...".getBytes(StandardCharsets.UTF_8));
        final SplittableRandom random = new SplittableRandom(7);
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        try (DatagramChannel flooder = DatagramChannel.open())
        {
            flooder.bind(new InetSocketAddress("127.0.0.1", 0));
            for (int i = 0; i < FORGED; i++)
            {
                final int length = signedDemand(forger, 2, 1_000 + i, 0, 1_000_000);
                flooder.send(ByteBuffer.wrap(buffer.byteArray(), 0, length), flooded.session().localAddress());
                final byte[] junk = new byte[1 + random.nextInt(ControlMessageFlyweight.MAX_MESSAGE_LENGTH)];
                random.nextBytes(junk);
                flooder.send(ByteBuffer.wrap(junk), flooded.session().localAddress());
            }
        }

        final long slotNs = Timeslots.synSlotNs(RATE_BPS);
        for (int warmUp = 0; warmUp < 2; warmUp++)
        {
            for (int cycle = 0; cycle < CYCLES; cycle++)
            {
                quiet.agent().doWork();
            }
        }
        final long quietBeforeBytes = threads.getCurrentThreadAllocatedBytes();
        for (int cycle = 0; cycle < CYCLES; cycle++)
        {
            nowNs[0] += slotNs;
            quiet.agent().doWork();
        }
        final long quietBytes = threads.getCurrentThreadAllocatedBytes() - quietBeforeBytes;
        nowNs[0] -= CYCLES * slotNs;

        final long floodedBeforeBytes = threads.getCurrentThreadAllocatedBytes();
        final long judgedBefore = judged(inbox);
        int floodCycles = 0;
        for (int cycle = 0; cycle < CYCLES; cycle++)
        {
            nowNs[0] += slotNs;
            final long judgedBeforeCycle = judged(inbox);
            flooded.agent().doWork();
            final long taken = judged(inbox) - judgedBeforeCycle;
            assertTrue(taken <= ControlChannel.MAX_DATAGRAMS_PER_POLL, () -> "one cycle took " + taken + " datagrams");
            floodCycles += taken > 0 ? 1 : 0;
        }
        final long allocatedBytes = threads.getCurrentThreadAllocatedBytes() - floodedBeforeBytes - quietBytes;

        assertEquals(FORGED + MALFORMED, judged(inbox) - judgedBefore, "the whole flood was taken");
        final int cycles = floodCycles;
        assertTrue(cycles >= (FORGED + MALFORMED) / ControlChannel.MAX_DATAGRAMS_PER_POLL,
            "the flood took several cycles: " + cycles);
        assertEquals(FORGED, inbox.unauthenticated());
        assertEquals(MALFORMED, inbox.malformed());
        assertEquals(2, inbox.accepted(), "nothing of the flood was accepted");
        final ControllerCounters counters = flooded.counters();
        assertTrue(counters.grantsSent() > 0, "grants went out during the flood");
        assertEquals(quiet.counters().grantsAllocated(), counters.grantsAllocated(), "slots allocated, flood or not");
        assertEquals(quiet.counters().grantsSent(), counters.grantsSent(), "grants sent, flood or not");
        assertEquals(quiet.counters().grantMessagesSent(), counters.grantMessagesSent());
        assertEquals(quiet.counters().heartbeatsSent(), counters.heartbeatsSent());
        assertEquals(0, counters.grantsDroppedLate(), "no grant was late");
        assertEquals(0, counters.invalidEntries());
        assertTrue(allocatedBytes < BYTES_PER_DATAGRAM_BOUND * (FORGED + MALFORMED), () -> "the flooded " +
            "controller's cycles allocated " + allocatedBytes + " bytes more than the quiet one's over " +
            (FORGED + MALFORMED) + " flooded datagrams");

        final long[] grantsToImpersonated = { 0 };
        hostChannels.get(2).poll((b, offset, length) ->
        {
            final ControlInbox hostInbox = ControlInbox.forHost(key, 2);
            if (ControlInbox.Outcome.ACCEPTED == hostInbox.accept(b, offset, length, message))
            {
                for (int i = 0; i < message.entryCount(); i++)
                {
                    final int flags = message.entryFlags(i);
                    if (0 == (flags & (ControlMessageFlyweight.FLAG_CLOCK | ControlMessageFlyweight.FLAG_TOTAL)))
                    {
                        grantsToImpersonated[0]++;
                    }
                }
            }
        });
        assertEquals(0, grantsToImpersonated[0], "the host the flood impersonated was granted nothing");
    }
}
