package io.pfabric.common.topology;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;

/**
 * The forwarding table a switch derives from a topology: for each host, the switch's ports that lie on a shortest
 * path toward it, counting hops over switch-to-switch links. All equal-cost ports are listed, in port declaration
 * order: they are what the switch sprays packets over or hashes flows across.
 */
public final class Routes
{
    private Routes()
    {
    }

    /**
     * Compute the routes of one switch.
     * <p>
     * On the switch a host is attached to, the route is the host's port only. On any other switch it is every port
     * whose link leads to a switch one hop closer to the host's switch.
     *
     * @param topology   the fabric.
     * @param switchName the switch whose routes to compute.
     * @return for each host name in declaration order, the names of the ports toward it in declaration order.
     * @throws TopologyException if the switch is unknown or a host cannot be reached from it.
     */
    public static Map<String, List<String>> compute(final Topology topology, final String switchName)
    {
        final SwitchSpec self = topology.switchNamed(switchName);
        if (null == self)
        {
            throw new TopologyException("the topology has no switch '" + switchName + "'");
        }
        final Map<String, Map<String, Integer>> hopsByHomeSwitch = new HashMap<>();
        final Map<String, List<String>> routes = new LinkedHashMap<>();
        for (final HostSpec host : topology.hosts())
        {
            if (host.switchName().equals(switchName))
            {
                routes.put(host.name(), List.of(host.portName()));
            }
            else
            {
                final Map<String, Integer> hops =
                    hopsByHomeSwitch.computeIfAbsent(host.switchName(), home -> hopsFrom(topology, home));
                final Integer ownHops = hops.get(switchName);
                if (null == ownHops)
                {
                    throw new TopologyException("host '" + host.name() + "' is unreachable from switch '" +
                        switchName + "': no chain of links joins it to switch '" + host.switchName() +
                        "' where the host is attached");
                }
                final List<String> ports = new ArrayList<>();
                for (final PortSpec port : self.ports())
                {
                    final PortRef peer = topology.peer(switchName, port.name());
                    if (null != peer && Integer.valueOf(ownHops - 1).equals(hops.get(peer.switchName())))
                    {
                        ports.add(port.name());
                    }
                }
                routes.put(host.name(), List.copyOf(ports));
            }
        }
        return Collections.unmodifiableMap(routes);
    }

    private static Map<String, Integer> hopsFrom(final Topology topology, final String homeSwitch)
    {
        final Map<String, Integer> hops = new HashMap<>();
        final Queue<String> frontier = new ArrayDeque<>();
        hops.put(homeSwitch, 0);
        frontier.add(homeSwitch);
        while (!frontier.isEmpty())
        {
            final String switchName = frontier.remove();
            final int next = hops.get(switchName) + 1;
            for (final PortSpec port : topology.switchNamed(switchName).ports())
            {
                final PortRef peer = topology.peer(switchName, port.name());
                if (null != peer && null == hops.putIfAbsent(peer.switchName(), next))
                {
                    frontier.add(peer.switchName());
                }
            }
        }
        return hops;
    }
}
