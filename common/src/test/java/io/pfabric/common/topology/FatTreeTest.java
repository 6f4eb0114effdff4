package io.pfabric.common.topology;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The three-tier fat-tree of {@link Topologies#fatTree}: its counts, its wiring, and the equal-cost routes every switch
 * derives from it, followed hop by hop over every branch from every host to every other.
 */
class FatTreeTest
{
    private static final long RATE_BITS_PER_SEC = 10_000_000_000L;

    @Test
    void theHotNetsFatTreeHas54HostsAnd45Switches()
    {
        final Topology fabric = Topologies.fatTree(6, "pf-", RATE_BITS_PER_SEC, "pfabric");

        assertEquals(54, fabric.hosts().size());
        assertEquals(45, fabric.switches().size());
        assertEquals(18 * 3 + 18 * 3, fabric.links().size(), "edge-aggregation and aggregation-core links");
        assertEquals(18, count(fabric, "e"));
        assertEquals(18, count(fabric, "a"));
        assertEquals(9, count(fabric, "c"));
        for (final SwitchSpec switchSpec : fabric.switches())
        {
            assertEquals(6, switchSpec.ports().size(), switchSpec.name());
        }
    }

    @Test
    void aFatTreeOfFourPortSwitchesHas16HostsAnd20Switches()
    {
        final Topology fabric = Topologies.fatTree(4, "", RATE_BITS_PER_SEC, "pfabric");

        assertEquals(16, fabric.hosts().size());
        assertEquals(20, fabric.switches().size());
        assertEquals(8 * 2 + 8 * 2, fabric.links().size());
        assertEquals(List.of(8, 8, 4), List.of(count(fabric, "e"), count(fabric, "a"), count(fabric, "c")));
    }

    @Test
    void shouldNameAndAddressAsTheLeafSpineDoes()
    {
        final Topology fabric = Topologies.fatTree(4, "pf-", RATE_BITS_PER_SEC, "ecn");

        assertEquals(new HostSpec("h7", 0x0A00_0401, 0x02_00_0a_00_04_01L, "e4", "p1"), fabric.host("h7"));
        assertEquals("10.0.4.1", fabric.host("h7").ipText());
        assertEquals(List.of("p1", "p2", "u1", "u2"),
            fabric.switchNamed("e4").ports().stream().map(PortSpec::name).toList());
        assertEquals(List.of("d1", "d2", "u1", "u2"),
            fabric.switchNamed("a3").ports().stream().map(PortSpec::name).toList());
        assertEquals(List.of("d1", "d2", "d3", "d4"),
            fabric.switchNamed("c4").ports().stream().map(PortSpec::name).toList());
        assertEquals(PortSpec.ofInterface("u2", "pf-e4-u2", RATE_BITS_PER_SEC, "ecn", 0),
            fabric.switchNamed("e4").port("u2"));
        assertEquals(new PortRef("a4", "d2"), fabric.peer("e4", "u2"), "pod 2's second edge, second aggregation");
        assertEquals(new PortRef("c3", "d2"), fabric.peer("a4", "u1"), "pod 2's second aggregation, first uplink");
        assertEquals(new PortRef("a8", "u2"), fabric.peer("c4", "d4"));
        assertEquals(Multipath.SPRAY, fabric.switchNamed("c1").multipath());
    }

    @Test
    void aFatTreeOfTwoPortSwitchesIsAChainPerPod()
    {
        final Topology fabric = Topologies.fatTree(2, "", 0, "pfabric");

        assertEquals(2, fabric.hosts().size());
        assertEquals(5, fabric.switches().size());
        assertEquals(6, paths(fabric, new HashMap<>(), "h1", "h2").get(0).size() + 1, "links on the path");
    }

    @ParameterizedTest
    @ValueSource(ints = { 4, 6 })
    void everyHostReachesEveryOtherOverEveryShortestPath(final int k)
    {
        final Topology fabric = Topologies.fatTree(k, "", RATE_BITS_PER_SEC, "pfabric");
        final int half = k / 2;
        final Map<String, Map<String, List<String>>> routes = new HashMap<>();

        for (final HostSpec source : fabric.hosts())
        {
            for (final HostSpec destination : fabric.hosts())
            {
                if (source.equals(destination))
                {
                    continue;
                }
                final List<List<String>> paths = paths(fabric, routes, source.name(), destination.name());
                final int sourceEdge = edgeIndex(source);
                final int destinationEdge = edgeIndex(destination);
                final String pair = source.name() + " to " + destination.name();
                if (sourceEdge == destinationEdge)
                {
                    assertEquals(List.of(List.of(source.switchName())), paths, pair + ": under one edge switch");
                }
                else if ((sourceEdge - 1) / half == (destinationEdge - 1) / half)
                {
                    assertEquals(half, paths.size(), pair + ": one path per aggregation switch of the pod");
                    paths.forEach(path -> assertEquals(3, path.size(), pair + " within the pod: " + path));
                }
                else
                {
                    assertEquals(half * half, paths.size(), pair + ": one path per core switch");
                    paths.forEach(path -> assertEquals(5, path.size(), pair + " across pods: " + path));
                    assertEquals(half * half, new HashSet<>(paths.stream().map(path -> path.get(2)).toList()).size(),
                        pair + ": through every core switch");
                }
            }
        }
    }

    @Test
    void edgeAndAggregationSwitchesSprayOverEveryUplinkTowardAnotherPod()
    {
        final Topology fabric = Topologies.fatTree(6, "", RATE_BITS_PER_SEC, "pfabric");

        final Map<String, List<String>> edge = fabric.routes("e1");
        assertEquals(List.of("p2"), edge.get("h2"));
        assertEquals(List.of("u1", "u2", "u3"), edge.get("h4"), "another edge switch of the pod");
        assertEquals(List.of("u1", "u2", "u3"), edge.get("h54"), "another pod");
        final Map<String, List<String>> aggregation = fabric.routes("a2");
        assertEquals(List.of("d1"), aggregation.get("h1"));
        assertEquals(List.of("d3"), aggregation.get("h9"));
        assertEquals(List.of("u1", "u2", "u3"), aggregation.get("h10"), "pod 2's first host");
        assertEquals(List.of("u1", "u2", "u3"), aggregation.get("h54"));
        final Map<String, List<String>> core = fabric.routes("c5");
        assertEquals(List.of("d1"), core.get("h1"));
        assertEquals(List.of("d6"), core.get("h54"));
    }

    @Test
    void shouldRoundTripThroughYamlAndJson() throws Exception
    {
        final Topology fabric = Topologies.fatTree(6, "pf-", RATE_BITS_PER_SEC, "pfabric");
        final String yaml = fabric.toYaml();

        assertEquals(fabric, TopologyParser.parse("fattree.yaml", new StringReader(yaml)), yaml);
        final String json = new ObjectMapper().writeValueAsString(new ObjectMapper(new YAMLFactory()).readTree(yaml));
        assertTrue(json.startsWith("{\"hosts\":[{"), json);
        assertEquals(fabric, TopologyParser.parse("fattree.json", new StringReader(json)), json);
    }

    @Test
    void shouldKeepInterfaceNamesWithinLinuxLimitUpToTheLargestK()
    {
        final Topology fabric = Topologies.fatTree(Topologies.MAX_FAT_TREE_K, "pftb-", 0, "pfabric");

        assertEquals(22 * 22 * 22 / 4, fabric.hosts().size());
        assertEquals("10.0.242.11", fabric.hosts().get(fabric.hosts().size() - 1).ipText());
        for (final SwitchSpec switchSpec : fabric.switches())
        {
            for (final PortSpec port : switchSpec.ports())
            {
                assertTrue(port.interfaceName().length() <= PortSpec.MAX_INTERFACE_NAME_LENGTH, port.interfaceName());
            }
        }
    }

    @Test
    void shouldRejectAnOddOrOutOfRangeK()
    {
        assertThrows(IllegalArgumentException.class, () -> Topologies.fatTree(0, "", 0, "pfabric"));
        assertThrows(IllegalArgumentException.class, () -> Topologies.fatTree(5, "", 0, "pfabric"));
        assertThrows(IllegalArgumentException.class, () -> Topologies.fatTree(24, "", 0, "pfabric"));
    }

    private static int count(final Topology fabric, final String namePrefix)
    {
        return (int)fabric.switches().stream().filter(s -> s.name().matches(namePrefix + "\\d+")).count();
    }

    private static int edgeIndex(final HostSpec host)
    {
        return Integer.parseInt(host.switchName().substring(1));
    }

    /**
     * Every path the switches' routes allow from one host to another, each as the switches it crosses in order; every
     * branch must end at the destination's port. Routes are computed once per switch into the map given.
     */
    private static List<List<String>> paths(final Topology fabric, final Map<String, Map<String, List<String>>> routes,
        final String source, final String destination)
    {
        final HostSpec to = fabric.host(destination);
        final List<List<String>> done = new ArrayList<>();
        final List<List<String>> open = new ArrayList<>();
        open.add(List.of(fabric.host(source).switchName()));
        while (!open.isEmpty())
        {
            final List<String> path = open.remove(open.size() - 1);
            final String at = path.get(path.size() - 1);
            assertTrue(path.size() <= fabric.switches().size(), "a loop: " + path);
            final List<String> ports = routes.computeIfAbsent(at, fabric::routes).get(destination);
            assertTrue(!ports.isEmpty(), at + " has no route to " + destination);
            if (at.equals(to.switchName()))
            {
                assertEquals(List.of(to.portName()), ports);
                done.add(path);
                continue;
            }
            final Set<String> next = new HashSet<>();
            for (final String port : ports)
            {
                final PortRef peer = fabric.peer(at, port);
                assertTrue(null != peer && next.add(peer.switchName()), at + ":" + port + " toward " + destination);
                final List<String> longer = new ArrayList<>(path);
                longer.add(peer.switchName());
                open.add(longer);
            }
        }
        return done;
    }
}
