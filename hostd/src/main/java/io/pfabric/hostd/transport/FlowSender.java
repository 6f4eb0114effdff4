package io.pfabric.hostd.transport;

import io.pfabric.common.wire.PfabricHeaderFlyweight;

import java.util.BitSet;

/**
 * The sending half of one pFabric flow, pure: the caller supplies the time and carries the packets.
 * <ul>
 *     <li>The flow starts at line rate: the window opens at the initial window (about one BDP) and grows as TCP's
 *     does, +1 packet per ACK of new data below the slow-start threshold and +1/window above it, up to the cap.</li>
 *     <li>Each packet carries the priority of the {@link PriorityPolicy}; with remaining size, the bytes neither
 *     cumulatively acknowledged nor SACKed. With deadlines (pFabric-EDF), a flow that has one carries it, in
 *     microseconds since the deadline epoch, with the DEADLINE flag, until it can no longer finish in time at line
 *     rate: from then on it carries the least urgent priority and no flag (its packets leave the deadline queue);
 *     a flow without one keeps its remaining size.</li>
 *     <li>Loss is found only by the fixed timeout, restarted by each ACK of new data. On a timeout the slow-start
 *     threshold becomes half the window (at least 2), the window 1, every packet in flight is taken as lost and
 *     sending resumes at the first unacknowledged byte, skipping SACKed segments.</li>
 *     <li>After {@code probeAfterTimeouts} consecutive timeouts the flow enters probe mode: one 1-byte probe per
 *     timeout until any ACK arrives, after which it slow-starts again.</li>
 *     <li>In the LineRate variant there is no window and no probe mode: every unacknowledged segment not in flight
 *     may go.</li>
 * </ul>
 * The flow is split into segments of the configured length (the last one may be shorter); SACK blocks and the
 * cumulative ack are taken at segment granularity, as the receiver sends them. Allocates its segment maps when
 * created; nothing afterwards.
 */
public final class FlowSender
{
    private static final double INITIAL_SSTHRESH_PACKETS = 1e9;

    /**
     * Largest IPv4 DSCP.
     */
    public static final int MAX_DSCP = 63;

    /**
     * {@link #receiverIncarnation()} before the first ACK that carries one.
     */
    public static final int NO_INCARNATION = -1;

    private final TransportConfiguration configuration;
    private final long flowId;
    private final int destinationHost;
    private final long sizeBytes;
    private final int segmentCount;
    private final long startNs;
    private long deadlineUs;
    private long deadlineNs;
    private final int dscp;
    private long deadlineEpochNs;
    private double lineRateNsPerByte;
    private boolean demoted;
    private long sentOnceBytes;
    private final BitSet acked;
    private final BitSet inFlight;
    private final BitSet everSent;

    private int cumulativeSegments;
    private long ackedBytes;
    private int inFlightPackets;
    private int nextSegment;
    private double windowPackets;
    private double slowStartThresholdPackets = INITIAL_SSTHRESH_PACKETS;
    private int consecutiveTimeouts;
    private boolean probeMode;
    private boolean probeDue;
    private boolean timerArmed;
    private long timeoutDeadlineNs;
    private int timeouts;
    private long retransmittedBytes;
    private long packetsSent;
    private long completedNs = -1;
    private int receiverIncarnation = NO_INCARNATION;

    /**
     * A new flow.
     *
     * @param configuration   the transport's settings.
     * @param flowId          unique id (source host id in the high 32 bits).
     * @param destinationHost index of the receiving host.
     * @param sizeBytes       bytes to deliver, 1 to 2^32 - 1.
     * @param startNs         when the flow arrived.
     * @param deadlineUs      the flow's deadline in microseconds since the deadline epoch
     *                        ({@link #deadlineClock(long, long)}), which {@link PriorityPolicy#DEADLINE} puts in its
     *                        packets; 0 for a flow without one.
     */
    public FlowSender(
        final TransportConfiguration configuration,
        final long flowId,
        final int destinationHost,
        final long sizeBytes,
        final long startNs,
        final long deadlineUs)
    {
        this(configuration, flowId, destinationHost, sizeBytes, startNs, deadlineUs, 0);
    }

    /**
     * A new flow whose packets carry a DSCP, which puts them in a traffic class at switches that have classes.
     *
     * @param configuration   the transport's settings.
     * @param flowId          unique id (source host id in the high 32 bits).
     * @param destinationHost index of the receiving host.
     * @param sizeBytes       bytes to deliver, 1 to 2^32 - 1.
     * @param startNs         when the flow arrived.
     * @param deadlineUs      the flow's deadline in microseconds since the deadline epoch, 0 for a flow without one.
     * @param dscp            IPv4 DSCP of the flow's data packets, 0 to 63.
     */
    public FlowSender(
        final TransportConfiguration configuration,
        final long flowId,
        final int destinationHost,
        final long sizeBytes,
        final long startNs,
        final long deadlineUs,
        final int dscp)
    {
        if (dscp < 0 || dscp > MAX_DSCP)
        {
            throw new IllegalArgumentException("DSCP must be 0 to 63: " + dscp);
        }
        if (deadlineUs < 0)
        {
            throw new IllegalArgumentException("a deadline is positive, or 0 for none: " + deadlineUs);
        }
        if (sizeBytes < 1 || sizeBytes > PfabricHeaderFlyweight.MAX_PRIORITY)
        {
            throw new IllegalArgumentException("flow size must be 1 to 2^32 - 1 bytes: " + sizeBytes);
        }
        this.configuration = configuration;
        this.flowId = flowId;
        this.destinationHost = destinationHost;
        this.sizeBytes = sizeBytes;
        this.segmentCount = (int)((sizeBytes + configuration.segmentLength() - 1) / configuration.segmentLength());
        this.startNs = startNs;
        this.deadlineUs = deadlineUs;
        this.dscp = dscp;
        this.acked = new BitSet(segmentCount);
        this.inFlight = new BitSet(segmentCount);
        this.everSent = new BitSet(segmentCount);
        this.windowPackets = configuration.initialWindowPackets();
    }

    /**
     * Whether a packet may be sent now: a probe is due in probe mode; otherwise the window has room (always, in the
     * LineRate variant) and some segment is neither acknowledged nor in flight.
     *
     * @return true if {@link #nextPacket(long, OutboundPacket)} has something to give.
     */
    public boolean canSend()
    {
        if (isComplete())
        {
            return false;
        }
        if (probeMode)
        {
            return probeDue;
        }
        if (!configuration.lineRate() && inFlightPackets >= (int)windowPackets)
        {
            return false;
        }
        return nextSendableSegment() < segmentCount;
    }

    /**
     * How many packets this flow could send now if nothing but its window held it back: 0 if it cannot send, 1 in
     * probe mode, else the room in its window (every segment not yet acknowledged, in the LineRate variant) but no
     * more than the segments from the next sendable one to the end. An upper bound, for demand reports.
     *
     * @return packets.
     */
    public int sendablePackets()
    {
        if (!canSend())
        {
            return 0;
        }
        if (probeMode)
        {
            return 1;
        }
        final int unsent = segmentCount - nextSendableSegment();
        if (configuration.lineRate())
        {
            return unsent;
        }
        return Math.max(1, Math.min(unsent, (int)windowPackets - inFlightPackets));
    }

    /**
     * Take the next packet: a probe in probe mode, else the first segment neither acknowledged nor in flight.
     * Call only when {@link #canSend()} says so. Arms the timeout if it is not running.
     *
     * @param nowNs current time.
     * @param out   filled with the packet to send.
     */
    public void nextPacket(final long nowNs, final OutboundPacket out)
    {
        if (hasDeadline() && !demoted && lineRateNsPerByte > 0 &&
            nowNs + (sizeBytes - ackedBytes) * lineRateNsPerByte >
                (deadlineNs > 0 ? startNs + deadlineNs : deadlineEpochNs + deadlineUs * 1_000.0))
        {
            demoted = true;
        }
        if (probeMode)
        {
            probeDue = false;
            out.type = PfabricHeaderFlyweight.TYPE_PROBE;
            out.offsetBytes = (long)cumulativeSegments * configuration.segmentLength();
            out.payloadLength = 1;
            out.priority = priority();
            out.deadline = isDeadlineClass();
            out.fin = false;
        }
        else
        {
            final int segment = nextSendableSegment();
            nextSegment = segment + 1;
            inFlight.set(segment);
            inFlightPackets++;
            final int length = segmentLength(segment);
            if (everSent.get(segment))
            {
                retransmittedBytes += length;
            }
            out.priority = priority();
            out.deadline = isDeadlineClass();
            if (!everSent.get(segment))
            {
                sentOnceBytes += length;
            }
            everSent.set(segment);
            out.type = PfabricHeaderFlyweight.TYPE_DATA;
            out.offsetBytes = (long)segment * configuration.segmentLength();
            out.payloadLength = length;
            out.fin = segment == segmentCount - 1;
        }
        packetsSent++;
        if (!timerArmed)
        {
            timerArmed = true;
            timeoutDeadlineNs = nowNs + configuration.timeoutNs();
        }
    }

    /**
     * An ACK for this flow arrived: mark what it acknowledges (cumulatively and in SACK blocks), grow the window if
     * it acknowledged new data, leave probe mode, and restart or stop the timeout.
     *
     * @param nowNs               current time.
     * @param cumulativeAckBytes  every byte below this has arrived.
     * @param sackCount           number of SACK blocks given.
     * @param sackStartBytes      start of each block (inclusive).
     * @param sackEndBytes        end of each block (exclusive).
     * @return true if it acknowledged data not acknowledged before.
     */
    public boolean onAck(
        final long nowNs,
        final long cumulativeAckBytes,
        final int sackCount,
        final long[] sackStartBytes,
        final long[] sackEndBytes)
    {
        if (isComplete())
        {
            return false;
        }
        consecutiveTimeouts = 0;
        final boolean wasProbing = probeMode;
        probeMode = false;
        probeDue = false;
        final long ackedBefore = ackedBytes;
        markAcked(cumulativeSegments, segmentAtOrAfter(cumulativeAckBytes, true));
        for (int i = 0; i < sackCount; i++)
        {
            if (sackStartBytes[i] < sackEndBytes[i])
            {
                markAcked(segmentAtOrAfter(sackStartBytes[i], false), segmentAtOrAfter(sackEndBytes[i], true));
            }
        }
        cumulativeSegments = acked.nextClearBit(cumulativeSegments);
        final boolean progress = ackedBytes > ackedBefore;
        if (progress)
        {
            if (windowPackets < slowStartThresholdPackets)
            {
                windowPackets += 1;
            }
            else
            {
                windowPackets += 1 / windowPackets;
            }
            windowPackets = Math.min(windowPackets, configuration.maxWindowPackets());
        }
        if (isComplete())
        {
            completedNs = nowNs;
            timerArmed = false;
        }
        else if (progress)
        {
            timerArmed = inFlightPackets > 0;
            timeoutDeadlineNs = nowNs + configuration.timeoutNs();
        }
        else if (wasProbing)
        {
            timerArmed = false;
        }
        return progress;
    }

    /**
     * An ACK for this flow carries the receiving host's incarnation: call before {@link #onAck}. The first one is
     * recorded. Another one means the receiver restarted: if the earlier start acknowledged none of the flow's bytes,
     * the flow continues toward the new one (which gets every byte, as nothing is taken as acknowledged) and its
     * incarnation is recorded; if it acknowledged some, the new start never gets those bytes (they are not sent
     * again) and the flow cannot complete.
     *
     * @param incarnation the receiving host's incarnation, 0 to 65,535.
     * @return true if the receiver restarted after acknowledging some of the flow: the ACK must not be applied and
     *         the flow must be given up.
     */
    public boolean receiverRestarted(final int incarnation)
    {
        if (incarnation == receiverIncarnation)
        {
            return false;
        }
        if (NO_INCARNATION == receiverIncarnation || 0 == ackedBytes)
        {
            receiverIncarnation = incarnation;
            return false;
        }
        return true;
    }

    /**
     * The receiving host's incarnation, from the flow's ACKs.
     *
     * @return 0 to 65,535, or {@link #NO_INCARNATION} before the first ACK that carries one.
     */
    public int receiverIncarnation()
    {
        return receiverIncarnation;
    }

    /**
     * The timeout fired: everything in flight is lost, the window closes to 1 and sending resumes from the first
     * unacknowledged byte; the fifth consecutive timeout (by default) enters probe mode.
     *
     * @param nowNs current time, at or after {@link #timeoutDeadlineNs()}.
     */
    public void onTimeout(final long nowNs)
    {
        if (isComplete() || !timerArmed)
        {
            return;
        }
        timeouts++;
        consecutiveTimeouts++;
        inFlight.clear();
        inFlightPackets = 0;
        nextSegment = cumulativeSegments;
        if (!configuration.lineRate())
        {
            slowStartThresholdPackets = Math.max(windowPackets / 2, 2);
            windowPackets = 1;
            if (consecutiveTimeouts >= configuration.probeAfterTimeouts())
            {
                probeMode = true;
                probeDue = true;
                timeoutDeadlineNs = nowNs + configuration.timeoutNs();
                return;
            }
        }
        timerArmed = false;
    }

    /**
     * The priority number of this flow's next packet under the configured policy.
     *
     * @return 0 to 2^32 - 1.
     */
    public long priority()
    {
        final long value = switch (configuration.priorityPolicy())
        {
            case REMAINING_SIZE -> sizeBytes - ackedBytes;
            case FLOW_SIZE -> sizeBytes;
            case BYTES_SENT -> sentOnceBytes;
            case DEADLINE -> !hasDeadline() ? sizeBytes - ackedBytes :
                demoted ? PfabricHeaderFlyweight.MAX_PRIORITY : deadlineUs;
        };
        return Math.min(Math.max(value, 0), PfabricHeaderFlyweight.MAX_PRIORITY);
    }

    /**
     * Set the clock of the deadline: the time its microseconds count from, and the line rate at which the flow is
     * demoted once its remaining bytes could no longer arrive in time. Without it a flow is never demoted.
     *
     * @param epochNs            the time, on the clock the flow is driven by, of deadline microsecond 0.
     * @param linkRateBitsPerSec the host's line rate.
     * @return this.
     */
    public FlowSender deadlineClock(final long epochNs, final long linkRateBitsPerSec)
    {
        this.deadlineEpochNs = epochNs;
        this.lineRateNsPerByte = linkRateBitsPerSec > 0 ? 8e9 / linkRateBitsPerSec : 0;
        return this;
    }

    /**
     * Give the flow a deadline relative to its start, with the clock of {@link #deadlineClock(long, long)}: its
     * packets carry it as microseconds since the epoch, rounded up.
     *
     * @param newDeadlineNs      the time the flow has to complete from its start; 0 for none.
     * @param epochNs            the time, on the clock the flow is driven by, of deadline microsecond 0.
     * @param linkRateBitsPerSec the host's line rate.
     * @return this.
     */
    public FlowSender deadline(final long newDeadlineNs, final long epochNs, final long linkRateBitsPerSec)
    {
        if (newDeadlineNs < 0)
        {
            throw new IllegalArgumentException("a deadline is positive, or 0 for none: " + newDeadlineNs);
        }
        this.deadlineNs = newDeadlineNs;
        this.deadlineUs = 0 == newDeadlineNs ? 0 : Math.max(1, Math.ceilDiv(startNs + newDeadlineNs - epochNs, 1_000));
        return deadlineClock(epochNs, linkRateBitsPerSec);
    }

    /**
     * The time the flow has to complete from its start, as given to {@link #deadline(long, long, long)}.
     *
     * @return nanoseconds, 0 for none (or for a deadline given only in microseconds to the constructor).
     */
    public long deadlineNs()
    {
        return deadlineNs;
    }

    /**
     * Whether the flow has a deadline.
     *
     * @return true if it was given one.
     */
    public boolean hasDeadline()
    {
        return deadlineUs > 0;
    }

    /**
     * The flow's deadline.
     *
     * @return microseconds since the deadline epoch, 0 for none.
     */
    public long deadlineUs()
    {
        return deadlineUs;
    }

    /**
     * Whether the flow has been demoted: it has a deadline it can no longer meet at line rate.
     *
     * @return true once demoted.
     */
    public boolean isDemoted()
    {
        return demoted;
    }

    /**
     * Whether the flow's packets go with the deadline traffic (the DEADLINE flag): under
     * {@link PriorityPolicy#DEADLINE}, a flow with a deadline not demoted.
     *
     * @return true if they do.
     */
    public boolean isDeadlineClass()
    {
        return PriorityPolicy.DEADLINE == configuration.priorityPolicy() && hasDeadline() && !demoted;
    }

    private int nextSendableSegment()
    {
        int segment = nextSegment;
        while (true)
        {
            segment = acked.nextClearBit(segment);
            if (segment >= segmentCount || !inFlight.get(segment))
            {
                return Math.min(segment, segmentCount);
            }
            segment = inFlight.nextClearBit(segment);
        }
    }

    private int segmentAtOrAfter(final long offsetBytes, final boolean roundDown)
    {
        if (offsetBytes >= sizeBytes)
        {
            return segmentCount;
        }
        if (offsetBytes <= 0)
        {
            return 0;
        }
        final long segment = offsetBytes / configuration.segmentLength();
        final boolean aligned = 0 == offsetBytes % configuration.segmentLength();
        return (int)(aligned || roundDown ? segment : segment + 1);
    }

    private void markAcked(final int fromSegment, final int toSegment)
    {
        for (int segment = acked.nextClearBit(fromSegment); segment < toSegment;
            segment = acked.nextClearBit(segment + 1))
        {
            acked.set(segment);
            ackedBytes += segmentLength(segment);
            if (inFlight.get(segment))
            {
                inFlight.clear(segment);
                inFlightPackets--;
            }
        }
    }

    private int segmentLength(final int segment)
    {
        return segment == segmentCount - 1 ?
            (int)(sizeBytes - (long)segment * configuration.segmentLength()) : configuration.segmentLength();
    }

    /**
     * Whether every byte has been acknowledged.
     *
     * @return true when the flow is done.
     */
    public boolean isComplete()
    {
        return cumulativeSegments >= segmentCount;
    }

    /**
     * Whether the timeout is running.
     *
     * @return true if {@link #timeoutDeadlineNs()} is meaningful.
     */
    public boolean isTimerArmed()
    {
        return timerArmed;
    }

    /**
     * When the timeout fires, if it is armed.
     *
     * @return nanoseconds.
     */
    public long timeoutDeadlineNs()
    {
        return timeoutDeadlineNs;
    }

    /**
     * Whether the flow only sends probes.
     *
     * @return true in probe mode.
     */
    public boolean inProbeMode()
    {
        return probeMode;
    }

    /**
     * The congestion window.
     *
     * @return packets, fractional in congestion avoidance.
     */
    public double windowPackets()
    {
        return windowPackets;
    }

    /**
     * The slow-start threshold.
     *
     * @return packets; very large until the first timeout.
     */
    public double slowStartThresholdPackets()
    {
        return slowStartThresholdPackets;
    }

    /**
     * Packets sent and neither acknowledged nor given up as lost.
     *
     * @return the count.
     */
    public int inFlightPackets()
    {
        return inFlightPackets;
    }

    /**
     * Bytes acknowledged cumulatively or by SACK.
     *
     * @return the count.
     */
    public long ackedBytes()
    {
        return ackedBytes;
    }

    /**
     * Every byte below this has been acknowledged.
     *
     * @return byte offset.
     */
    public long cumulativeAckBytes()
    {
        return Math.min(sizeBytes, (long)cumulativeSegments * configuration.segmentLength());
    }

    /**
     * Timeouts so far.
     *
     * @return the count.
     */
    public int timeouts()
    {
        return timeouts;
    }

    /**
     * Timeouts since the last ACK.
     *
     * @return the count.
     */
    public int consecutiveTimeouts()
    {
        return consecutiveTimeouts;
    }

    /**
     * Payload bytes sent more than once.
     *
     * @return the count.
     */
    public long retransmittedBytes()
    {
        return retransmittedBytes;
    }

    /**
     * Packets sent, probes included.
     *
     * @return the count.
     */
    public long packetsSent()
    {
        return packetsSent;
    }

    /**
     * The flow's id.
     *
     * @return the id.
     */
    public long flowId()
    {
        return flowId;
    }

    /**
     * The receiving host.
     *
     * @return its index.
     */
    public int destinationHost()
    {
        return destinationHost;
    }

    /**
     * IPv4 DSCP of the flow's data packets.
     *
     * @return 0 to 63.
     */
    public int dscp()
    {
        return dscp;
    }

    /**
     * Bytes to deliver.
     *
     * @return the size.
     */
    public long sizeBytes()
    {
        return sizeBytes;
    }

    /**
     * When the flow arrived.
     *
     * @return nanoseconds.
     */
    public long startNs()
    {
        return startNs;
    }

    /**
     * When the last byte was acknowledged.
     *
     * @return nanoseconds, or -1 while incomplete.
     */
    public long completedNs()
    {
        return completedNs;
    }

    /**
     * Number of segments.
     *
     * @return the count.
     */
    public int segmentCount()
    {
        return segmentCount;
    }
}
