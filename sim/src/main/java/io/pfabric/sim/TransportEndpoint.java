package io.pfabric.sim;

import io.pfabric.hostd.transport.FlowRecord;
import io.pfabric.hostd.transport.HostTransport;

import java.util.concurrent.CompletableFuture;

/**
 * hostd's transport as a simulated host's endpoint: with an admission, a transport that the admission holds back is
 * next due when the admission says.
 */
final class TransportEndpoint implements Endpoint
{
    private final HostTransport transport;
    private final SimAdmission admission;
    private final Simulator simulator;
    private int lastWork = 1;

    TransportEndpoint(final HostTransport transport, final SimAdmission admission, final Simulator simulator)
    {
        this.transport = transport;
        this.admission = admission;
        this.simulator = simulator;
    }

    public CompletableFuture<FlowRecord> send(final int destinationHost, final long sizeBytes, final int dscp)
    {
        return transport.send(destinationHost, sizeBytes, dscp);
    }

    public CompletableFuture<FlowRecord> send(final int destinationHost, final long sizeBytes, final int dscp,
        final long deadlineNs)
    {
        return transport.send(destinationHost, sizeBytes, dscp, deadlineNs);
    }

    public int poll()
    {
        lastWork = transport.poll();
        return lastWork;
    }

    public long nextDeadlineNs()
    {
        final long next = transport.nextDeadlineNs();
        if (null != admission && 0 == lastWork && next <= simulator.nowNs())
        {
            // Held back: every flow with room waits for its admission.
            return admission.nextAdmitNs(simulator.nowNs());
        }
        return next;
    }
}
