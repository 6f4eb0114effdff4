package io.pfabric.common.topology;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class RoutesTest
{
    private static final long RATE_BITS_PER_SEC = 10_000_000_000L;

    @Test
    void shouldRouteEachHostOfAStarToItsOwnPort()
    {
        final Topology star = Topologies.star(4, "pf-", RATE_BITS_PER_SEC, "pfabric");

        assertEquals(
            Map.of("h1", List.of("p1"), "h2", List.of("p2"), "h3", List.of("p3"), "h4", List.of("p4")),
            Routes.compute(star, "s1"));
    }

    @Test
    void shouldRouteFromALeafToLocalHostsDirectlyAndToRemoteHostsOverEveryUplink()
    {
        final Topology fabric = Topologies.leafSpine(2, 2, 2, "pf-", RATE_BITS_PER_SEC, "pfabric");

        final Map<String, List<String>> routes = fabric.routes("l1");

        assertEquals(List.of("h1", "h2", "h3", "h4"), List.copyOf(routes.keySet()));
        assertEquals(List.of("p1"), routes.get("h1"));
        assertEquals(List.of("p2"), routes.get("h2"));
        assertEquals(List.of("u1", "u2"), routes.get("h3"));
        assertEquals(List.of("u1", "u2"), routes.get("h4"));
    }

    @Test
    void shouldRouteFromASpineDownToTheLeafOfEachHost()
    {
        final Topology fabric = Topologies.leafSpine(3, 1, 4, "pf-", RATE_BITS_PER_SEC, "pfabric");

        assertEquals(
            Map.of("h1", List.of("d1"), "h2", List.of("d2"), "h3", List.of("d3")), Routes.compute(fabric, "sp3"));
        assertEquals(List.of("u1", "u2", "u3", "u4"), Routes.compute(fabric, "l2").get("h3"));
    }

    @Test
    void shouldKeepOnlyShortestPathsInPortDeclarationOrder()
    {
        final Topology fabric = new Topology(
            List.of(host("h1", 1, "s1"), host("h3", 3, "s3")),
            List.of(
                switchSpec("s1", "long", "short2", "short1", "host"),
                switchSpec("s2", "a", "b"),
                switchSpec("s3", "a", "b", "c", "host"),
                switchSpec("s4", "a", "b"),
                switchSpec("s5", "a", "b"),
                switchSpec("s6", "a", "b")),
            List.of(
                link("s1:short1", "s2:a"),
                link("s2:b", "s3:a"),
                link("s1:short2", "s6:a"),
                link("s6:b", "s3:c"),
                link("s1:long", "s4:a"),
                link("s4:b", "s5:a"),
                link("s5:b", "s3:b")));

        assertEquals(List.of("short2", "short1"), Routes.compute(fabric, "s1").get("h3"));
        assertEquals(List.of("b"), Routes.compute(fabric, "s4").get("h3"));
        assertEquals(List.of("a"), Routes.compute(fabric, "s4").get("h1"));
        assertEquals(List.of("a", "c"), Routes.compute(fabric, "s3").get("h1"));
        assertEquals(List.of("host"), Routes.compute(fabric, "s3").get("h3"));
    }

    @Test
    void shouldNameAnUnreachableHostAndTheSwitch()
    {
        final Topology fabric = new Topology(
            List.of(host("h1", 1, "s1"), host("h2", 2, "s2")),
            List.of(switchSpec("s1", "host"), switchSpec("s2", "host")),
            List.of());

        final TopologyException ex = assertThrows(TopologyException.class, () -> Routes.compute(fabric, "s1"));
        assertEquals("host 'h2' is unreachable from switch 's1': no chain of links joins it to switch 's2' where the " +
            "host is attached", ex.getMessage());
    }

    @Test
    void shouldRejectAnUnknownSwitch()
    {
        final Topology star = Topologies.star(1, "", 0, "pfabric");

        final TopologyException ex = assertThrows(TopologyException.class, () -> Routes.compute(star, "s9"));
        assertEquals("the topology has no switch 's9'", ex.getMessage());
    }

    private static HostSpec host(final String name, final int index, final String switchName)
    {
        return new HostSpec(name, 0x0A00_0000 | index, 0x02_00_00_00_00_00L | index, switchName, "host");
    }

    private static SwitchSpec switchSpec(final String name, final String... portNames)
    {
        return new SwitchSpec(name, Multipath.ECMP, java.util.Arrays.stream(portNames)
            .map(port -> PortSpec.ofInterface(port, name + "-" + port, 0, "pfabric", 0))
            .toList());
    }

    private static LinkSpec link(final String a, final String b)
    {
        return new LinkSpec(PortRef.parse(a), PortRef.parse(b));
    }
}
