package io.pfabric.switchd.table;

import org.agrona.collections.Long2LongHashMap;

/**
 * Learned MAC addresses for the single-switch learning mode: which port each source address was last seen on, up to
 * a fixed number of addresses (further new addresses are flooded to, not learned). Allocates nothing once full.
 */
public final class MacTable
{
    /**
     * Returned by {@link #port(long)} for an address not learned.
     */
    public static final int UNKNOWN = -1;

    private final Long2LongHashMap portByMac;
    private final int capacity;

    /**
     * A table for up to a number of addresses.
     *
     * @param capacity most addresses learned.
     */
    public MacTable(final int capacity)
    {
        this.capacity = capacity;
        this.portByMac = new Long2LongHashMap(2 * capacity, 0.65f, UNKNOWN);
    }

    /**
     * Record that a source address was seen on a port.
     *
     * @param mac  the source MAC address, 48 bits.
     * @param port where it was seen.
     */
    public void learn(final long mac, final int port)
    {
        if (port != portByMac.get(mac) && (portByMac.size() < capacity || UNKNOWN != portByMac.get(mac)))
        {
            portByMac.put(mac, port);
        }
    }

    /**
     * Where an address was last seen.
     *
     * @param mac the destination MAC address.
     * @return the port, or {@link #UNKNOWN}.
     */
    public int port(final long mac)
    {
        return (int)portByMac.get(mac);
    }

    /**
     * Addresses learned.
     *
     * @return the count.
     */
    public int size()
    {
        return portByMac.size();
    }
}
