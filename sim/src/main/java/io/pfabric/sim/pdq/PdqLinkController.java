package io.pfabric.sim.pdq;

/**
 * PDQ's flow controller and rate controller for one link (PDQ §3.3), its state its own: no two links share a flow's
 * entry. The list holds the link's most critical flows, at most 2κ of them where κ is how many of them are sending
 * (at least 2, at most M), in order of criticality: an earlier deadline first (a flow with one before a flow without),
 * then the smaller expected transmission time, then the smaller flow id. Each entry is &lt;R_i, P_i, D_i, T_i,
 * RTT_i&gt;.
 * <p>
 * A forward packet (SYN, data, probe) runs Algorithm 1: a flow paused by another link is dropped from the list and
 * left alone; a flow not in the list enters it if there is room or it is more critical than the least critical,
 * which then leaves; a flow that does not enter gets the RCP fair share of what the list leaves over, or is paused if
 * that is nothing; a flow in the list gets min(R_H, Availbw) (Algorithm 2, with Early Start) or is paused, and a flow
 * not yet sending is paused rather than accepted within the dampening period after another was accepted. The
 * packet's header carries the decision (R_H, P_H) on; nothing is committed. Its ACK runs Algorithm 3 on the way back:
 * paused by this link, R_i = 0 and P_i = this link; paused by another, the flow leaves the list; else R_i = R_H; and
 * with Suppressed Probing I_H = max(I_H, X RTT index). A TERM removes the flow.
 * <p>
 * A grant below 1% of the link's rate is a pause: a flow sending that slowly would next be heard from (and given
 * more) only after many RTTs, where a paused flow probes. A sending host's NIC is a link too, but not a switch: it
 * keeps a flow paused elsewhere in its list (R_i = 0) and caps its R_H by its own Availbw rather than drop it, so that
 * when the link that paused the flow accepts it, the flow cannot start faster than its host's other flows leave
 * room for (dropping it, the NIC let such flows start at full rate beside the ones it had accepted, and at load 0.8
 * its queue overflowed: 272,000 drops at the NICs of a 2,000-flow web-search run, 16 with the cap).
 * <p>
 * The rate controller sets the capacity the flow controller hands out, C = max(0, r - q / (2 RTT)), every two average
 * RTTs, and beside it an RCP rate R = R (1 + (T/d)(α(r - y) - β q/d)/r) (α 0.1, β 1, T the interval, d the average
 * RTT, y the measured input rate, q the queue), which flows outside the list share. Arrays are allocated once, to M.
 */
public final class PdqLinkController
{
    static final double RCP_ALPHA = 0.1;
    static final double RCP_BETA = 1.0;
    static final double RTT_GAIN = 1.0 / 8;
    /**
     * Below this fraction of the link's rate the RCP share is no share: the flow is paused.
     */
    static final double RCP_MIN_SHARE = 0.01;

    private final int id;
    private final boolean senderNic;
    private final long linkRateBitsPerSec;
    private final PdqSettings settings;
    private final long[] flowIds;
    private final long[] deadlinesUs;
    private final long[] expectedNs;
    private final long[] ratesBitsPerSec;
    private final long[] grantedBitsPerSec;
    private final long[] rttsNs;
    private final int[] pausedBy;
    private int size;
    private long capacityBitsPerSec;
    private long rcpRateBitsPerSec;
    private double rttAverageNs;
    private long lastControlNs;
    private long bytesSinceControl;
    private long lastAcceptNs = Long.MIN_VALUE;
    private long lastAcceptedFlow = -1;

    /**
     * A link's controller.
     *
     * @param linkId             the link's id, from 0; P_H names it as id + 1.
     * @param linkRateBitsPerSec r, the link's rate.
     * @param settings           the variant.
     */
    public PdqLinkController(final int linkId, final long linkRateBitsPerSec, final PdqSettings settings)
    {
        this(linkId, linkRateBitsPerSec, settings, false);
    }

    /**
     * A link's controller, or a sender's NIC's.
     *
     * @param linkId             the link's id, from 0; P_H names it as id + 1.
     * @param linkRateBitsPerSec r, the link's rate.
     * @param settings           the variant.
     * @param senderNic          the link is a sending host's NIC, which keeps its flows paused elsewhere and caps
     *                           their R_H rather than drop them.
     */
    public PdqLinkController(final int linkId, final long linkRateBitsPerSec, final PdqSettings settings,
        final boolean senderNic)
    {
        this.senderNic = senderNic;
        if (linkId < 0 || linkRateBitsPerSec <= 0)
        {
            throw new IllegalArgumentException("a link needs an id and a rate");
        }
        this.id = linkId + 1;
        this.linkRateBitsPerSec = linkRateBitsPerSec;
        this.settings = settings;
        final int m = settings.maxListFlows();
        flowIds = new long[m];
        deadlinesUs = new long[m];
        expectedNs = new long[m];
        ratesBitsPerSec = new long[m];
        grantedBitsPerSec = new long[m];
        rttsNs = new long[m];
        pausedBy = new int[m];
        capacityBitsPerSec = linkRateBitsPerSec;
        rcpRateBitsPerSec = linkRateBitsPerSec;
        rttAverageNs = settings.initialRttNs();
        lastControlNs = Long.MIN_VALUE;
    }

    /**
     * The id that P_H carries when this link pauses a flow.
     *
     * @return the link's id plus one.
     */
    public int pauseId()
    {
        return id;
    }

    /**
     * Count a frame about to leave on the link (any frame, PDQ's or an ACK), and run the rate controller when two
     * average RTTs have passed since it last ran.
     *
     * @param nowNs       the time.
     * @param length      the frame's bytes.
     * @param queueLength bytes queued at the link now.
     */
    public void onFrame(final long nowNs, final int length, final long queueLength)
    {
        bytesSinceControl += length;
        if (Long.MIN_VALUE == lastControlNs)
        {
            lastControlNs = nowNs;
            return;
        }
        final long intervalNs = nowNs - lastControlNs;
        if (intervalNs >= 2 * rttAverageNs)
        {
            control(intervalNs, queueLength);
            lastControlNs = nowNs;
            bytesSinceControl = 0;
        }
    }

    private void control(final long intervalNs, final long queueLength)
    {
        final double queueBits = 8.0 * queueLength;
        capacityBitsPerSec = Math.max(0, linkRateBitsPerSec - (long)(queueBits * 1e9 / (2 * rttAverageNs)));
        final double r = linkRateBitsPerSec;
        final double inputBitsPerSec = 8.0 * bytesSinceControl * 1e9 / intervalNs;
        final double d = rttAverageNs / 1e9;
        final double change = (intervalNs / 1e9 / d) *
            (RCP_ALPHA * (r - inputBitsPerSec) - RCP_BETA * queueBits / d) / r;
        rcpRateBitsPerSec = (long)Math.min(r, Math.max(RCP_MIN_SHARE * r, rcpRateBitsPerSec * (1 + change)));
    }

    /**
     * Algorithm 1 on a forward packet (SYN, data or probe): set R_H and P_H in its header.
     *
     * @param nowNs  the time.
     * @param packet the packet.
     */
    public void onForward(final long nowNs, final PdqPacketFlyweight packet)
    {
        final long flowId = packet.flowId();
        final int pausedByHeader = packet.pausedBy();
        final boolean pausedElsewhere = 0 != pausedByHeader && id != pausedByHeader;
        if (pausedElsewhere && !senderNic)
        {
            remove(flowId);
            return;
        }
        final long deadlineUs = 0 == packet.deadlineField() ? Long.MAX_VALUE : packet.deadlineField();
        final long tNs = packet.expectedField();
        int index = indexOf(flowId);
        if (index < 0)
        {
            if (size < listCapacity() || moreCritical(deadlineUs, tNs, flowId, size - 1))
            {
                if (size == flowIds.length)
                {
                    size--;
                }
                index = insert(flowId, deadlineUs, tNs);
                while (size > listCapacity() && size - 1 > index)
                {
                    size--;
                }
            }
            else
            {
                final long share = rcpShareBitsPerSec();
                if (share <= 0)
                {
                    pause(packet, -1, pausedElsewhere);
                }
                else
                {
                    if (!pausedElsewhere)
                    {
                        packet.pausedBy(0);
                    }
                    if (share < kbpsToBits(packet.rateKbps()))
                    {
                        packet.rateKbps(bitsToKbps(share));
                    }
                }
                return;
            }
        }
        else
        {
            deadlinesUs[index] = deadlineUs;
            expectedNs[index] = tNs;
            index = reposition(index);
        }
        final long available = Math.min(availableBitsPerSec(index), kbpsToBits(packet.rateKbps()));
        if (available < RCP_MIN_SHARE * linkRateBitsPerSec)
        {
            pause(packet, index, pausedElsewhere);
            return;
        }
        if (pausedElsewhere)
        {
            packet.rateKbps(bitsToKbps(available));
            return;
        }
        if (0 == ratesBitsPerSec[index])
        {
            if (flowId != lastAcceptedFlow && lastAcceptNs != Long.MIN_VALUE &&
                nowNs - lastAcceptNs < (long)(settings.dampeningRtts() * rttAverageNs))
            {
                pause(packet, index, false);
                return;
            }
            lastAcceptNs = nowNs;
            lastAcceptedFlow = flowId;
        }
        grantedBitsPerSec[index] = available;
        packet.pausedBy(0);
        packet.rateKbps(bitsToKbps(available));
    }

    /**
     * Algorithm 3 on an ACK coming back over the link: commit the decision its header carries, learn the flow's RTT,
     * and with Suppressed Probing stretch its probing interval by its place in the list.
     *
     * @param nowNs the time.
     * @param ack   the ACK.
     */
    public void onReverse(final long nowNs, final PdqPacketFlyweight ack)
    {
        final long flowId = ack.flowId();
        final int index = indexOf(flowId);
        if (index < 0)
        {
            return;
        }
        final int pausedByHeader = ack.pausedBy();
        if (0 != pausedByHeader && id != pausedByHeader && !senderNic)
        {
            removeAt(index);
            return;
        }
        grantedBitsPerSec[index] = 0;
        if (0 == pausedByHeader)
        {
            ratesBitsPerSec[index] = kbpsToBits(ack.rateKbps());
            pausedBy[index] = 0;
        }
        else
        {
            ratesBitsPerSec[index] = 0;
            pausedBy[index] = pausedByHeader;
        }
        final long rttNs = ack.expectedField();
        if (rttNs > 0)
        {
            rttsNs[index] = rttNs;
            rttAverageNs += RTT_GAIN * (rttNs - rttAverageNs);
        }
        if (settings.suppressedProbing())
        {
            final long stretchedNs = (long)(settings.suppressionX() * rttAverageNs * index);
            if (stretchedNs > ack.deadlineField())
            {
                ack.deadlineField(PdqPacketFlyweight.saturate(stretchedNs));
            }
        }
    }

    /**
     * A TERM: the flow leaves the list.
     *
     * @param flowId the flow.
     */
    public void onTerm(final long flowId)
    {
        remove(flowId);
    }

    /**
     * Algorithm 2, Availbw: the capacity less the rates of the flows more critical than the one at an index, where
     * with Early Start flows within K RTTs of finishing are not charged while their RTTs sum below K.
     */
    long availableBitsPerSec(final int index)
    {
        double nearlyDone = 0;
        long allocated = 0;
        final double k = settings.earlyStartK();
        for (int i = 0; i < index; i++)
        {
            final double rtt = rttsNs[i] > 0 ? rttsNs[i] : rttAverageNs;
            final double rtts = expectedNs[i] / rtt;
            if (settings.earlyStart() && rtts < k && nearlyDone < k)
            {
                nearlyDone += rtts;
            }
            else
            {
                allocated += ratesBitsPerSec[i];
            }
        }
        return allocated >= capacityBitsPerSec ? 0 : capacityBitsPerSec - allocated;
    }

    /**
     * What a flow outside the list gets: the RCP rate, at most what the list's committed rates leave of C.
     */
    long rcpShareBitsPerSec()
    {
        long allocated = 0;
        for (int i = 0; i < size; i++)
        {
            allocated += Math.max(ratesBitsPerSec[i], grantedBitsPerSec[i]);
        }
        final long share = Math.min(rcpRateBitsPerSec, capacityBitsPerSec - allocated);
        return share < RCP_MIN_SHARE * linkRateBitsPerSec ? 0 : share;
    }

    /**
     * 2κ, at least 2 and at most M, where κ counts the flows of the list sending (R_i &gt; 0).
     *
     * @return the most flows the list holds now.
     */
    public int listCapacity()
    {
        int sending = 0;
        for (int i = 0; i < size; i++)
        {
            sending += ratesBitsPerSec[i] > 0 ? 1 : 0;
        }
        return Math.min(flowIds.length, 2 * Math.max(1, sending));
    }

    /**
     * @return flows in the list.
     */
    public int listSize()
    {
        return size;
    }

    /**
     * @param flowId a flow.
     * @return its place in the list from 0, the most critical, or -1.
     */
    public int indexOf(final long flowId)
    {
        for (int i = 0; i < size; i++)
        {
            if (flowIds[i] == flowId)
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * @param flowId a flow in the list.
     * @return its committed rate R_i, bits/s.
     */
    public long rateBitsPerSec(final long flowId)
    {
        return ratesBitsPerSec[indexOf(flowId)];
    }

    /**
     * @param flowId a flow in the list.
     * @return P_i: this link's pause id if it paused the flow, else 0.
     */
    public int pausedBy(final long flowId)
    {
        return pausedBy[indexOf(flowId)];
    }

    /**
     * @return C, the capacity the flow controller hands out, bits/s.
     */
    public long capacityBitsPerSec()
    {
        return capacityBitsPerSec;
    }

    /**
     * @return the RCP rate for flows outside the list, bits/s.
     */
    public long rcpRateBitsPerSec()
    {
        return rcpRateBitsPerSec;
    }

    /**
     * @return the average RTT of the flows seen, nanoseconds.
     */
    public double rttAverageNs()
    {
        return rttAverageNs;
    }

    /**
     * The link's state, for diagnosis: C, the RCP rate, the average RTT and each entry of the list in order.
     *
     * @return a line.
     */
    public String toString()
    {
        final StringBuilder sb = new StringBuilder(String.format(java.util.Locale.ROOT,
            "link %d: C %d, rcp %d, rtt %.0f ns, list", id - 1, capacityBitsPerSec, rcpRateBitsPerSec, rttAverageNs));
        for (int i = 0; i < size; i++)
        {
            sb.append(String.format(java.util.Locale.ROOT, " [%d R %d P %d D %d T %d rtt %d]", flowIds[i],
                ratesBitsPerSec[i], pausedBy[i], deadlinesUs[i], expectedNs[i], rttsNs[i]));
        }
        return sb.toString();
    }

    private void pause(final PdqPacketFlyweight packet, final int index, final boolean pausedElsewhere)
    {
        if (index >= 0)
        {
            grantedBitsPerSec[index] = 0;
        }
        if (!pausedElsewhere)
        {
            packet.pausedBy(id);
        }
        packet.rateKbps(0);
    }

    private boolean moreCritical(final long deadlineUs, final long tNs, final long flowId, final int index)
    {
        if (index < 0)
        {
            return true;
        }
        if (deadlineUs != deadlinesUs[index])
        {
            return deadlineUs < deadlinesUs[index];
        }
        if (tNs != expectedNs[index])
        {
            return tNs < expectedNs[index];
        }
        return flowId < flowIds[index];
    }

    private int insert(final long flowId, final long deadlineUs, final long tNs)
    {
        int index = size;
        while (index > 0 && moreCritical(deadlineUs, tNs, flowId, index - 1))
        {
            copy(index - 1, index);
            index--;
        }
        flowIds[index] = flowId;
        deadlinesUs[index] = deadlineUs;
        expectedNs[index] = tNs;
        ratesBitsPerSec[index] = 0;
        grantedBitsPerSec[index] = 0;
        rttsNs[index] = 0;
        pausedBy[index] = 0;
        size++;
        return index;
    }

    /**
     * Move an entry whose deadline or expected time changed to its place; returns the new index.
     */
    private int reposition(final int index)
    {
        final long flowId = flowIds[index];
        final long deadlineUs = deadlinesUs[index];
        final long tNs = expectedNs[index];
        final long rate = ratesBitsPerSec[index];
        final long granted = grantedBitsPerSec[index];
        final long rtt = rttsNs[index];
        final int paused = pausedBy[index];
        int i = index;
        while (i > 0 && moreCritical(deadlineUs, tNs, flowId, i - 1))
        {
            copy(i - 1, i);
            i--;
        }
        while (i < size - 1 && !moreCritical(deadlineUs, tNs, flowId, i + 1))
        {
            copy(i + 1, i);
            i++;
        }
        flowIds[i] = flowId;
        deadlinesUs[i] = deadlineUs;
        expectedNs[i] = tNs;
        ratesBitsPerSec[i] = rate;
        grantedBitsPerSec[i] = granted;
        rttsNs[i] = rtt;
        pausedBy[i] = paused;
        return i;
    }

    private void copy(final int from, final int to)
    {
        flowIds[to] = flowIds[from];
        deadlinesUs[to] = deadlinesUs[from];
        expectedNs[to] = expectedNs[from];
        ratesBitsPerSec[to] = ratesBitsPerSec[from];
        grantedBitsPerSec[to] = grantedBitsPerSec[from];
        rttsNs[to] = rttsNs[from];
        pausedBy[to] = pausedBy[from];
    }

    private void remove(final long flowId)
    {
        final int index = indexOf(flowId);
        if (index >= 0)
        {
            removeAt(index);
        }
    }

    private void removeAt(final int index)
    {
        for (int i = index; i < size - 1; i++)
        {
            copy(i + 1, i);
        }
        size--;
    }

    static long kbpsToBits(final int kbps)
    {
        return 1_000L * kbps;
    }

    static int bitsToKbps(final long bitsPerSec)
    {
        return PdqPacketFlyweight.saturate(bitsPerSec / 1_000);
    }
}
