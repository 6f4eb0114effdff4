package io.pfabric.common.topology;

import java.util.ArrayList;
import java.util.List;

/**
 * Generates the fabrics the testbeds build: a star of hosts around one switch, a two-tier leaf-spine, and a three-tier
 * fat-tree. All ports
 * are raw-socket ports on interfaces named {@code <prefix><switch>-<port>} (such as {@code pf-s1-p1}), which the
 * testbed creates as veth pairs; every switch sprays.
 */
public final class Topologies
{
    private static final int MAX_HOSTS_PER_SWITCH = 254;
    private static final int MAX_LEAVES = 255;

    /**
     * The largest K of {@link #fatTree}: its K^2/2 edge switches number the third octet of their hosts' addresses.
     */
    public static final int MAX_FAT_TREE_K = 22;

    private Topologies()
    {
    }

    /**
     * One switch {@code s1} with ports {@code p1..pN}, port {@code pi} leading to host {@code hi} with IP
     * {@code 10.0.0.i} and MAC {@code 02:00:0a:00:00:ii} (i in hex).
     *
     * @param hosts           number of hosts, 1 to 254.
     * @param interfacePrefix prepended to each interface name, such as {@code pf-}; may be empty.
     * @param rateBitsPerSec  line rate of every port; 0 for unpaced.
     * @param discipline      queue discipline of every port, one of {@link PortSpec#DISCIPLINES}.
     * @return the topology.
     * @throws IllegalArgumentException if a count is out of range or an interface name would exceed 15 characters.
     */
    public static Topology star(
        final int hosts, final String interfacePrefix, final long rateBitsPerSec, final String discipline)
    {
        requireRange("hosts", hosts, 1, MAX_HOSTS_PER_SWITCH);
        final List<HostSpec> hostSpecs = new ArrayList<>(hosts);
        final List<PortSpec> ports = new ArrayList<>(hosts);
        for (int i = 1; i <= hosts; i++)
        {
            ports.add(port(interfacePrefix, "s1", "p" + i, rateBitsPerSec, discipline));
            hostSpecs.add(host("h" + i, 0, i, "s1", "p" + i));
        }
        return new Topology(hostSpecs, List.of(new SwitchSpec("s1", Multipath.SPRAY, ports)), List.of());
    }

    /**
     * A star whose host ports are VXLAN-over-UDP tunnels on loopback, so that a switch and its hosts run with no
     * privilege: port {@code pi} of {@code s1} listens on 127.0.0.1 at {@code firstUdpPort + 2(i - 1)} and its host
     * at the next port, VNI i. Hosts as in {@link #star}.
     *
     * @param hosts          number of hosts, 1 to 254.
     * @param firstUdpPort   the first of the 2 x hosts consecutive UDP ports used.
     * @param rateBitsPerSec line rate of every port; 0 for unpaced.
     * @param discipline     queue discipline of every port, one of {@link PortSpec#DISCIPLINES}.
     * @return the topology.
     * @throws IllegalArgumentException if a count or port is out of range.
     */
    public static Topology starOverUdp(
        final int hosts, final int firstUdpPort, final long rateBitsPerSec, final String discipline)
    {
        requireRange("hosts", hosts, 1, MAX_HOSTS_PER_SWITCH);
        requireRange("firstUdpPort", firstUdpPort, 1024, 65535 - 2 * hosts);
        final List<HostSpec> hostSpecs = new ArrayList<>(hosts);
        final List<PortSpec> ports = new ArrayList<>(hosts);
        for (int i = 1; i <= hosts; i++)
        {
            final int switchEnd = firstUdpPort + 2 * (i - 1);
            ports.add(PortSpec.ofUdp("p" + i, UdpEndpoints.of("127.0.0.1:" + switchEnd,
                "127.0.0.1:" + (switchEnd + 1), i), rateBitsPerSec, discipline, 0));
            hostSpecs.add(host("h" + i, 0, i, "s1", "p" + i));
        }
        return new Topology(hostSpecs, List.of(new SwitchSpec("s1", Multipath.SPRAY, ports)), List.of());
    }

    /**
     * A two-tier fabric: leaves {@code l1..lL}, spines {@code sp1..spS}, and every leaf linked to every spine.
     * <p>
     * Leaf {@code lj} has host ports {@code p1..pH} then uplinks {@code u1..uS}, uplink {@code uk} linked to port
     * {@code dj} of spine {@code spk}; each spine has ports {@code d1..dL}. Hosts are numbered {@code h1..h(L*H)}
     * leaf by leaf; host i of leaf j has IP {@code 10.0.j.i} and MAC {@code 02:00:0a:00:jj:ii} (in hex).
     *
     * @param leaves          number of leaf switches, 1 to 255.
     * @param hostsPerLeaf    hosts on each leaf, 1 to 254.
     * @param spines          number of spine switches, at least 1.
     * @param interfacePrefix prepended to each interface name, such as {@code pf-}; may be empty.
     * @param rateBitsPerSec  line rate of every port; 0 for unpaced.
     * @param discipline      queue discipline of every port, one of {@link PortSpec#DISCIPLINES}.
     * @return the topology.
     * @throws IllegalArgumentException if a count is out of range or an interface name would exceed 15 characters.
     */
    public static Topology leafSpine(
        final int leaves,
        final int hostsPerLeaf,
        final int spines,
        final String interfacePrefix,
        final long rateBitsPerSec,
        final String discipline)
    {
        requireRange("leaves", leaves, 1, MAX_LEAVES);
        requireRange("hostsPerLeaf", hostsPerLeaf, 1, MAX_HOSTS_PER_SWITCH);
        requireRange("spines", spines, 1, Integer.MAX_VALUE);
        final List<HostSpec> hosts = new ArrayList<>(leaves * hostsPerLeaf);
        final List<SwitchSpec> switches = new ArrayList<>(leaves + spines);
        final List<LinkSpec> links = new ArrayList<>(leaves * spines);
        for (int leaf = 1; leaf <= leaves; leaf++)
        {
            final String leafName = "l" + leaf;
            final List<PortSpec> ports = new ArrayList<>(hostsPerLeaf + spines);
            for (int i = 1; i <= hostsPerLeaf; i++)
            {
                ports.add(port(interfacePrefix, leafName, "p" + i, rateBitsPerSec, discipline));
                hosts.add(host("h" + ((leaf - 1) * hostsPerLeaf + i), leaf, i, leafName, "p" + i));
            }
            for (int spine = 1; spine <= spines; spine++)
            {
                ports.add(port(interfacePrefix, leafName, "u" + spine, rateBitsPerSec, discipline));
                links.add(
                    new LinkSpec(new PortRef(leafName, "u" + spine), new PortRef("sp" + spine, "d" + leaf)));
            }
            switches.add(new SwitchSpec(leafName, Multipath.SPRAY, ports));
        }
        for (int spine = 1; spine <= spines; spine++)
        {
            final String spineName = "sp" + spine;
            final List<PortSpec> ports = new ArrayList<>(leaves);
            for (int leaf = 1; leaf <= leaves; leaf++)
            {
                ports.add(port(interfacePrefix, spineName, "d" + leaf, rateBitsPerSec, discipline));
            }
            switches.add(new SwitchSpec(spineName, Multipath.SPRAY, ports));
        }
        return new Topology(hosts, switches, links);
    }

    /**
     * The three-tier fat-tree of K-port switches (Al-Fares et al., SIGCOMM 2008): K pods, each of K/2 edge switches and
     * K/2 aggregation switches joined as a complete bipartite graph, (K/2)^2 core switches, and K/2 hosts under each
     * edge switch, K^3/4 hosts in all. Every switch sprays; {@link Routes} gives an edge switch K/2 equal-cost uplinks
     * toward a host under another edge switch, an aggregation switch K/2 toward a host in another pod.
     * <p>
     * Edge switches are {@code e1..e(K^2/2)}, pod by pod (pod p holds {@code e(p(K/2)+1)..e((p+1)K/2)}, counting pods
     * from 0), each with host ports {@code p1..p(K/2)} then uplinks {@code u1..u(K/2)}, uplink {@code ua} linked to
     * port {@code dj} of the pod's a-th aggregation switch when the edge switch is the pod's j-th. Aggregation
     * switches {@code a1..a(K^2/2)} are numbered the same way, each with down ports {@code d1..d(K/2)} then uplinks
     * {@code u1..u(K/2)}; uplink {@code uc} of the pod's a-th aggregation switch is linked to core switch
     * {@code c((a-1)K/2+c)}. Core switches {@code c1..c(K^2/4)} have ports {@code d1..dK}, port {@code dp} to pod p
     * (counting from 1). Hosts are numbered {@code h1..h(K^3/4)} edge switch by edge switch; host i of edge switch j
     * has IP {@code 10.0.j.i} and MAC {@code 02:00:0a:00:jj:ii} (in hex), as the leaves of {@link #leafSpine} number
     * theirs.
     *
     * @param k               ports per switch: even, 2 to {@value #MAX_FAT_TREE_K}.
     * @param interfacePrefix prepended to each interface name, such as {@code pf-}; may be empty.
     * @param rateBitsPerSec  line rate of every port; 0 for unpaced.
     * @param discipline      queue discipline of every port, one of {@link PortSpec#DISCIPLINES}.
     * @return the topology.
     * @throws IllegalArgumentException if K is odd or out of range or an interface name would exceed 15 characters.
     */
    public static Topology fatTree(
        final int k, final String interfacePrefix, final long rateBitsPerSec, final String discipline)
    {
        requireRange("k", k, 2, MAX_FAT_TREE_K);
        if (0 != k % 2)
        {
            throw new IllegalArgumentException("k " + k + " is odd: a fat-tree's switches have an even port count");
        }
        final int half = k / 2;
        final int podSwitches = k * half;
        final List<HostSpec> hosts = new ArrayList<>(podSwitches * half);
        final List<SwitchSpec> switches = new ArrayList<>(2 * podSwitches + half * half);
        final List<LinkSpec> links = new ArrayList<>(2 * podSwitches * half);
        for (int edge = 1; edge <= podSwitches; edge++)
        {
            final String edgeName = "e" + edge;
            final int pod = (edge - 1) / half;
            final int indexInPod = (edge - 1) % half + 1;
            final List<PortSpec> ports = new ArrayList<>(k);
            for (int i = 1; i <= half; i++)
            {
                ports.add(port(interfacePrefix, edgeName, "p" + i, rateBitsPerSec, discipline));
                hosts.add(host("h" + ((edge - 1) * half + i), edge, i, edgeName, "p" + i));
            }
            for (int a = 1; a <= half; a++)
            {
                ports.add(port(interfacePrefix, edgeName, "u" + a, rateBitsPerSec, discipline));
                links.add(new LinkSpec(
                    new PortRef(edgeName, "u" + a), new PortRef("a" + (pod * half + a), "d" + indexInPod)));
            }
            switches.add(new SwitchSpec(edgeName, Multipath.SPRAY, ports));
        }
        for (int aggregation = 1; aggregation <= podSwitches; aggregation++)
        {
            final String aggregationName = "a" + aggregation;
            final int indexInPod = (aggregation - 1) % half + 1;
            final int pod = (aggregation - 1) / half + 1;
            final List<PortSpec> ports = new ArrayList<>(k);
            for (int j = 1; j <= half; j++)
            {
                ports.add(port(interfacePrefix, aggregationName, "d" + j, rateBitsPerSec, discipline));
            }
            for (int c = 1; c <= half; c++)
            {
                ports.add(port(interfacePrefix, aggregationName, "u" + c, rateBitsPerSec, discipline));
                links.add(new LinkSpec(new PortRef(aggregationName, "u" + c),
                    new PortRef("c" + ((indexInPod - 1) * half + c), "d" + pod)));
            }
            switches.add(new SwitchSpec(aggregationName, Multipath.SPRAY, ports));
        }
        for (int core = 1; core <= half * half; core++)
        {
            final String coreName = "c" + core;
            final List<PortSpec> ports = new ArrayList<>(k);
            for (int pod = 1; pod <= k; pod++)
            {
                ports.add(port(interfacePrefix, coreName, "d" + pod, rateBitsPerSec, discipline));
            }
            switches.add(new SwitchSpec(coreName, Multipath.SPRAY, ports));
        }
        return new Topology(hosts, switches, links);
    }

    private static PortSpec port(
        final String interfacePrefix,
        final String switchName,
        final String portName,
        final long rateBitsPerSec,
        final String discipline)
    {
        return PortSpec.ofInterface(
            portName, interfacePrefix + switchName + "-" + portName, rateBitsPerSec, discipline, 0);
    }

    private static HostSpec host(
        final String name, final int group, final int index, final String switchName, final String portName)
    {
        final int ip = (10 << 24) | (group << 8) | index;
        final long mac = 0x02_00_0a_00_00_00L | ((long)group << 8) | index;
        return new HostSpec(name, ip, mac, switchName, portName);
    }

    private static void requireRange(final String what, final int value, final int min, final int max)
    {
        if (value < min || value > max)
        {
            throw new IllegalArgumentException(what + " " + value + " is outside " + min + " to " + max);
        }
    }
}
