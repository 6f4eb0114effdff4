package io.pfabric.hostd.transport;

/**
 * A flow that never had every byte acknowledged: the transport closed first, or the receiver restarted after it had
 * acknowledged some of the flow's bytes, which the new start of the receiver never got.
 */
public final class IncompleteFlowException extends RuntimeException
{
    /**
     * {@link #reason()} of a flow still in progress when its transport closed.
     */
    public static final String TRANSPORT_CLOSED = "the transport closed";

    /**
     * {@link #reason()} of a flow whose receiver restarted (an ACK carried another incarnation of the receiving host)
     * after it had acknowledged some of the flow's bytes: the new start never got them and cannot deliver the flow.
     */
    public static final String RECEIVER_RESTARTED =
        "the receiver restarted after acknowledging part of the flow, which the new start cannot deliver";

    /**
     * {@link #reason()} of a flow its application gave up before it completed ({@link HostTransport#abandon}).
     */
    public static final String ABANDONED = "given up by its application";

    private static final long serialVersionUID = 1L;

    private final transient FlowRecord record;
    private final String reason;

    /**
     * For a flow still in progress when its transport closed.
     *
     * @param record what the flow achieved.
     */
    public IncompleteFlowException(final FlowRecord record)
    {
        this(record, TRANSPORT_CLOSED);
    }

    /**
     * For a flow given up.
     *
     * @param record what the flow achieved.
     * @param reason why it cannot complete, such as {@link #TRANSPORT_CLOSED} or {@link #RECEIVER_RESTARTED}.
     */
    public IncompleteFlowException(final FlowRecord record, final String reason)
    {
        super("flow " + Long.toHexString(record.flowId()) + " to host " + record.destinationHost() +
            " incomplete: " + reason);
        this.record = record;
        this.reason = reason;
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

    /**
     * Why the flow cannot complete.
     *
     * @return {@link #TRANSPORT_CLOSED}, {@link #RECEIVER_RESTARTED} or another reason.
     */
    public String reason()
    {
        return reason;
    }
}
