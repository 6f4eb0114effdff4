package io.pfabric.testbed;

import io.pfabric.common.os.Commands;
import io.pfabric.common.os.HostTools;
import io.pfabric.common.topology.HostSpec;
import io.pfabric.common.topology.LinkSpec;
import io.pfabric.common.topology.PortSpec;
import io.pfabric.common.topology.SwitchSpec;
import io.pfabric.common.topology.Topology;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A topology made real in network namespaces: one namespace per switch and per host, all named
 * {@code <prefix>-<name>}; a veth pair per host attachment (the switch end named as the topology's port interface, the
 * host end {@code eth0} with the host's MAC and address, offloads off) and per switch-to-switch link. IPv6 is off
 * everywhere so that the kernel sends nothing of its own. {@link #close()} and {@link #removeLeftovers(String)}
 * delete every namespace of the prefix, which deletes their links.
 */
public final class NetnsFabric implements AutoCloseable
{
    private final Topology topology;
    private final String prefix;
    private final List<String> created = new ArrayList<>();

    /**
     * The tools that building a fabric runs: namespaces and links, offloads, and sysctls inside the namespaces.
     */
    public static final String[] TOOLS = { "ip", "ethtool", "sysctl" };

    private NetnsFabric(final Topology topology, final String prefix)
    {
        this.topology = topology;
        this.prefix = prefix;
    }

    /**
     * Build the namespaces and links of a topology.
     *
     * @param topology the fabric.
     * @param prefix   of every namespace name, letters, digits and dashes.
     * @return the fabric.
     * @throws IOException if a tool of {@link #TOOLS} is not installed (saying how to install it), or a command
     *                     fails; whatever was made is removed.
     */
    public static NetnsFabric build(final Topology topology, final String prefix) throws IOException
    {
        if (!prefix.matches("[A-Za-z0-9-]{1,20}"))
        {
            throw new IllegalArgumentException("namespace prefix must be 1-20 letters, digits or dashes: " + prefix);
        }
        HostTools.require(TOOLS);
        final NetnsFabric fabric = new NetnsFabric(topology, prefix);
        try
        {
            fabric.create();
            return fabric;
        }
        catch (final IOException | RuntimeException ex)
        {
            fabric.close();
            throw ex;
        }
    }

    /**
     * A fabric whose namespaces and links already exist (made by another process); closing it removes nothing.
     *
     * @param topology the fabric.
     * @param prefix   of its namespace names.
     * @return the fabric.
     */
    public static NetnsFabric existing(final Topology topology, final String prefix)
    {
        return new NetnsFabric(topology, prefix);
    }

    /**
     * The namespace of a switch or host.
     *
     * @param name of the switch or host in the topology.
     * @return the namespace name.
     */
    public String namespace(final String name)
    {
        return prefix + "-" + name;
    }

    /**
     * The topology.
     *
     * @return the topology.
     */
    public Topology topology()
    {
        return topology;
    }

    private void create() throws IOException
    {
        for (final SwitchSpec sw : topology.switches())
        {
            addNamespace(sw.name());
        }
        for (final HostSpec host : topology.hosts())
        {
            addNamespace(host.name());
            attach(host);
        }
        for (final LinkSpec link : topology.links())
        {
            attach(link);
        }
    }

    private void attach(final LinkSpec link) throws IOException
    {
        final PortSpec a = topology.switchNamed(link.a().switchName()).port(link.a().portName());
        final PortSpec b = topology.switchNamed(link.b().switchName()).port(link.b().portName());
        final String aNamespace = namespace(link.a().switchName());
        final String bNamespace = namespace(link.b().switchName());
        run("ip", "-n", aNamespace, "link", "add", a.interfaceName(), "type", "veth", "peer", "name",
            b.interfaceName(), "netns", bNamespace);
        switchSide(aNamespace, a.interfaceName());
        switchSide(bNamespace, b.interfaceName());
    }

    /**
     * Delete a link between two switches: the veth pair, both switches' interfaces at once ({@code ip link del}).
     *
     * @param link of the topology.
     * @throws IOException if it cannot be deleted.
     */
    public void deleteLink(final LinkSpec link) throws IOException
    {
        run("ip", "-n", namespace(link.a().switchName()), "link", "del",
            topology.switchNamed(link.a().switchName()).port(link.a().portName()).interfaceName());
    }

    /**
     * Create a link between two switches again after {@link #deleteLink(LinkSpec)}, as it was built: a new veth pair
     * of the same names and settings, both ends up.
     *
     * @param link of the topology.
     * @throws IOException if it cannot be created.
     */
    public void createLink(final LinkSpec link) throws IOException
    {
        attach(link);
    }

    private void attach(final HostSpec host) throws IOException
    {
        final String switchNamespace = namespace(host.switchName());
        final String hostNamespace = namespace(host.name());
        final String interfaceName = switchInterface(host);
        run("ip", "-n", switchNamespace, "link", "add", interfaceName, "type", "veth", "peer", "name", "eth0",
            "netns", hostNamespace);
        run("ip", "-n", hostNamespace, "link", "set", "eth0", "address", host.macText());
        run("ip", "-n", hostNamespace, "addr", "add", host.ipText() + "/8", "dev", "eth0");
        run("ip", "netns", "exec", hostNamespace, "ethtool", "-K", "eth0", "rx", "off", "tx", "off", "sg", "off",
            "tso", "off", "gso", "off", "gro", "off");
        run("ip", "-n", hostNamespace, "link", "set", "eth0", "up");
        switchSide(switchNamespace, interfaceName);
    }

    private String switchInterface(final HostSpec host)
    {
        return topology.switchNamed(host.switchName()).port(host.portName()).interfaceName();
    }

    /**
     * Delete a host's link: the veth pair between its {@code eth0} and its switch's interface, as a cable pulled out
     * and the switch's NIC taken away with it ({@code ip link del}).
     *
     * @param hostName the host.
     * @throws IOException if the link cannot be deleted.
     */
    public void deleteHostLink(final String hostName) throws IOException
    {
        final HostSpec host = topology.host(hostName);
        run("ip", "-n", namespace(host.switchName()), "link", "del", switchInterface(host));
    }

    /**
     * Create a host's link again after {@link #deleteHostLink(String)}, as it was built: a new veth pair (new
     * interface indexes) of the same names, addresses and settings, both ends up.
     *
     * @param hostName the host.
     * @throws IOException if the link cannot be created.
     */
    public void createHostLink(final String hostName) throws IOException
    {
        attach(topology.host(hostName));
    }

    private void addNamespace(final String name) throws IOException
    {
        final String namespace = namespace(name);
        run("ip", "netns", "add", namespace);
        created.add(namespace);
        run("ip", "netns", "exec", namespace, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1",
            "net.ipv6.conf.default.disable_ipv6=1");
        run("ip", "-n", namespace, "link", "set", "lo", "up");
    }

    private static void switchSide(final String namespace, final String interfaceName) throws IOException
    {
        run("ip", "netns", "exec", namespace, "ethtool", "-K", interfaceName, "gro", "off");
        run("ip", "-n", namespace, "link", "set", interfaceName, "up");
    }

    /**
     * Run a command to completion.
     *
     * @param command and its arguments.
     * @return its output.
     * @throws IOException if it fails; see {@link Commands#run(String...)}.
     */
    public static String run(final String... command) throws IOException
    {
        return Commands.run(command);
    }

    /**
     * Delete every namespace whose name starts with {@code prefix-}, whoever made it: what a crashed run left.
     *
     * @param prefix of the namespaces.
     * @return the namespaces deleted.
     * @throws IOException if listing or deleting fails.
     */
    public static List<String> removeLeftovers(final String prefix) throws IOException
    {
        final List<String> removed = new ArrayList<>();
        for (final String line : run("ip", "netns", "list").split("\n"))
        {
            final String name = line.trim().split(" ")[0];
            if (name.startsWith(prefix + "-"))
            {
                run("ip", "netns", "del", name);
                removed.add(name);
            }
        }
        return removed;
    }

    /**
     * Delete the namespaces this fabric made.
     *
     * @throws IOException if one could not be deleted; the others are still deleted.
     */
    public void close() throws IOException
    {
        try
        {
            Commands.deleteNamespaces(created);
        }
        finally
        {
            created.clear();
        }
    }
}
