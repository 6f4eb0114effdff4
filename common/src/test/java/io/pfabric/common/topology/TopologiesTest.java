package io.pfabric.common.topology;

import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TopologiesTest
{
    private static final long RATE_BITS_PER_SEC = 1_000_000_000L;

    @Test
    void shouldGenerateAStar()
    {
        final Topology star = Topologies.star(4, "pf-", RATE_BITS_PER_SEC, "droptail");

        assertEquals(4, star.hosts().size());
        assertEquals(new HostSpec("h3", 0x0A00_0003, 0x02_00_0a_00_00_03L, "s1", "p3"), star.host("h3"));
        assertEquals("02:00:0a:00:00:03", star.host("h3").macText());
        assertEquals(PortSpec.ofInterface("p4", "pf-s1-p4", RATE_BITS_PER_SEC, "droptail", 0),
            star.switchNamed("s1").port("p4"));
        assertEquals(Multipath.SPRAY, star.switchNamed("s1").multipath());
        assertTrue(star.links().isEmpty());
    }

    @Test
    void shouldGenerateALeafSpine()
    {
        final Topology fabric = Topologies.leafSpine(2, 2, 2, "pf-", RATE_BITS_PER_SEC, "pfabric");

        assertEquals(List.of("h1", "h2", "h3", "h4"), fabric.hosts().stream().map(HostSpec::name).toList());
        assertEquals("10.0.2.1", fabric.host("h3").ipText());
        assertEquals("02:00:0a:00:02:01", fabric.host("h3").macText());
        assertEquals(List.of("p1", "p2", "u1", "u2"),
            fabric.switchNamed("l2").ports().stream().map(PortSpec::name).toList());
        assertEquals(List.of("d1", "d2"), fabric.switchNamed("sp1").ports().stream().map(PortSpec::name).toList());
        assertEquals("pf-sp2-d1", fabric.switchNamed("sp2").port("d1").interfaceName());
        assertEquals(4, fabric.links().size());
        assertEquals(new PortRef("sp2", "d1"), fabric.peer("l1", "u2"));
        assertEquals(new PortRef("l2", "u1"), fabric.peer("sp1", "d2"));
    }

    @Test
    void shouldRoundTripAStarThroughYaml()
    {
        assertRoundTrip(Topologies.star(4, "pf-", RATE_BITS_PER_SEC, "pfabric"));
    }

    @Test
    void shouldRoundTripALeafSpineThroughYaml()
    {
        assertRoundTrip(Topologies.leafSpine(2, 2, 2, "pf-", 2_500_000_000L, "ecn"));
    }

    @Test
    void shouldRoundTripEveryKindOfPortThroughYaml()
    {
        final SwitchSpec s1 = new SwitchSpec("1", Multipath.ECMP, List.of(
            PortSpec.ofInterface("null", "eth1", 0, "strict", 0),
            PortSpec.ofUdp("yes", new UdpEndpoints("::1", 4790, "switch2.lab", 4791, UdpEndpoints.MAX_VNI),
                40_000_000_000L, "droptail", 225_000)));
        final SwitchSpec s2 = new SwitchSpec("s2", Multipath.SPRAY, List.of(
            PortSpec.ofUdp("p1", new UdpEndpoints("127.0.0.1", 4791, "127.0.0.1", 4790, 0), 1_234_567, "pfabric", 0)));
        final Topology topology = new Topology(
            List.of(new HostSpec("true", 0x0A00_0001, 0x02_00_00_00_00_01L, "1", "null")),
            List.of(s1, s2),
            List.of(new LinkSpec(new PortRef("1", "yes"), new PortRef("s2", "p1"))));

        assertRoundTrip(topology);
    }

    @Test
    void shouldKeepInterfaceNamesWithinLinuxLimit()
    {
        final Topology fabric = Topologies.leafSpine(9, 16, 4, "pf-", RATE_BITS_PER_SEC, "pfabric");

        for (final SwitchSpec switchSpec : fabric.switches())
        {
            for (final PortSpec port : switchSpec.ports())
            {
                assertTrue(port.interfaceName().length() <= PortSpec.MAX_INTERFACE_NAME_LENGTH, port.interfaceName());
            }
        }
        assertRoundTrip(fabric);
    }

    @Test
    void shouldRejectAPrefixThatMakesInterfaceNamesTooLong()
    {
        final IllegalArgumentException ex = assertThrows(
            IllegalArgumentException.class, () -> Topologies.star(10, "pfabric-test-", RATE_BITS_PER_SEC, "pfabric"));
        assertTrue(ex.getMessage().contains("'pfabric-test-s1-p1' is 18 characters long"), ex.getMessage());
    }

    @Test
    void shouldRejectCountsOutOfRange()
    {
        assertThrows(IllegalArgumentException.class, () -> Topologies.star(0, "", 0, "pfabric"));
        assertThrows(IllegalArgumentException.class, () -> Topologies.star(255, "", 0, "pfabric"));
        assertThrows(IllegalArgumentException.class, () -> Topologies.leafSpine(2, 2, 0, "", 0, "pfabric"));
        assertThrows(IllegalArgumentException.class, () -> Topologies.leafSpine(256, 1, 1, "", 0, "pfabric"));
        assertThrows(IllegalArgumentException.class, () -> Topologies.star(2, "", 0, "fifo"));
    }

    private static void assertRoundTrip(final Topology topology)
    {
        final String yaml = topology.toYaml();
        assertEquals(topology, TopologyParser.parse("generated.yaml", new StringReader(yaml)), yaml);
    }
}
