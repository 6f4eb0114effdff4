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
 */
public record FlowRecord(
    long flowId,
    int sourceHost,
    int destinationHost,
    long sizeBytes,
    long startNs,
    long endNs,
    int timeouts,
    long retransmittedBytes)
{
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
