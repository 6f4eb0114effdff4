package io.pfabric.sim.pdq;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * PDQ's sender on scripted time (PDQ §3.1): the test is the network, answering the packets the sender sends.
 */
class PdqSenderTest
{
    private static final long NIC_BITS_PER_SEC = 10_000_000_000L;
    private static final long RTT_NS = 20_000;
    private static final int OVERHEAD = 58;
    private static final int PAUSER = 7;

    private record Sent(long atNs, byte type, int sequence, int payloadLength, int rateKbps, int pausedBy,
        int deadlineUs, int expectedNs, int timestamp, int senderRttNs)
    {
    }

    private final UnsafeBuffer out = new UnsafeBuffer(new byte[2_048]);
    private final UnsafeBuffer in = new UnsafeBuffer(new byte[256]);
    private final PdqPacketFlyweight ack = new PdqPacketFlyweight().wrap(in, 0);
    private final List<Sent> sent = new ArrayList<>();
    private long nowNs;

    private final PdqSender.Transmitter wire = (sender, type, sequence, payloadLength, selector) ->
    {
        final PdqPacketFlyweight packet = new PdqPacketFlyweight().wrap(out, 0);
        packet.type(type).selector(selector).payloadLength(payloadLength).sequence(sequence);
        sender.writeHeader(nowNs, packet);
        sent.add(new Sent(nowNs, type, sequence, payloadLength, packet.rateKbps(), packet.pausedBy(),
            packet.deadlineField(), packet.expectedField(), packet.timestamp(), packet.senderRttNs()));
    };

    private static PdqSender sender(final String variant, final long sizeBytes, final long deadlineNs)
    {
        return new PdqSender(1, 2, sizeBytes, 0, deadlineNs, NIC_BITS_PER_SEC, OVERHEAD,
            PdqSettings.forScheme(variant, RTT_NS, false), 1);
    }

    /**
     * Answer a packet sent earlier, as its receiver would, with the path's decision.
     */
    private void answer(final PdqSender sender, final Sent packet, final long rateBitsPerSec, final int pausedBy,
        final long intervalNs)
    {
        ack.type(PdqPacketFlyweight.TYPE_ACK).selector(packet.type()).payloadLength(0).flowId(1)
            .sequence(packet.sequence()).timestamp(packet.timestamp()).rateKbps((int)(rateBitsPerSec / 1_000))
            .pausedBy(pausedBy).deadlineField((int)intervalNs).expectedField((int)RTT_NS);
        sender.onAck(nowNs, ack);
    }

    private void runUntil(final PdqSender sender, final long endNs)
    {
        while (true)
        {
            final long next = Math.max(nowNs, sender.nextDeadlineNs());
            if (next > endNs)
            {
                nowNs = endNs;
                return;
            }
            nowNs = next;
            sender.poll(nowNs, wire);
        }
    }

    private List<Sent> ofType(final byte type)
    {
        return sent.stream().filter(s -> s.type() == type).toList();
    }

    @Test
    void theSynCarriesTheSchedulingHeaderAndDataStartsOneRttLater()
    {
        final PdqSender sender = sender("pdq", 3 * PdqSender.SEGMENT_BYTES, 5_000_000);
        sender.start(nowNs, wire);
        final Sent syn = sent.get(0);
        assertEquals(PdqPacketFlyweight.TYPE_SYN, syn.type());
        assertEquals(NIC_BITS_PER_SEC / 1_000, syn.rateKbps(), "R_H = R_max");
        assertEquals(5_000, syn.deadlineUs(), "D_H = D_S");
        assertEquals((long)Math.ceil(8e9 * 3 * PdqSender.SEGMENT_BYTES / NIC_BITS_PER_SEC), syn.expectedNs(),
            "T_H = size / NIC rate");
        runUntil(sender, RTT_NS - 1);
        assertEquals(1, sent.size(), "nothing before the SYN's answer");

        nowNs = RTT_NS;
        answer(sender, syn, NIC_BITS_PER_SEC / 2, 0, RTT_NS);
        assertEquals(RTT_NS, sender.rttNs(), "RTT_S from the echoed timestamp");
        runUntil(sender, RTT_NS + 5_000);
        final List<Sent> data = ofType(PdqPacketFlyweight.TYPE_DATA);
        assertEquals(3, data.size());
        assertEquals(RTT_NS, data.get(0).atNs(), "data one RTT after the SYN");
        final long gapNs = (long)Math.ceil(8e9 * (PdqSender.SEGMENT_BYTES + PdqPacketFlyweight.HEADER_LENGTH +
            OVERHEAD) / (NIC_BITS_PER_SEC / 2));
        assertEquals(gapNs, data.get(1).atNs() - data.get(0).atNs(), "paced at R_S");

        for (final Sent segment : data)
        {
            answer(sender, segment, NIC_BITS_PER_SEC / 2, 0, RTT_NS);
        }
        assertEquals(nowNs, sender.completedNs(), "complete at the last byte's ACK");
        sender.poll(nowNs, wire);
        assertEquals(PdqPacketFlyweight.TYPE_TERM, sent.get(sent.size() - 1).type(), "then a TERM");
        assertFalse(sender.isDone(), "until the TERM is acknowledged");
        answer(sender, sent.get(sent.size() - 1), 0, 0, RTT_NS);
        assertTrue(sender.isDone());
    }

    @Test
    void departuresCarryTheSmallestRttMeasuredNotTheAverageTheQueuesRaise()
    {
        final PdqSender sender = sender("pdq", 20 * PdqSender.SEGMENT_BYTES, Long.MAX_VALUE);
        sender.start(nowNs, wire);
        assertEquals(0, sent.get(0).senderRttNs(), "nothing measured yet");
        nowNs = RTT_NS;
        answer(sender, sent.get(0), NIC_BITS_PER_SEC, 0, RTT_NS);
        runUntil(sender, RTT_NS + 2_000);
        final Sent first = ofType(PdqPacketFlyweight.TYPE_DATA).get(0);
        assertEquals(RTT_NS, first.senderRttNs());

        nowNs = first.atNs() + 4 * RTT_NS;
        answer(sender, first, NIC_BITS_PER_SEC, 0, RTT_NS);
        assertTrue(sender.rttNs() > RTT_NS, "RTT_S, the EWMA, takes in the queue: " + sender.rttNs());
        sent.clear();
        runUntil(sender, nowNs + 2_000);
        assertFalse(sent.isEmpty());
        for (final Sent packet : sent)
        {
            assertEquals(RTT_NS, packet.senderRttNs(), "the header keeps the smallest RTT");
        }
        assertEquals(RTT_NS, sender.minRttNs());
    }

    @Test
    void aPausedFlowProbesAtItsInterval()
    {
        final PdqSender sender = sender("pdq-full", 100 * PdqSender.SEGMENT_BYTES, Long.MAX_VALUE);
        sender.start(nowNs, wire);
        nowNs = RTT_NS;
        final long intervalNs = 3 * RTT_NS;
        answer(sender, sent.get(0), 0, PAUSER, intervalNs);
        assertEquals(PAUSER, sender.pausedBy(), "P_S from the header");
        assertEquals(intervalNs, sender.interProbeNs(), "I_S from the header");
        runUntil(sender, RTT_NS + 3 * intervalNs + 1);
        final List<Sent> probes = ofType(PdqPacketFlyweight.TYPE_PROBE);
        assertEquals(3, probes.size());
        for (int i = 0; i < probes.size(); i++)
        {
            assertEquals(RTT_NS + (i + 1) * intervalNs, probes.get(i).atNs(), "a probe every I_S");
            assertEquals(0, probes.get(i).payloadLength(), "a probe is headers only");
            assertEquals(PAUSER, probes.get(i).pausedBy(), "carrying P_S");
        }
        assertTrue(ofType(PdqPacketFlyweight.TYPE_DATA).isEmpty(), "no data while paused");

        answer(sender, probes.get(2), NIC_BITS_PER_SEC, 0, intervalNs);
        sender.poll(nowNs, wire);
        assertEquals(PdqPacketFlyweight.TYPE_DATA, sent.get(sent.size() - 1).type(), "accepted: data at once");
    }

    @Test
    void earlyTerminationEndsAFlowThatCannotMeetItsDeadline()
    {
        final long sizeBytes = 100 * PdqSender.SEGMENT_BYTES;
        final long lineRateNs = (long)Math.ceil(8e9 * sizeBytes / NIC_BITS_PER_SEC);
        final PdqSender late = sender("pdq-es-et", sizeBytes, lineRateNs - 1);
        sender(late);
        assertTrue(late.terminatedEarly(), "time + T_S past the deadline at the start: TERM at once");
        assertEquals(PdqPacketFlyweight.TYPE_TERM, sent.get(sent.size() - 1).type());
        assertEquals(-1, late.completedNs());

        sent.clear();
        nowNs = 0;
        final PdqSender paused = sender("pdq-es-et", PdqSender.SEGMENT_BYTES, 10 * RTT_NS);
        paused.start(nowNs, wire);
        nowNs = RTT_NS;
        answer(paused, sent.get(0), 0, PAUSER, RTT_NS);
        runUntil(paused, 9 * RTT_NS);
        assertFalse(paused.terminatedEarly(), "paused, but an RTT still fits before the deadline");
        runUntil(paused, 9 * RTT_NS + 1);
        assertTrue(paused.terminatedEarly(), "paused and time + RTT_S past the deadline: TERM");

        sent.clear();
        nowNs = 0;
        final PdqSender basic = sender("pdq-es", sizeBytes, lineRateNs - 1);
        basic.start(nowNs, wire);
        basic.poll(nowNs, wire);
        assertFalse(basic.terminatedEarly(), "without Early Termination it carries on");
    }

    private void sender(final PdqSender sender)
    {
        sender.start(nowNs, wire);
        sender.poll(nowNs, wire);
    }

    @Test
    void aTimeoutSendsTheUnacknowledgedSegmentsAgain()
    {
        final PdqSender sender = sender("pdq", 4 * PdqSender.SEGMENT_BYTES, Long.MAX_VALUE);
        sender.start(nowNs, wire);
        runUntil(sender, PdqSettings.RTO_NS);
        assertEquals(2, ofType(PdqPacketFlyweight.TYPE_SYN).size(), "a lost SYN is sent again after the RTO");
        assertEquals(1, sender.timeouts());
        answer(sender, sent.get(1), NIC_BITS_PER_SEC, 0, RTT_NS);
        final long openNs = nowNs;
        runUntil(sender, openNs + 10_000);
        final List<Sent> data = ofType(PdqPacketFlyweight.TYPE_DATA);
        assertEquals(4, data.size());
        answer(sender, data.get(0), NIC_BITS_PER_SEC, 0, RTT_NS);
        answer(sender, data.get(2), NIC_BITS_PER_SEC, 0, RTT_NS);
        final long lastAckNs = nowNs;
        runUntil(sender, lastAckNs + PdqSettings.RTO_NS - 1);
        assertEquals(4, ofType(PdqPacketFlyweight.TYPE_DATA).size(), "nothing before the RTO");
        runUntil(sender, lastAckNs + PdqSettings.RTO_NS + 5_000);
        final List<Sent> again = ofType(PdqPacketFlyweight.TYPE_DATA).subList(4, 6);
        assertEquals(1, again.get(0).sequence(), "the first hole");
        assertEquals(3, again.get(1).sequence(), "then the next, skipping what was acknowledged");
        assertEquals(2 * PdqSender.SEGMENT_BYTES, sender.retransmittedBytes());
    }
}
