package io.pfabric.hostd.transport;

/**
 * What a finished (or abandoned) flow reports, for the FCT log.
 *
 * @param flowId             the flow's id.
 * @param sourceHost         index of the sending host.
 * @param destinationHost    index of the receiving host.
 * @param sizeBytes          bytes of the message.
 * @param startNs            when the flow arrived at the transport.
 * @param endNs              when its last byte was acknowledged; -1 if it never was.
 * @param timeouts           timeouts it took.
 * @param retransmittedBytes payload bytes sent more than once.
 * @param deadlineNs         the time the flow had to complete from its start; 0 if it had no deadline.
 */
public record FlowRecord(
    long flowId,
    int sourceHost,
    int destinationHost,
    long sizeBytes,
    long startNs,
    long endNs,
    int timeouts,
    long retransmittedBytes,
    long deadlineNs)
{
    /**
     * The record of a flow without a deadline.
     *
     * @param flowId             the flow's id.
     * @param sourceHost         index of the sending host.
     * @param destinationHost    index of the receiving host.
     * @param sizeBytes          bytes of the message.
     * @param startNs            when the flow arrived at the transport.
     * @param endNs              when its last byte was acknowledged; -1 if it never was.
     * @param timeouts           timeouts it took.
     * @param retransmittedBytes payload bytes sent more than once.
     */
    public FlowRecord(final long flowId, final int sourceHost, final int destinationHost, final long sizeBytes,
        final long startNs, final long endNs, final int timeouts, final long retransmittedBytes)
    {
        this(flowId, sourceHost, destinationHost, sizeBytes, startNs, endNs, timeouts, retransmittedBytes, 0);
    }

    /**
     * Whether the flow had a deadline.
     *
     * @return true if it had one.
     */
    public boolean hasDeadline()
    {
        return deadlineNs > 0;
    }

    /**
     * Whether the flow had a deadline and completed within it.
     *
     * @return true if it met its deadline.
     */
    public boolean metDeadline()
    {
        return hasDeadline() && isComplete() && fctNs() <= deadlineNs;
    }

    /**
     * Whether every byte was acknowledged.
     *
     * @return true if complete.
     */
    public boolean isComplete()
    {
        return endNs >= 0;
    }

    /**
     * The flow completion time.
     *
     * @return nanoseconds, or -1 if incomplete.
     */
    public long fctNs()
    {
        return isComplete() ? endNs - startNs : -1;
    }
}
