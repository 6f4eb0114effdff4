package io.pfabric.sim.pdq;

/**
 * A PDQ flow's sender (PDQ §3.1), on time passed in: R_S, the rate the path granted (0 while paused); P_S, the link
 * that paused it; D_S, its deadline; T_S, its expected transmission time, the remaining bytes at the NIC's rate;
 * I_S, the interval between probes while paused; RTT_S, an EWMA (gain 1/8) of the RTTs its ACKs measure.
 * <p>
 * The RTT a departure's header carries, which the links use for Early Start (T_i / RTT_i &lt; K), dampening, the rate
 * controller's interval and Suppressed Probing, is the smallest RTT the flow has measured rather than RTT_S. The EWMA
 * includes the queues, and at load 0.8 on the paper's fabric it was twice the fabric's RTT: Early Start then counted
 * as nearly done flows four fabric RTTs from their end and admitted the next flows beside them, whose traffic queued
 * and raised the RTTs further (a 6,000-flow web-search run: small flows' mean normalized FCT 4.48, 3.57 with the
 * smallest RTT).
 * <p>
 * It opens with a SYN that carries the scheduling header, so data starts one RTT later if the path grants a rate. It
 * paces data segments at R_S, one ACK per packet; while paused it sends a probe every I_S; each ACK sets R_S, P_S and
 * I_S from the header, T_S from the bytes acknowledged and RTT_S from the echoed timestamp. Every departure carries
 * R_H = the NIC's rate and the sender's P_S, D_S and T_S. After a timeout (the RTO, 200 us by default) with data
 * unacknowledged it goes back to the first unacknowledged segment; a lost SYN is sent again. When every byte is
 * acknowledged the flow is complete and a TERM tells the links to forget it, sent again after the RTO until
 * acknowledged (spraying sends one over each path). With Early Termination a deadline flow ends with a TERM, and
 * never completes, as soon as the time is past its deadline, or the time plus T_S is, or it is paused and the time
 * plus RTT_S is.
 */
public final class PdqSender
{
    /**
     * Sends what the sender decides: the caller writes the packet, with {@link #writeHeader}, and puts it on the wire.
     */
    public interface Transmitter
    {
        /**
         * Send a packet of the sender's flow.
         *
         * @param sender        the sender.
         * @param type          {@link PdqPacketFlyweight#TYPE_SYN}, DATA, PROBE or TERM.
         * @param sequence      the data segment, or the path of a TERM's copy.
         * @param payloadLength payload bytes, 0 but for data.
         * @param selector      0, or the path asked for plus one.
         */
        void transmit(PdqSender sender, byte type, int sequence, int payloadLength, int selector);
    }

    /**
     * Payload bytes of a full segment.
     */
    public static final int SEGMENT_BYTES = 1_460;

    private static final int STATE_SYN_SENT = 0;
    private static final int STATE_OPEN = 1;
    private static final int STATE_ENDING = 2;
    private static final int STATE_DONE = 3;
    private static final int MAX_TERM_SENDS = 16;

    private final long flowId;
    private final int destinationHost;
    private final long sizeBytes;
    private final int segments;
    private final long startNs;
    private final long deadlineNs;
    private final long nicRateBitsPerSec;
    private final int frameOverheadBytes;
    private final PdqSettings settings;
    private final int termCopies;
    private final long[] acked;
    private int state = STATE_SYN_SENT;
    private long rateBitsPerSec;
    private int pausedBy;
    private long interProbeNs;
    private long rttNs;
    private long minRttNs;
    private long ackedBytes;
    private int ackedSegments;
    private int firstUnacked;
    private int nextSequence;
    private int sentUpTo;
    private long nextSendNs;
    private long nextProbeNs = Long.MAX_VALUE;
    private long rtoDeadlineNs = Long.MAX_VALUE;
    private boolean termPending;
    private long termAcked;
    private int termSends;
    private int timeouts;
    private long retransmittedBytes;
    private long completedNs = -1;
    private boolean terminatedEarly;

    /**
     * A flow about to open.
     *
     * @param flowId             the flow's id.
     * @param destinationHost    its receiver.
     * @param sizeBytes          its bytes, at least 1.
     * @param startNs            when it starts.
     * @param deadlineNs         its absolute deadline, or {@link Long#MAX_VALUE} for none.
     * @param nicRateBitsPerSec  R_max, the NIC's rate.
     * @param frameOverheadBytes bytes a frame takes on the wire beyond the PDQ packet (Ethernet, IPv4, FCS, gap).
     * @param settings           the variant.
     * @param termCopies         TERMs to send, one per path when spraying, else 1.
     */
    public PdqSender(final long flowId, final int destinationHost, final long sizeBytes, final long startNs,
        final long deadlineNs, final long nicRateBitsPerSec, final int frameOverheadBytes, final PdqSettings settings,
        final int termCopies)
    {
        if (sizeBytes < 1 || termCopies < 1 || termCopies > Long.SIZE)
        {
            throw new IllegalArgumentException("a PDQ flow needs a byte and 1 to 64 TERM copies");
        }
        this.flowId = flowId;
        this.destinationHost = destinationHost;
        this.sizeBytes = sizeBytes;
        this.segments = (int)((sizeBytes + SEGMENT_BYTES - 1) / SEGMENT_BYTES);
        this.startNs = startNs;
        this.deadlineNs = deadlineNs;
        this.nicRateBitsPerSec = nicRateBitsPerSec;
        this.frameOverheadBytes = frameOverheadBytes;
        this.settings = settings;
        this.termCopies = termCopies;
        this.acked = new long[(segments + Long.SIZE - 1) / Long.SIZE];
        this.interProbeNs = settings.probeIntervalNs() > 0 ? settings.probeIntervalNs() : settings.initialRttNs();
    }

    /**
     * Open the flow: send the SYN.
     *
     * @param nowNs       the time.
     * @param transmitter where packets go.
     */
    public void start(final long nowNs, final Transmitter transmitter)
    {
        transmitter.transmit(this, PdqPacketFlyweight.TYPE_SYN, 0, 0, 0);
        rtoDeadlineNs = nowNs + settings.rtoNs();
    }

    /**
     * Write the scheduling header a departing packet carries: R_H = R_max, P_H = P_S, D_H = D_S, T_H = T_S, with the
     * timestamp its ACK echoes and RTT_S.
     *
     * @param nowNs  the time.
     * @param packet the packet, its type and payload length already set.
     */
    public void writeHeader(final long nowNs, final PdqPacketFlyweight packet)
    {
        packet.flowId(flowId)
            .timestamp((int)nowNs)
            .senderRttNs(PdqPacketFlyweight.saturate(minRttNs))
            .rateKbps(PdqPacketFlyweight.saturate(nicRateBitsPerSec / 1_000))
            .pausedBy(pausedBy)
            .deadlineField(Long.MAX_VALUE == deadlineNs ? 0 : Math.max(1, PdqPacketFlyweight.saturate(deadlineNs / 1_000)))
            .expectedField(PdqPacketFlyweight.saturate(expectedNs()));
    }

    /**
     * Take an ACK.
     *
     * @param nowNs the time.
     * @param ack   the ACK.
     */
    public void onAck(final long nowNs, final PdqPacketFlyweight ack)
    {
        final long sampleNs = (int)nowNs - ack.timestamp();
        if (sampleNs > 0)
        {
            rttNs = 0 == rttNs ? sampleNs : rttNs + (sampleNs - rttNs) / 8;
            minRttNs = 0 == minRttNs ? sampleNs : Math.min(minRttNs, sampleNs);
        }
        final int answered = ack.selector();
        if (state >= STATE_ENDING)
        {
            if (PdqPacketFlyweight.TYPE_TERM == answered && ack.sequence() >= 0 && ack.sequence() < termCopies)
            {
                termAcked |= 1L << ack.sequence();
                if (Long.bitCount(termAcked) == termCopies)
                {
                    state = STATE_DONE;
                    rtoDeadlineNs = Long.MAX_VALUE;
                }
            }
            return;
        }
        if (PdqPacketFlyweight.TYPE_DATA == answered)
        {
            markAcked(ack.sequence());
        }
        if (STATE_SYN_SENT == state && PdqPacketFlyweight.TYPE_SYN != answered)
        {
            return;
        }
        final boolean wasSending = rateBitsPerSec > 0;
        final boolean opened = STATE_SYN_SENT == state;
        state = STATE_OPEN;
        rateBitsPerSec = PdqLinkController.kbpsToBits(ack.rateKbps());
        pausedBy = ack.pausedBy();
        if (ack.deadlineField() > 0)
        {
            interProbeNs = ack.deadlineField();
        }
        if (ackedSegments == segments)
        {
            completedNs = nowNs;
            end();
            return;
        }
        if (rateBitsPerSec > 0 && (!wasSending || opened))
        {
            nextSendNs = nowNs;
        }
        if (0 == rateBitsPerSec && (wasSending || opened))
        {
            nextProbeNs = nowNs + interProbeNs;
        }
        if (opened || PdqPacketFlyweight.TYPE_DATA == answered)
        {
            rtoDeadlineNs = ackedSegments < sentUpTo ? nowNs + settings.rtoNs() : Long.MAX_VALUE;
        }
    }

    /**
     * Do what is due: Early Termination, a timeout, data at R_S, a probe, a TERM.
     *
     * @param nowNs       the time.
     * @param transmitter where packets go.
     * @return packets sent.
     */
    public int poll(final long nowNs, final Transmitter transmitter)
    {
        if (state < STATE_ENDING && settings.earlyTermination() && cannotMeetDeadline(nowNs))
        {
            terminatedEarly = true;
            end();
        }
        int sent = 0;
        if (rtoDeadlineNs <= nowNs)
        {
            sent += onTimeout(nowNs, transmitter);
        }
        if (termPending)
        {
            termPending = false;
            sent += sendTerms(nowNs, transmitter);
        }
        if (STATE_OPEN != state)
        {
            return sent;
        }
        if (rateBitsPerSec > 0)
        {
            if (nextSendNs <= nowNs)
            {
                final int sequence = nextUnsent();
                if (sequence >= 0)
                {
                    final int payload = payloadOf(sequence);
                    if (sequence < sentUpTo)
                    {
                        retransmittedBytes += payload;
                    }
                    transmitter.transmit(this, PdqPacketFlyweight.TYPE_DATA, sequence, payload, 0);
                    sent++;
                    nextSequence = sequence + 1;
                    sentUpTo = Math.max(sentUpTo, nextSequence);
                    final long gapNs = (long)Math.ceil(
                        8e9 * (payload + PdqPacketFlyweight.HEADER_LENGTH + frameOverheadBytes) / rateBitsPerSec);
                    nextSendNs = Math.max(nextSendNs, nowNs - gapNs) + gapNs;
                    if (Long.MAX_VALUE == rtoDeadlineNs)
                    {
                        rtoDeadlineNs = nowNs + settings.rtoNs();
                    }
                }
            }
        }
        else if (nextProbeNs <= nowNs)
        {
            transmitter.transmit(this, PdqPacketFlyweight.TYPE_PROBE, 0, 0, 0);
            sent++;
            nextProbeNs = nowNs + interProbeNs;
        }
        return sent;
    }

    /**
     * When something is next due without new input.
     *
     * @return nanoseconds, or {@link Long#MAX_VALUE}.
     */
    public long nextDeadlineNs()
    {
        if (termPending)
        {
            return Long.MIN_VALUE;
        }
        long next = rtoDeadlineNs;
        if (STATE_OPEN == state)
        {
            if (rateBitsPerSec > 0)
            {
                if (nextUnsent() >= 0)
                {
                    next = Math.min(next, nextSendNs);
                }
            }
            else
            {
                next = Math.min(next, nextProbeNs);
            }
        }
        if (state < STATE_ENDING && settings.earlyTermination() && Long.MAX_VALUE != deadlineNs)
        {
            long endNs = Math.min(deadlineNs, deadlineNs - expectedNs()) + 1;
            if (0 == rateBitsPerSec)
            {
                endNs = Math.min(endNs, deadlineNs - effectiveRttNs() + 1);
            }
            next = Math.min(next, endNs);
        }
        return next;
    }

    private boolean cannotMeetDeadline(final long nowNs)
    {
        if (Long.MAX_VALUE == deadlineNs)
        {
            return false;
        }
        return nowNs > deadlineNs || nowNs + expectedNs() > deadlineNs ||
            (0 == rateBitsPerSec && nowNs + effectiveRttNs() > deadlineNs);
    }

    private int onTimeout(final long nowNs, final Transmitter transmitter)
    {
        if (STATE_DONE == state)
        {
            rtoDeadlineNs = Long.MAX_VALUE;
            return 0;
        }
        timeouts++;
        if (STATE_SYN_SENT == state)
        {
            transmitter.transmit(this, PdqPacketFlyweight.TYPE_SYN, 0, 0, 0);
            rtoDeadlineNs = nowNs + settings.rtoNs();
            return 1;
        }
        if (STATE_ENDING == state)
        {
            timeouts--;
            termPending = false;
            return sendTerms(nowNs, transmitter);
        }
        nextSequence = firstUnacked;
        rtoDeadlineNs = Long.MAX_VALUE;
        return 0;
    }

    private void end()
    {
        state = STATE_ENDING;
        termPending = true;
        rateBitsPerSec = 0;
    }

    private int sendTerms(final long nowNs, final Transmitter transmitter)
    {
        if (termSends++ >= MAX_TERM_SENDS)
        {
            state = STATE_DONE;
            rtoDeadlineNs = Long.MAX_VALUE;
            return 0;
        }
        int sent = 0;
        for (int path = 0; path < termCopies; path++)
        {
            if (0 == (termAcked & (1L << path)))
            {
                transmitter.transmit(this, PdqPacketFlyweight.TYPE_TERM, path, 0, termCopies > 1 ? path + 1 : 0);
                sent++;
            }
        }
        rtoDeadlineNs = nowNs + settings.rtoNs();
        return sent;
    }

    private void markAcked(final int sequence)
    {
        if (sequence < 0 || sequence >= segments)
        {
            return;
        }
        final long bit = 1L << (sequence & (Long.SIZE - 1));
        final int word = sequence >>> 6;
        if (0 != (acked[word] & bit))
        {
            return;
        }
        acked[word] |= bit;
        ackedSegments++;
        ackedBytes += payloadOf(sequence);
        while (firstUnacked < segments && isAcked(firstUnacked))
        {
            firstUnacked++;
        }
    }

    private boolean isAcked(final int sequence)
    {
        return 0 != (acked[sequence >>> 6] & (1L << (sequence & (Long.SIZE - 1))));
    }

    private int nextUnsent()
    {
        int sequence = Math.max(nextSequence, firstUnacked);
        while (sequence < segments && isAcked(sequence))
        {
            sequence++;
        }
        return sequence < segments ? sequence : -1;
    }

    private int payloadOf(final int sequence)
    {
        return (int)Math.min(SEGMENT_BYTES, sizeBytes - (long)sequence * SEGMENT_BYTES);
    }

    private long effectiveRttNs()
    {
        return rttNs > 0 ? rttNs : settings.initialRttNs();
    }

    /**
     * T_S: the bytes not yet acknowledged at the NIC's rate.
     *
     * @return nanoseconds.
     */
    public long expectedNs()
    {
        return (long)Math.ceil(8e9 * (sizeBytes - ackedBytes) / nicRateBitsPerSec);
    }

    /**
     * @return the flow's id.
     */
    public long flowId()
    {
        return flowId;
    }

    /**
     * @return its receiver.
     */
    public int destinationHost()
    {
        return destinationHost;
    }

    /**
     * @return its bytes.
     */
    public long sizeBytes()
    {
        return sizeBytes;
    }

    /**
     * @return when it started.
     */
    public long startNs()
    {
        return startNs;
    }

    /**
     * @return R_S, bits/s.
     */
    public long rateBitsPerSec()
    {
        return rateBitsPerSec;
    }

    /**
     * @return P_S, the pause id of the link that paused it, or 0.
     */
    public int pausedBy()
    {
        return pausedBy;
    }

    /**
     * @return I_S, nanoseconds.
     */
    public long interProbeNs()
    {
        return interProbeNs;
    }

    /**
     * @return the smallest RTT measured, nanoseconds, 0 before the first ACK: what departures carry as RTT_H.
     */
    public long minRttNs()
    {
        return minRttNs;
    }

    /**
     * @return RTT_S, nanoseconds, 0 before the first ACK.
     */
    public long rttNs()
    {
        return rttNs;
    }

    /**
     * @return when its last byte was acknowledged, or -1.
     */
    public long completedNs()
    {
        return completedNs;
    }

    /**
     * @return whether Early Termination ended it.
     */
    public boolean terminatedEarly()
    {
        return terminatedEarly;
    }

    /**
     * @return whether it has nothing left to do: complete or terminated, and its TERMs acknowledged or given up on.
     */
    public boolean isDone()
    {
        return STATE_DONE == state;
    }

    /**
     * @return timeouts it took.
     */
    public int timeouts()
    {
        return timeouts;
    }

    /**
     * @return payload bytes it sent again.
     */
    public long retransmittedBytes()
    {
        return retransmittedBytes;
    }
}
