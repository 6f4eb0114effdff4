package io.pfabric.hostd.transport;

/**
 * A flow that never had every byte acknowledged: the transport closed first.
 */
public final class IncompleteFlowException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final transient FlowRecord record;

    /**
     * For a flow.
     *
     * @param record what the flow achieved.
     */
    public IncompleteFlowException(final FlowRecord record)
    {
        super("flow " + Long.toHexString(record.flowId()) + " to host " + record.destinationHost() +
            " incomplete: the transport closed");
        this.record = record;
    }

    /**
     * What the flow achieved.
     *
     * @return its record, with no end time.
     */
    public FlowRecord record()
    {
        return record;
    }
}
