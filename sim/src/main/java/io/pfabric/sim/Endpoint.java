package io.pfabric.sim;

import io.pfabric.hostd.transport.FlowRecord;

import java.util.concurrent.CompletableFuture;

/**
 * What runs on a host: hostd's transport, or a modelled baseline.
 */
interface Endpoint
{
    /**
     * Start a flow whose data packets carry a DSCP.
     *
     * @param destinationHost the receiver.
     * @param sizeBytes       its size.
     * @param dscp            the DSCP of its data packets, 0 to 63.
     * @return completed with the flow's record when its last byte is acknowledged.
     */
    CompletableFuture<FlowRecord> send(int destinationHost, long sizeBytes, int dscp);

    /**
     * Start a flow with a deadline; an endpoint that knows nothing of deadlines starts it as any other.
     *
     * @param destinationHost the receiver.
     * @param sizeBytes       its size.
     * @param dscp            the DSCP of its data packets, 0 to 63.
     * @param deadlineNs      the time it has to complete from now; 0 for none.
     * @return completed with the flow's record when its last byte is acknowledged.
     */
    default CompletableFuture<FlowRecord> send(int destinationHost, long sizeBytes, int dscp, long deadlineNs)
    {
        return send(destinationHost, sizeBytes, dscp);
    }

    /**
     * Do what is due at the clock's time.
     *
     * @return work done.
     */
    int poll();

    /**
     * When something is next due without new input.
     *
     * @return nanoseconds, or {@link Long#MAX_VALUE}.
     */
    long nextDeadlineNs();
}
