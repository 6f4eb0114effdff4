package io.pfabric.switchd.table;

import org.agrona.collections.Int2IntHashMap;

import java.util.Arrays;

/**
 * Where each host is from one switch: its IPv4 address, its MAC address (the switch answers ARP with it) and the
 * switch's egress ports toward it, several when paths of equal cost exist. Built once on the cold path; lookups
 * allocate nothing.
 */
public final class ForwardingTable
{
    /**
     * Returned by {@link #route(int)} for an address of no known host.
     */
    public static final int NO_ROUTE = -1;

    private final Int2IntHashMap routeByAddress = new Int2IntHashMap(NO_ROUTE);
    private long[] macs = new long[0];
    private int[][] ports = new int[0][];

    /**
     * Add a host. Cold path.
     *
     * @param address     the host's IPv4 address.
     * @param mac         the host's MAC address, 48 bits.
     * @param egressPorts this switch's port indices toward the host, at least one.
     * @return this for a fluent API.
     */
    public ForwardingTable addHost(final int address, final long mac, final int... egressPorts)
    {
        if (0 == egressPorts.length)
        {
            throw new IllegalArgumentException("a host needs at least one egress port");
        }
        if (NO_ROUTE != routeByAddress.get(address))
        {
            throw new IllegalArgumentException("address already in the table: " + address);
        }
        final int route = macs.length;
        macs = Arrays.copyOf(macs, route + 1);
        ports = Arrays.copyOf(ports, route + 1);
        macs[route] = mac;
        ports[route] = egressPorts.clone();
        routeByAddress.put(address, route);
        return this;
    }

    /**
     * The route to an address.
     *
     * @param address IPv4 address.
     * @return the route index, or {@link #NO_ROUTE}.
     */
    public int route(final int address)
    {
        return routeByAddress.get(address);
    }

    /**
     * The MAC address of a route's host.
     *
     * @param route index.
     * @return the MAC address, 48 bits.
     */
    public long mac(final int route)
    {
        return macs[route];
    }

    /**
     * The egress ports of a route; do not modify.
     *
     * @param route index.
     * @return the port indices.
     */
    public int[] ports(final int route)
    {
        return ports[route];
    }

    /**
     * Number of hosts.
     *
     * @return the count.
     */
    public int size()
    {
        return macs.length;
    }
}
