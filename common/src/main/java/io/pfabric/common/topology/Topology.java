package io.pfabric.common.topology;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A whole fabric: its hosts, its switches with their ports, and the links between switches. Immutable and always
 * consistent: names are unique, every reference resolves, each port leads to at most one host or one other switch.
 * <p>
 * Read one with {@link TopologyParser}, generate one with {@link Topologies}, write one with {@link #toYaml()}.
 */
public final class Topology
{
    private final List<HostSpec> hosts;
    private final List<SwitchSpec> switches;
    private final List<LinkSpec> links;
    private final Map<String, HostSpec> hostByName = new HashMap<>();
    private final Map<String, SwitchSpec> switchByName = new HashMap<>();
    private final Map<Integer, HostSpec> hostByIp = new HashMap<>();
    private final Map<PortRef, HostSpec> hostByPort = new HashMap<>();
    private final Map<PortRef, PortRef> peerByPort = new HashMap<>();
    private final Map<PortRef, LinkSpec> linkByPort = new HashMap<>();

    /**
     * A topology built in code.
     *
     * @param hosts    in declaration order.
     * @param switches in declaration order.
     * @param links    in declaration order.
     * @throws TopologyException if the parts do not fit together.
     */
    public Topology(final List<HostSpec> hosts, final List<SwitchSpec> switches, final List<LinkSpec> links)
    {
        this(hosts, switches, links, SourceLocator.NONE);
    }

    Topology(
        final List<HostSpec> hosts,
        final List<SwitchSpec> switches,
        final List<LinkSpec> links,
        final SourceLocator locator)
    {
        this.hosts = List.copyOf(hosts);
        this.switches = List.copyOf(switches);
        this.links = List.copyOf(links);
        indexSwitches(locator);
        indexHosts(locator);
        indexLinks(locator);
    }

    /**
     * The hosts.
     *
     * @return in declaration order.
     */
    public List<HostSpec> hosts()
    {
        return hosts;
    }

    /**
     * The switches.
     *
     * @return in declaration order.
     */
    public List<SwitchSpec> switches()
    {
        return switches;
    }

    /**
     * The switch-to-switch links.
     *
     * @return in declaration order.
     */
    public List<LinkSpec> links()
    {
        return links;
    }

    /**
     * A host by name.
     *
     * @param name of the host.
     * @return the host, or null if there is none by that name.
     */
    public HostSpec host(final String name)
    {
        return hostByName.get(name);
    }

    /**
     * A switch by name.
     *
     * @param name of the switch.
     * @return the switch, or null if there is none by that name.
     */
    public SwitchSpec switchNamed(final String name)
    {
        return switchByName.get(name);
    }

    /**
     * A host by IPv4 address.
     *
     * @param ip first octet in the most significant byte.
     * @return the host, or null if no host has that address.
     */
    public HostSpec hostByIp(final int ip)
    {
        return hostByIp.get(ip);
    }

    /**
     * The host a switch port leads to.
     *
     * @param switchName name of the switch.
     * @param portName   name of the port.
     * @return the host attached to that port, or null if there is none.
     */
    public HostSpec hostAt(final String switchName, final String portName)
    {
        return hostByPort.get(new PortRef(switchName, portName));
    }

    /**
     * The port at the other end of a switch port's link.
     *
     * @param switchName name of the switch.
     * @param portName   name of the port.
     * @return the other end, or null if no link ends at that port.
     */
    public PortRef peer(final String switchName, final String portName)
    {
        return peerByPort.get(new PortRef(switchName, portName));
    }

    /**
     * The ports of a switch that lead toward each host on shortest paths: see {@link Routes#compute}.
     *
     * @param switchName name of the switch.
     * @return for each host name in declaration order, the port names in declaration order.
     * @throws TopologyException if the switch is unknown or a host cannot be reached from it.
     */
    public Map<String, List<String>> routes(final String switchName)
    {
        return Routes.compute(this, switchName);
    }

    /**
     * This topology as a YAML file that {@link TopologyParser} reads back into an equal topology.
     *
     * @return the YAML text.
     */
    public String toYaml()
    {
        return TopologyWriter.write(this);
    }

    /**
     * Equal when the hosts, switches and links are equal and in the same order.
     *
     * @param other object to compare.
     * @return true if equal.
     */
    public boolean equals(final Object other)
    {
        return this == other || (other instanceof Topology that &&
            hosts.equals(that.hosts) && switches.equals(that.switches) && links.equals(that.links));
    }

    /**
     * Hash of the hosts, switches and links.
     *
     * @return the hash code.
     */
    public int hashCode()
    {
        return 31 * (31 * hosts.hashCode() + switches.hashCode()) + links.hashCode();
    }

    /**
     * A short summary.
     *
     * @return the counts of hosts, switches and links.
     */
    public String toString()
    {
        return "Topology[" + hosts.size() + " hosts, " + switches.size() + " switches, " + links.size() + " links]";
    }

    private void indexSwitches(final SourceLocator locator)
    {
        for (final SwitchSpec switchSpec : switches)
        {
            final SwitchSpec previous = switchByName.putIfAbsent(switchSpec.name(), switchSpec);
            if (null != previous)
            {
                throw locator.error(switchSpec, "name",
                    "switch '" + switchSpec.name() + "' is declared twice" + firstAt(locator, previous));
            }
            final Map<String, PortSpec> portByName = new HashMap<>();
            final Map<String, PortSpec> portByInterface = new HashMap<>();
            for (final PortSpec port : switchSpec.ports())
            {
                final PortSpec samePort = portByName.putIfAbsent(port.name(), port);
                if (null != samePort)
                {
                    throw locator.error(port, "name", "switch '" + switchSpec.name() + "': port '" + port.name() +
                        "' is declared twice" + firstAt(locator, samePort));
                }
                if (null != port.interfaceName())
                {
                    final PortSpec sameInterface = portByInterface.putIfAbsent(port.interfaceName(), port);
                    if (null != sameInterface)
                    {
                        throw locator.error(port, "interface", portContext(switchSpec, port) + ": interface '" +
                            port.interfaceName() + "' is already used by port '" + sameInterface.name() + "'" +
                            at(locator, sameInterface));
                    }
                }
            }
        }
    }

    private void indexHosts(final SourceLocator locator)
    {
        final Map<Long, HostSpec> hostByMac = new HashMap<>();
        for (final HostSpec host : hosts)
        {
            final String context = "host '" + host.name() + "'";
            final HostSpec sameName = hostByName.putIfAbsent(host.name(), host);
            if (null != sameName)
            {
                throw locator.error(host, "name", context + " is declared twice" + firstAt(locator, sameName));
            }
            final SwitchSpec sameNameSwitch = switchByName.get(host.name());
            if (null != sameNameSwitch)
            {
                throw locator.error(host, "name", context + ": the name is already used by switch '" +
                    sameNameSwitch.name() + "'" + at(locator, sameNameSwitch) + "; hosts and switches share names");
            }
            final HostSpec sameIp = hostByIp.putIfAbsent(host.ip(), host);
            if (null != sameIp)
            {
                throw locator.error(host, "ip", context + ": ip " + host.ipText() + " is already used by host '" +
                    sameIp.name() + "'" + at(locator, sameIp));
            }
            final HostSpec sameMac = hostByMac.putIfAbsent(host.mac(), host);
            if (null != sameMac)
            {
                throw locator.error(host, "mac", context + ": mac " + host.macText() + " is already used by host '" +
                    sameMac.name() + "'" + at(locator, sameMac));
            }
            final SwitchSpec switchSpec = switchByName.get(host.switchName());
            if (null == switchSpec)
            {
                throw locator.error(host, "switch", context + ": " + unknownSwitch(host.switchName()));
            }
            if (null == switchSpec.port(host.portName()))
            {
                throw locator.error(host, "port", context + ": switch '" + switchSpec.name() + "' has no port '" +
                    host.portName() + "'");
            }
            final HostSpec samePort = hostByPort.putIfAbsent(host.attachment(), host);
            if (null != samePort)
            {
                throw locator.error(host, "port", context + ": port " + host.attachment() + " already leads to host '" +
                    samePort.name() + "'" + at(locator, samePort) + "; a port leads to one host");
            }
        }
    }

    private void indexLinks(final SourceLocator locator)
    {
        for (final LinkSpec link : links)
        {
            checkLinkEnd(link, link.a(), locator);
            checkLinkEnd(link, link.b(), locator);
            if (link.a().switchName().equals(link.b().switchName()))
            {
                throw locator.error(link, null, "link " + link + ": both ends are on switch '" +
                    link.a().switchName() + "'; a link joins two switches");
            }
            linkByPort.put(link.a(), link);
            linkByPort.put(link.b(), link);
            peerByPort.put(link.a(), link.b());
            peerByPort.put(link.b(), link.a());
        }
    }

    private void checkLinkEnd(final LinkSpec link, final PortRef end, final SourceLocator locator)
    {
        final String context = "link " + link + ": ";
        final SwitchSpec switchSpec = switchByName.get(end.switchName());
        if (null == switchSpec)
        {
            throw locator.error(end, null, context + unknownSwitch(end.switchName()));
        }
        if (null == switchSpec.port(end.portName()))
        {
            throw locator.error(end, null, context + "switch '" + end.switchName() + "' has no port '" +
                end.portName() + "'");
        }
        final HostSpec host = hostByPort.get(end);
        if (null != host)
        {
            throw locator.error(end, null, context + "port " + end + " leads to host '" + host.name() + "'" +
                at(locator, host) + "; a port leads to a host or to another switch, not both");
        }
        final LinkSpec other = linkByPort.get(end);
        if (null != other)
        {
            throw locator.error(end, null, context + "port " + end + " is already an end of link " + other +
                at(locator, other) + "; a port has one link");
        }
    }

    private static String portContext(final SwitchSpec switchSpec, final PortSpec port)
    {
        return "switch '" + switchSpec.name() + "' port '" + port.name() + "'";
    }

    private static String unknownSwitch(final String switchName)
    {
        return "switch '" + switchName + "' is not declared under switches";
    }

    private static String firstAt(final SourceLocator locator, final Object first)
    {
        final int line = locator.line(first);
        return 0 == line ? "" : " (first at line " + line + ")";
    }

    private static String at(final SourceLocator locator, final Object element)
    {
        final int line = locator.line(element);
        return 0 == line ? "" : " (line " + line + ")";
    }
}
