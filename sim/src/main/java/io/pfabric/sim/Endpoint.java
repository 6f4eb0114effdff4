package io.pfabric.sim;

import io.pfabric.hostd.transport.FlowRecord;

import java.util.concurrent.CompletableFuture;

/**
 * What runs on a host: hostd's transport, or a modelled baseline.
 */
interface Endpoint
{
    /**
     * Start a flow.
     *
     * @param destinationHost the receiver.
     * @param sizeBytes       its size.
     * @return completed with the flow's record when its last byte is acknowledged.
     */
    CompletableFuture<FlowRecord> send(int destinationHost, long sizeBytes);

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
