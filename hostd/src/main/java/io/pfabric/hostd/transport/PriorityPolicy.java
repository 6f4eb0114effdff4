package io.pfabric.hostd.transport;

/**
 * What a data packet's priority number says (smaller is more urgent); ACKs always carry 0.
 */
public enum PriorityPolicy
{
    /**
     * The flow's remaining size: bytes neither cumulatively acknowledged nor SACKed (pFabric's SRPT approximation).
     */
    REMAINING_SIZE,

    /**
     * The flow's whole size in bytes (shortest flow first, whatever has been sent).
     */
    FLOW_SIZE,

    /**
     * The flow's deadline in microseconds since the transport started (earliest deadline first).
     */
    DEADLINE
}
