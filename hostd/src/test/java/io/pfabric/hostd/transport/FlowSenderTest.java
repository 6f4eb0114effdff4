package io.pfabric.hostd.transport;

import io.pfabric.common.wire.PfabricHeaderFlyweight;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sender's rules, one by one, on scripted time.
 */
class FlowSenderTest
{
    private static final int MSS = 1460;
    private static final long TIMEOUT_NS = 45_000;
    private static final long[] NO_SACK = new long[0];

    private final OutboundPacket packet = new OutboundPacket();

    private static FlowSender sender(final long sizeBytes)
    {
        return new FlowSender(TransportConfiguration.PAPER, 7L << 32, 3, sizeBytes, 0, 0);
    }

    private List<Long> sendAll(final FlowSender sender, final long nowNs)
    {
        final List<Long> offsets = new ArrayList<>();
        while (sender.canSend())
        {
            sender.nextPacket(nowNs, packet);
            offsets.add(packet.offsetBytes());
        }
        return offsets;
    }

    private static void ack(final FlowSender sender, final long nowNs, final long cumulative, final long... sack)
    {
        final long[] starts = new long[sack.length / 2];
        final long[] ends = new long[sack.length / 2];
        for (int i = 0; i < starts.length; i++)
        {
            starts[i] = sack[2 * i];
            ends[i] = sack[2 * i + 1];
        }
        sender.onAck(nowNs, cumulative, starts.length, starts, ends);
    }

    @Test
    void aNewFlowSendsItsInitialWindowAtOnce()
    {
        final FlowSender sender = sender(100L * MSS);
        final List<Long> offsets = sendAll(sender, 0);
        assertEquals(12, offsets.size());
        for (int i = 0; i < 12; i++)
        {
            assertEquals((long)i * MSS, offsets.get(i));
        }
        assertEquals(12, sender.inFlightPackets());
        assertTrue(sender.isTimerArmed());
        assertEquals(TIMEOUT_NS, sender.timeoutDeadlineNs());
    }

    @Test
    void aShortFlowSendsAllItHasAndMarksTheLastSegment()
    {
        final FlowSender sender = sender(2 * MSS + 100);
        sender.nextPacket(0, packet);
        sender.nextPacket(0, packet);
        assertFalse(packet.fin());
        sender.nextPacket(0, packet);
        assertTrue(packet.fin());
        assertEquals(100, packet.payloadLength());
        assertEquals(2L * MSS, packet.offsetBytes());
        assertFalse(sender.canSend());
    }

    @Test
    void eachAckOfNewDataGrowsTheWindowByOneUpToTheCap()
    {
        final FlowSender sender = sender(1000L * MSS);
        sendAll(sender, 0);
        for (int i = 1; i <= 11; i++)
        {
            ack(sender, 1_000, (long)i * MSS);
            assertEquals(12 + i, sender.windowPackets(), 1e-9);
        }
        ack(sender, 1_000, 12L * MSS);
        assertEquals(23, sender.windowPackets(), 1e-9, "capped at 23");
        assertEquals(23, sendAll(sender, 1_000).size(), "the window is full again");
    }

    @Test
    void anAckThatAcknowledgesNothingNewDoesNotGrowTheWindow()
    {
        final FlowSender sender = sender(100L * MSS);
        sendAll(sender, 0);
        ack(sender, 1_000, MSS);
        ack(sender, 2_000, MSS);
        assertEquals(13, sender.windowPackets(), 1e-9);
    }

    @Test
    void aboveTheSlowStartThresholdTheWindowGrowsByOneOverTheWindow()
    {
        final FlowSender sender = sender(1000L * MSS);
        sendAll(sender, 0);
        ack(sender, 1_000, 4L * MSS);
        sender.onTimeout(TIMEOUT_NS + 1_000);
        assertEquals(6.5, sender.slowStartThresholdPackets(), 1e-9, "half of 13: one ACK grew 12 to 13");
        assertEquals(1, sender.windowPackets(), 1e-9);
        long acked = 4L * MSS;
        long now = 100_000;
        while (sender.windowPackets() < sender.slowStartThresholdPackets())
        {
            sendAll(sender, now);
            acked += MSS;
            ack(sender, now, acked);
        }
        assertEquals(7, sender.windowPackets(), 1e-9, "slow start: 1, 2, ... 7");
        sendAll(sender, now);
        acked += MSS;
        ack(sender, now, acked);
        assertEquals(7 + 1.0 / 7, sender.windowPackets(), 1e-9);
    }

    @Test
    void aTimeoutHalvesTheThresholdClosesTheWindowAndResendsFromTheFirstUnackedSkippingSacked()
    {
        final FlowSender sender = sender(100L * MSS);
        sendAll(sender, 0);
        ack(sender, 5_000, 2L * MSS, 4L * MSS, 6L * MSS, 8L * MSS, 9L * MSS);
        assertEquals(13, sender.windowPackets(), 1e-9);
        assertEquals(5_000 + TIMEOUT_NS, sender.timeoutDeadlineNs(), "restarted by the new ACK");

        sender.onTimeout(5_000 + TIMEOUT_NS);
        assertEquals(1, sender.timeouts());
        assertEquals(6.5, sender.slowStartThresholdPackets(), 1e-9);
        assertEquals(1, sender.windowPackets(), 1e-9);
        assertEquals(0, sender.inFlightPackets());

        final List<Long> resent = new ArrayList<>();
        long now = 60_000;
        while (resent.size() < 8)
        {
            final List<Long> offsets = sendAll(sender, now);
            resent.addAll(offsets);
            for (final long offset : offsets)
            {
                ack(sender, now, 2L * MSS, offset, offset + MSS);
            }
            now += 10_000;
        }
        assertEquals(List.of(2L * MSS, 3L * MSS, 6L * MSS, 7L * MSS, 9L * MSS, 10L * MSS, 11L * MSS, 12L * MSS),
            resent.subList(0, 8), "segments 4, 5 and 8 were SACKed and are skipped");
        assertTrue(sender.retransmittedBytes() >= 7L * MSS);
    }

    @Test
    void theFifthConsecutiveTimeoutEntersProbeModeAndTheFirstAckLeavesIt()
    {
        final FlowSender sender = sender(100L * MSS);
        long now = 0;
        for (int i = 1; i <= 4; i++)
        {
            sendAll(sender, now);
            now = sender.timeoutDeadlineNs();
            sender.onTimeout(now);
            assertFalse(sender.inProbeMode(), "not after " + i + " timeouts");
            assertEquals(1, sender.windowPackets(), 1e-9);
        }
        sendAll(sender, now);
        now = sender.timeoutDeadlineNs();
        sender.onTimeout(now);
        assertTrue(sender.inProbeMode());
        assertEquals(5, sender.consecutiveTimeouts());

        assertTrue(sender.canSend());
        sender.nextPacket(now, packet);
        assertEquals(PfabricHeaderFlyweight.TYPE_PROBE, packet.type());
        assertEquals(1, packet.payloadLength());
        assertEquals(0, packet.offsetBytes());
        assertFalse(sender.canSend(), "one probe per timeout");
        assertEquals(now + TIMEOUT_NS, sender.timeoutDeadlineNs());

        now += TIMEOUT_NS;
        sender.onTimeout(now);
        assertTrue(sender.inProbeMode());
        assertTrue(sender.canSend(), "the next probe is due");
        sender.nextPacket(now, packet);
        assertEquals(PfabricHeaderFlyweight.TYPE_PROBE, packet.type());

        sender.onAck(now + 1_000, 0, 0, NO_SACK, NO_SACK);
        assertFalse(sender.inProbeMode());
        assertEquals(0, sender.consecutiveTimeouts());
        assertTrue(sender.canSend());
        sender.nextPacket(now + 1_000, packet);
        assertEquals(PfabricHeaderFlyweight.TYPE_DATA, packet.type());
        assertEquals(0, packet.offsetBytes());
        assertFalse(sender.canSend(), "slow start from a window of 1");
    }

    @Test
    void thePriorityIsTheRemainingSizePacketByPacket()
    {
        final long size = 20L * MSS;
        final FlowSender sender = sender(size);
        sender.nextPacket(0, packet);
        assertEquals(size, packet.priority());
        sender.nextPacket(0, packet);
        assertEquals(size, packet.priority(), "sending alone does not lower it");
        ack(sender, 1_000, MSS);
        sender.nextPacket(1_000, packet);
        assertEquals(size - MSS, packet.priority());
        ack(sender, 2_000, MSS, 5L * MSS, 8L * MSS);
        sender.nextPacket(2_000, packet);
        assertEquals(size - 4L * MSS, packet.priority(), "SACKed bytes count as delivered");
    }

    @Test
    void otherPoliciesGiveTheFlowSizeOrTheDeadline()
    {
        final FlowSender bySize = new FlowSender(
            TransportConfiguration.PAPER.withPriorityPolicy(PriorityPolicy.FLOW_SIZE), 1, 2, 10L * MSS, 0, 0);
        bySize.nextPacket(0, packet);
        ack(bySize, 1_000, 5L * MSS);
        bySize.nextPacket(1_000, packet);
        assertEquals(10L * MSS, packet.priority());
        final FlowSender byDeadline = new FlowSender(
            TransportConfiguration.PAPER.withPriorityPolicy(PriorityPolicy.DEADLINE), 1, 2, 10L * MSS, 0, 777);
        byDeadline.nextPacket(0, packet);
        assertEquals(777, packet.priority());
        assertTrue(packet.deadline(), "a deadline priority carries the DEADLINE flag");
    }

    @Test
    void bytesSentCountsEachByteOnceBeforeThePacket()
    {
        final FlowSender sender = new FlowSender(
            TransportConfiguration.PAPER.withPriorityPolicy(PriorityPolicy.BYTES_SENT), 1, 2, 20L * MSS, 0, 0);
        final List<Long> priorities = new ArrayList<>();
        while (sender.canSend())
        {
            sender.nextPacket(0, packet);
            priorities.add(packet.priority());
        }
        assertEquals(12, priorities.size());
        for (int i = 0; i < 12; i++)
        {
            assertEquals((long)i * MSS, priorities.get(i));
        }
        sender.onTimeout(TIMEOUT_NS);
        sender.nextPacket(TIMEOUT_NS, packet);
        assertEquals(0, packet.offsetBytes(), "the retransmission of the first segment");
        assertEquals(12L * MSS, packet.priority(), "a retransmission counts no byte twice");
    }

    @Test
    void underTheDeadlinePolicyAFlowWithoutADeadlineKeepsItsRemainingSizeAndNoFlag()
    {
        final FlowSender sender = new FlowSender(
            TransportConfiguration.PAPER.withPriorityPolicy(PriorityPolicy.DEADLINE), 1, 2, 10L * MSS, 0, 0);
        sender.nextPacket(0, packet);
        assertEquals(10L * MSS, packet.priority());
        assertFalse(packet.deadline());
        assertFalse(sender.isDeadlineClass());
    }

    @Test
    void aDeadlineCountsFromTheEpochInWholeMicrosecondsRoundedUp()
    {
        final FlowSender sender = new FlowSender(
            TransportConfiguration.PAPER.withPriorityPolicy(PriorityPolicy.DEADLINE), 1, 2, 10L * MSS, 5_000_000, 0)
            .deadline(1_000_001, 2_000_000, 10_000_000_000L);
        assertEquals(4_001, sender.deadlineUs(), "(5 ms + 1.000001 ms - 2 ms) in us, rounded up");
        assertEquals(1_000_001, sender.deadlineNs());
        sender.nextPacket(5_000_000, packet);
        assertEquals(4_001, packet.priority());
        assertTrue(packet.deadline());
    }

    @Test
    void aDeadlineFlowThatCannotFinishInTimeAtLineRateIsDemotedForGood()
    {
        final long size = 100L * MSS;
        final long lineRateNs = size * 8 / 10;
        final FlowSender sender = new FlowSender(
            TransportConfiguration.PAPER.withPriorityPolicy(PriorityPolicy.DEADLINE), 1, 2, size, 0, 0)
            .deadline(lineRateNs + 1_000, 0, 10_000_000_000L);
        sender.nextPacket(1_000, packet);
        assertTrue(packet.deadline(), "just in time: the whole flow at line rate ends at the deadline");
        assertEquals(Math.ceilDiv(lineRateNs + 1_000, 1_000), packet.priority());
        sender.nextPacket(1_001, packet);
        assertFalse(packet.deadline(), "a nanosecond later it cannot make it");
        assertEquals(PfabricHeaderFlyweight.MAX_PRIORITY, packet.priority());
        assertTrue(sender.isDemoted());
        ack(sender, 2_000, 99L * MSS);
        sender.nextPacket(2_000, packet);
        assertEquals(PfabricHeaderFlyweight.MAX_PRIORITY, packet.priority(), "demotion is for good");
        assertFalse(packet.deadline());
    }

    @Test
    void otherPoliciesIgnoreADeadline()
    {
        final FlowSender sender = new FlowSender(TransportConfiguration.PAPER, 1, 2, 10L * MSS, 0, 0)
            .deadline(1, 0, 10_000_000_000L);
        sender.nextPacket(1_000, packet);
        assertEquals(10L * MSS, packet.priority());
        assertFalse(packet.deadline());
        assertFalse(sender.isDemoted() && sender.isDeadlineClass());
    }

    @Test
    void lineRateHasNoWindowAndNoProbeMode()
    {
        final FlowSender sender =
            new FlowSender(TransportConfiguration.PAPER.withLineRate(), 1, 2, 100L * MSS, 0, 0);
        assertEquals(100, sendAll(sender, 0).size());
        long now = 0;
        for (int i = 0; i < 8; i++)
        {
            now = sender.timeoutDeadlineNs();
            sender.onTimeout(now);
            assertFalse(sender.inProbeMode());
            assertEquals(100, sendAll(sender, now).size(), "everything unacknowledged goes again");
        }
    }

    @Test
    void theFlowCompletesWhenEveryByteIsAcknowledged()
    {
        final FlowSender sender = sender(3L * MSS);
        sendAll(sender, 0);
        ack(sender, 5_000, MSS, 2L * MSS, 3L * MSS);
        assertFalse(sender.isComplete());
        ack(sender, 6_000, 3L * MSS);
        assertTrue(sender.isComplete());
        assertEquals(6_000, sender.completedNs());
        assertFalse(sender.isTimerArmed());
        assertFalse(sender.canSend());
    }

    @Test
    void aReceiverIncarnationThatChangesAfterBytesWereAcknowledgedMeansTheReceiverRestarted()
    {
        final FlowSender sender = sender(10L * MSS);
        assertEquals(FlowSender.NO_INCARNATION, sender.receiverIncarnation());
        sendAll(sender, 0);
        assertFalse(sender.receiverRestarted(5), "the first ACK's incarnation is recorded");
        ack(sender, 1_000, 2L * MSS);
        assertEquals(5, sender.receiverIncarnation());
        assertFalse(sender.receiverRestarted(5), "the same start");
        assertTrue(sender.receiverRestarted(6), "another start after 2 segments were acknowledged");
        assertEquals(5, sender.receiverIncarnation(), "the flow's receiver stays the first one");
    }

    @Test
    void aReceiverThatRestartsBeforeAcknowledgingAnythingIsFollowed()
    {
        final FlowSender sender = sender(10L * MSS);
        sendAll(sender, 0);
        assertFalse(sender.receiverRestarted(5));
        ack(sender, 1_000, 0);
        assertEquals(0, sender.ackedBytes(), "an ACK that acknowledges nothing (a probe's)");
        assertFalse(sender.receiverRestarted(6), "nothing acknowledged, nothing lost: the flow goes on");
        assertEquals(6, sender.receiverIncarnation());
        ack(sender, 2_000, 10L * MSS);
        assertTrue(sender.isComplete());
    }
}
