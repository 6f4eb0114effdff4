package io.pfabric.sim;

/**
 * Where a simulated port sits on a packet's path, fixed when the fabric is built: the source host's NIC (the first
 * hop), a switch-to-switch link (the core), or a switch's port down to a host (the last hop).
 */
public enum PortRole
{
    /**
     * A host's NIC: the first queue a packet meets.
     */
    NIC,
    /**
     * A switch's port to another switch: a leaf's uplink, a spine's downlink, any link of a fat-tree between switches.
     */
    CORE,
    /**
     * A switch's port to a host: the last queue a packet meets.
     */
    LAST_HOP
}
