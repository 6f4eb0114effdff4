package io.pfabric.switchd;

/**
 * What a switch port counts besides its egress queue's own counters.
 */
public enum PortCounter
{
    /** Frames taken from the port's receive ring. */
    RECEIVED_FRAMES,
    /** Frames placed in the port's transmit ring. */
    TRANSMITTED_FRAMES,
    /** Received frames dropped because they did not parse; see the per-reason counters of the switch. */
    DROPPED_MALFORMED,
    /** Received IPv4 frames for an address of no known host. */
    DROPPED_NO_ROUTE,
    /** Received frames that are neither IPv4 nor ARP. */
    DROPPED_UNSUPPORTED,
    /** ARP requests answered by the switch from its host table. */
    ARP_REPLIES,
    /** ARP frames not answered: replies, or requests for an unknown address. */
    ARP_IGNORED,
    /** Frames the receive ring dropped as longer than the port's maximum. */
    DROPPED_OVERSIZE,
    /** Frames the kernel dropped because the receive ring was full. */
    DROPPED_RING_FULL,
    /** Flushes that asked the kernel again for frames it had left in the transmit ring (its send buffer was full). */
    TRANSMIT_RETRIES,
    /** Learning mode: received frames flooded to every other port (broadcast, multicast, unknown destination). */
    FLOODED_FRAMES,
    /** Times the port's link went down (interface down or no carrier); the forwarder sprays around it meanwhile. */
    LINK_DOWNS,
    /** Times the port's link came back up. */
    LINK_UPS,
    /** Frames sent to another equal-cost port because the one chosen for them had its link down. */
    REROUTED_AROUND_DOWN_LINK,
    /** Times the port's interface was deleted (or replaced by another of the same name) and the port closed. */
    INTERFACE_LOSSES,
    /** Times the port was opened again, on a new interface of its interface's name, after losing its interface. */
    REOPENS,
    /** Frames for the port dropped while its interface was gone: those it held when it went, and those after. */
    DROPPED_INTERFACE_GONE,
    /** Frames received on the port and queued at another AF_XDP port of the switch's shared UMEM without a copy. */
    FORWARDED_WITHOUT_COPY,
    /** Frames for the port dropped because the shared UMEM had no free frame to copy them into. */
    DROPPED_NO_UMEM_FRAME
}
