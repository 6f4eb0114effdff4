package io.pfabric.hostd.transport;

/**
 * What a {@link HostTransport} has done. Written by the transport's thread only; other threads may read stale
 * values.
 */
public final class TransportCounters
{
    long flowsStarted;
    long flowsCompleted;
    long packetsSent;
    long packetsReceived;
    long acksSent;
    long acksDeferred;
    long acksReceived;
    long probesReceived;
    long timeouts;
    long messagesDelivered;
    long duplicatePackets;
    long malformedPackets;
    long staleAcks;
    long sendFailures;
    long packetsHeldBack;
    long receiverRestarts;
    long receiversExpired;
    long expiredFlowPackets;
    long pacerWaits;
    long sendLagNs;
    long longestSendLagNs;
    long lateSends;

    /**
     * Flows the application started.
     *
     * @return the count.
     */
    public long flowsStarted()
    {
        return flowsStarted;
    }

    /**
     * Flows whose every byte was acknowledged.
     *
     * @return the count.
     */
    public long flowsCompleted()
    {
        return flowsCompleted;
    }

    /**
     * Data packets and probes sent.
     *
     * @return the count.
     */
    public long packetsSent()
    {
        return packetsSent;
    }

    /**
     * Packets received, of any kind.
     *
     * @return the count.
     */
    public long packetsReceived()
    {
        return packetsReceived;
    }

    /**
     * ACKs sent.
     *
     * @return the count.
     */
    public long acksSent()
    {
        return acksSent;
    }

    /**
     * In-order data packets whose ACK waited for a later one ({@link TransportConfiguration#segmentsPerAck()} above
     * 1); 0 under pFabric's rule.
     *
     * @return the count.
     */
    public long acksDeferred()
    {
        return acksDeferred;
    }

    /**
     * ACKs received for active flows.
     *
     * @return the count.
     */
    public long acksReceived()
    {
        return acksReceived;
    }

    /**
     * Probes received.
     *
     * @return the count.
     */
    public long probesReceived()
    {
        return probesReceived;
    }

    /**
     * Timeouts of this host's flows.
     *
     * @return the count.
     */
    public long timeouts()
    {
        return timeouts;
    }

    /**
     * Whole messages received.
     *
     * @return the count.
     */
    public long messagesDelivered()
    {
        return messagesDelivered;
    }

    /**
     * Data segments that had arrived before.
     *
     * @return the count.
     */
    public long duplicatePackets()
    {
        return duplicatePackets;
    }

    /**
     * Packets dropped as malformed: short, bad checksum, wrong lengths or offsets.
     *
     * @return the count.
     */
    public long malformedPackets()
    {
        return malformedPackets;
    }

    /**
     * ACKs for flows no longer active.
     *
     * @return the count.
     */
    public long staleAcks()
    {
        return staleAcks;
    }

    /**
     * Packets the I/O would not take.
     *
     * @return the count.
     */
    public long sendFailures()
    {
        return sendFailures;
    }

    /**
     * Times a flow with window to send was passed over because the controller's admission held its destination back.
     *
     * @return the count.
     */
    public long packetsHeldBack()
    {
        return packetsHeldBack;
    }

    /**
     * Flows given up because their receiver restarted after acknowledging some of their bytes: an ACK carried
     * another incarnation of the receiving host than the flow's first ACK.
     *
     * @return the count.
     */
    public long receiverRestarts()
    {
        return receiverRestarts;
    }

    /**
     * Flows this host was receiving whose state it gave up, incomplete, after the idle timeout without a packet
     * (such as a flow its sender gave up when this host restarted).
     *
     * @return the count.
     */
    public long receiversExpired()
    {
        return receiversExpired;
    }

    /**
     * Data packets and probes dropped because their flow's receiving state had been given up for idleness.
     *
     * @return the count.
     */
    public long expiredFlowPackets()
    {
        return expiredFlowPackets;
    }

    /**
     * Times the transport had a packet ready and waited for its pacer (or its next round) to send it: the sends whose
     * lag is measured.
     *
     * @return the count.
     */
    public long pacerWaits()
    {
        return pacerWaits;
    }

    /**
     * The lags of those sends added up, in nanoseconds: how long after the time the transport meant to send each one
     * left.
     *
     * @return nanoseconds.
     */
    public long sendLagNs()
    {
        return sendLagNs;
    }

    /**
     * The longest of those lags since the transport started, in nanoseconds.
     *
     * @return nanoseconds.
     */
    public long longestSendLagNs()
    {
        return longestSendLagNs;
    }

    /**
     * Sends that left later than the pacer's slack allows: the host's link was idle meanwhile although a packet was
     * ready for it.
     *
     * @return the count.
     */
    public long lateSends()
    {
        return lateSends;
    }
}
