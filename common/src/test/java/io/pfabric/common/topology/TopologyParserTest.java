package io.pfabric.common.topology;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TopologyParserTest
{
    private static final String SOURCE = "topo.yaml";

    /**
     * Valid; each rejection test changes one thing in it, so the line numbers below are the lines of this text.
     */
    private static final String BASE = """
        hosts:
          - name: h1
            ip: 10.0.0.1
            mac: "02:00:00:00:00:01"
            switch: s1
            port: p1
          - name: h2
            ip: 10.0.0.2
            mac: "02:00:00:00:00:02"
            switch: s2
            port: p1
        switches:
          - name: s1
            multipath: spray
            ports:
              - name: p1
                interface: veth-s1-p1
                rate: 1g
                discipline: pfabric
                buffer: 36000
              - name: p2
                udp:
                  local: 127.0.0.1:4790
                  remote: 127.0.0.1:4791
                  vni: 1
          - name: s2
            multipath: ecmp
            ports:
              - name: p1
                interface: veth-s2-p1
              - name: p2
                udp:
                  local: 127.0.0.1:4791
                  remote: 127.0.0.1:4790
                  vni: 1
        links:
          - [s1:p2, s2:p2]
        """;

    @Test
    void shouldParseTheBaseDocumentWithDefaults()
    {
        final Topology topology = parse(BASE);

        final HostSpec h2 = topology.host("h2");
        assertEquals(new HostSpec("h2", 0x0A00_0002, 0x02_00_00_00_00_02L, "s2", "p1"), h2);
        assertEquals("10.0.0.2", h2.ipText());
        assertEquals("02:00:00:00:00:02", h2.macText());
        assertEquals(h2, topology.hostByIp(Addresses.parseIpv4("10.0.0.2")));
        assertNull(topology.hostByIp(Addresses.parseIpv4("10.0.0.3")));
        assertNull(topology.host("h3"));

        final SwitchSpec s1 = topology.switchNamed("s1");
        assertEquals(Multipath.SPRAY, s1.multipath());
        assertEquals(PortSpec.ofInterface("p1", "veth-s1-p1", 1_000_000_000L, "pfabric", 36_000), s1.port("p1"));
        assertEquals(
            PortSpec.ofUdp("p2", new UdpEndpoints("127.0.0.1", 4790, "127.0.0.1", 4791, 1), 0, "pfabric", 0),
            s1.port("p2"));
        assertTrue(s1.port("p2").isUdp());

        final SwitchSpec s2 = topology.switchNamed("s2");
        assertEquals(Multipath.ECMP, s2.multipath());
        assertEquals(PortSpec.ofInterface("p1", "veth-s2-p1", 0, "pfabric", 0), s2.port("p1"));
        assertEquals(List.of(new LinkSpec(new PortRef("s1", "p2"), new PortRef("s2", "p2"))), topology.links());
        assertEquals(new PortRef("s2", "p2"), topology.peer("s1", "p2"));
        assertNull(topology.peer("s1", "p1"));
        assertEquals(topology.host("h1"), topology.hostAt("s1", "p1"));
        assertNull(topology.hostAt("s1", "p2"));
    }

    @Test
    void shouldParseTheStarExample() throws Exception
    {
        final Topology topology = TopologyParser.parse(resource("star2.yaml"));

        assertEquals(Topologies.star(2, "pf-", 1_000_000_000L, "pfabric"), topology);
        assertEquals(List.of("h1", "h2"), topology.hosts().stream().map(HostSpec::name).toList());
        assertEquals("02:00:0a:00:00:02", topology.host("h2").macText());
        assertEquals("pf-s1-p2", topology.switchNamed("s1").port("p2").interfaceName());
        assertTrue(topology.links().isEmpty());
    }

    @Test
    void shouldParseTheLeafSpineExample() throws Exception
    {
        final Topology topology = TopologyParser.parse(resource("leaf-spine-2x2x2.yaml"));

        assertEquals(Topologies.leafSpine(2, 2, 2, "pf-", 1_000_000_000L, "pfabric"), topology);
        assertEquals(4, topology.hosts().size());
        assertEquals(List.of("l1", "l2", "sp1", "sp2"), topology.switches().stream().map(SwitchSpec::name).toList());
        assertEquals("10.0.2.1", topology.host("h3").ipText());
        assertEquals(new PortRef("sp2", "d2"), topology.peer("l2", "u2"));
        assertEquals(1_000_000_000L, topology.switchNamed("sp2").port("d2").rateBitsPerSec());
    }

    @Test
    void shouldParseJson()
    {
        final Topology topology = parse("""
            {"hosts": [{"name": "h1", "ip": "10.0.0.1", "mac": "02:00:00:00:00:01", "switch": "s1", "port": "p1"}],
             "switches": [{"name": "s1", "ports": [{"name": "p1", "interface": "eth1", "buffer": 1500}]}]}
            """);

        assertEquals(1500, topology.switchNamed("s1").port("p1").bufferLength());
    }

    @Test
    void shouldAcceptIpv6AndHostNamesInUdpEndpoints()
    {
        final Topology topology = parse(BASE
            .replace("local: 127.0.0.1:4790", "local: \"[::1]:4790\"")
            .replace("remote: 127.0.0.1:4791", "remote: switch2.lab:4791"));

        final UdpEndpoints udp = topology.switchNamed("s1").port("p2").udp();
        assertEquals(new UdpEndpoints("::1", 4790, "switch2.lab", 4791, 1), udp);
        assertEquals("[::1]:4790", udp.local());
    }

    @Test
    void shouldRejectAnEmptyDocument()
    {
        assertRejected("", 1, "the document is empty");
        assertRejected("# only a comment\n", 1, "the document is empty");
    }

    @Test
    void shouldRejectADocumentThatIsNotAMapping()
    {
        assertRejected("- h1\n- h2\n", 1, "a topology is a mapping with keys hosts, switches and links, not a list");
        assertRejected("just text\n", 1, "not the value 'just text'");
    }

    @Test
    void shouldRejectATopologyWithoutSwitches()
    {
        assertRejected("hosts: []\nlinks: []\n", 1, "a topology needs at least one switch");
    }

    @Test
    void shouldRejectInvalidYaml()
    {
        assertRejected(with("    ip: 10.0.0.2", "   ip: 10.0.0.2"), 8, "not valid YAML");
    }

    @Test
    void shouldRejectASecondDocument()
    {
        assertRejected(BASE + "---\nhosts: []\n", 39, "a second YAML document");
    }

    @Test
    void shouldRejectAKeyGivenTwice()
    {
        assertRejected(with("ip: 10.0.0.2", "ip: 10.0.0.2\n    ip: 10.0.0.3"), 9, "key 'ip' appears twice");
    }

    @Test
    void shouldRejectAliases()
    {
        assertRejected(with("switch: s2", "switch: *s1"), 10, "aliases");
    }

    @Test
    void shouldRejectUnknownKeysAtEveryLevel()
    {
        assertRejected(BASE + "hostz: []\n", 38, "topology: unknown key 'hostz'; the keys are hosts, switches, links");
        final TopologyException host = assertRejected(with("mac: \"02:00:00:00:00:02\"", "mca: \"02:00:00:00:00:02\""),
            9, "host 'h2': unknown key 'mca'; the keys are name, ip, mac, switch, port");
        assertEquals(5, host.column());
        assertRejected(with("multipath: ecmp", "multipaths: ecmp"), 27, "switch 's2': unknown key 'multipaths'");
        assertRejected(with("buffer: 36000", "bufer: 36000"), 20, "switch 's1' port 'p1': unknown key 'bufer'");
        assertRejected(with("4791\n          vni: 1", "4791\n          vnid: 1"), 25,
            "switch 's1' port 'p2' udp: unknown key 'vnid'");
    }

    @Test
    void shouldRejectMissingFieldsAtTheLineOfTheirEntry()
    {
        assertRejected(with("    mac: \"02:00:00:00:00:02\"\n", ""), 7, "host 'h2': missing 'mac'");
        assertRejected(with("  - name: h2\n    ip", "  - ip"), 7, "host: missing 'name'");
        assertRejected(with("          remote: 127.0.0.1:4791\n", ""), 23,
            "switch 's1' port 'p2' udp: missing 'remote'");
        assertRejected(with("      - name: p1\n        interface: veth-s2-p1\n      - name: p2\n        udp:\n" +
            "          local: 127.0.0.1:4791\n          remote: 127.0.0.1:4790\n          vni: 1\n", ""),
            28, "switch 's2': a switch needs at least one port");
    }

    @Test
    void shouldRejectValuesOfTheWrongType()
    {
        assertRejected(with("ip: 10.0.0.2", "ip: [10, 0, 0, 2]"), 8, "host 'h2': 'ip' is a single value, not a list");
        assertRejected(with("switch: s2", "switch:"), 10, "host 'h2': 'switch' has no value");
        assertRejected(with("switches:", "  - h3\nswitches:"), 12,
            "host: a host is a mapping of keys to values, not the value 'h3'");
        assertRejected(with("links:\n  - [s1:p2, s2:p2]", "links: {a: b}"), 36,
            "topology: 'links' is a list, not a mapping");
    }

    @Test
    void shouldReadTrafficClassesOfAPortAndWriteThemBack()
    {
        final Topology topology = parse(with("discipline: pfabric\n", "discipline: pfabric-classes\n" +
            "        classes: 3:0-7;1:8-15,46\n"));
        final PortSpec port = topology.switches().get(0).ports().get(0);
        assertEquals("pfabric-classes", port.discipline());
        assertEquals(TrafficClasses.parse("3:0-7;1:8-15,46"), port.classes());
        assertNull(topology.switches().get(0).ports().get(1).classes());
        assertEquals(topology, parse(topology.toYaml()));
    }

    @Test
    void shouldReadAPortsIoAndWriteItBack()
    {
        final Topology topology = parse(with("discipline: pfabric\n", "discipline: pfabric\n        io: xdp\n"));
        assertEquals(PortIo.XDP, topology.switches().get(0).ports().get(0).io());
        assertEquals(PortIo.PACKET, topology.switches().get(1).ports().get(0).io(), "the default");
        assertEquals(topology, parse(topology.toYaml()));
    }

    @Test
    void shouldRejectAnUnknownIoAndIoOnAUdpPort()
    {
        assertRejected(with("discipline: pfabric\n", "discipline: pfabric\n        io: dpdk\n"), 20,
            "switch 's1' port 'p1': io 'dpdk' is not packet or xdp");
        assertRejected(with("rate: 1g\n        discipline: pfabric\n        buffer: 36000\n      - name: p2\n",
            "rate: 1g\n        discipline: pfabric\n        buffer: 36000\n      - name: p2\n        io: xdp\n"),
            22, "switch 's1' port 'p2': 'io' applies only to a port on an interface, not to 'udp'");
    }

    @Test
    void shouldRejectTrafficClassesThatAreNotAClassList()
    {
        assertRejected(with("discipline: pfabric\n", "discipline: pfabric\n        classes: 1:0;1:0\n"), 20,
            "switch 's1' port 'p1': classes '1:0;1:0': DSCP 0 is in class 0 and class 1");
    }

    @Test
    void shouldRejectNamesThatAreNotNames()
    {
        assertRejected(with("name: h2", "name: h@2"), 7, "host: name 'h@2' is not a name");
    }

    @Test
    void shouldRejectDuplicateHostNames()
    {
        assertRejected(with("name: h2", "name: h1"), 7, "host 'h1' is declared twice (first at line 2)");
    }

    @Test
    void shouldRejectAHostNamedLikeASwitch()
    {
        assertRejected(with("name: h2", "name: s1"), 7, "host 's1': the name is already used by switch 's1' (line 13)");
    }

    @Test
    void shouldRejectDuplicateSwitchNames()
    {
        assertRejected(with("name: s2", "name: s1"), 26, "switch 's1' is declared twice (first at line 13)");
    }

    @Test
    void shouldRejectDuplicatePortNames()
    {
        assertRejected(with("interface: veth-s2-p1\n      - name: p2", "interface: veth-s2-p1\n      - name: p1"), 31,
            "switch 's2': port 'p1' is declared twice (first at line 29)");
    }

    @Test
    void shouldRejectDuplicateIps()
    {
        assertRejected(with("ip: 10.0.0.2", "ip: 10.0.0.1"), 8,
            "host 'h2': ip 10.0.0.1 is already used by host 'h1' (line 2)");
    }

    @Test
    void shouldRejectDuplicateMacs()
    {
        assertRejected(with("\"02:00:00:00:00:02\"", "\"02:00:00:00:00:01\""), 9,
            "host 'h2': mac 02:00:00:00:00:01 is already used by host 'h1' (line 2)");
    }

    @Test
    void shouldRejectAHostOnAnUnknownSwitch()
    {
        assertRejected(with("switch: s2", "switch: s9"), 10, "host 'h2': switch 's9' is not declared under switches");
    }

    @Test
    void shouldRejectAHostOnAnUnknownPort()
    {
        assertRejected(with("switch: s2\n    port: p1", "switch: s2\n    port: p9"), 11,
            "host 'h2': switch 's2' has no port 'p9'");
    }

    @Test
    void shouldRejectTwoHostsOnOnePort()
    {
        assertRejected(with("switch: s2", "switch: s1"), 11,
            "host 'h2': port s1:p1 already leads to host 'h1' (line 2); a port leads to one host");
    }

    @Test
    void shouldRejectAPortThatIsBothAHostAttachmentAndALinkEnd()
    {
        final TopologyException ex = assertRejected(with("[s1:p2, s2:p2]", "[s1:p2, s2:p1]"), 37,
            "link s1:p2 - s2:p1: port s2:p1 leads to host 'h2' (line 7); a port leads to a host or to another switch");
        assertEquals(13, ex.column());
    }

    @Test
    void shouldRejectALinkToAnUnknownSwitch()
    {
        assertRejected(with("[s1:p2, s2:p2]", "[s9:p2, s2:p2]"), 37, "link s9:p2 - s2:p2: switch 's9' is not declared");
    }

    @Test
    void shouldRejectALinkToAnUnknownPort()
    {
        assertRejected(with("[s1:p2, s2:p2]", "[s1:p2, s2:p9]"), 37,
            "link s1:p2 - s2:p9: switch 's2' has no port 'p9'");
    }

    @Test
    void shouldRejectMalformedLinks()
    {
        assertRejected(with("[s1:p2, s2:p2]", "[s1:p2]"), 37,
            "a link is a list of two switch ports like [s1:p3, s2:p3]");
        assertRejected(with("[s1:p2, s2:p2]", "[s1-p2, s2:p2]"), 37,
            "link end 's1-p2' is not a switch port like s1:p3");
        assertRejected(with("[s1:p2, s2:p2]", "[s1:p2, s1:p2]"), 37, "both ends are on switch 's1'");
    }

    @Test
    void shouldRejectAPortInTwoLinks()
    {
        assertRejected(BASE + "  - [s2:p2, s1:p2]\n", 38,
            "port s2:p2 is already an end of link s1:p2 - s2:p2 (line 37); a port has one link");
    }

    @Test
    void shouldRejectAPortWithBothInterfaceAndUdp()
    {
        final String withUdp = "interface: veth-s2-p1\n        udp: {local: \"h:1\", remote: \"h:2\"}";
        assertRejected(with("interface: veth-s2-p1", withUdp), 29,
            "switch 's2' port 'p1': has both 'interface' and 'udp'; a port is one or the other");
    }

    @Test
    void shouldRejectAPortWithNeitherInterfaceNorUdp()
    {
        assertRejected(with("interface: veth-s2-p1", "discipline: droptail"), 29,
            "switch 's2' port 'p1': needs 'interface' (a Linux interface) or 'udp' (a VXLAN tunnel)");
    }

    @Test
    void shouldRejectInterfaceNamesLinuxWouldRefuse()
    {
        assertRejected(with("interface: veth-s1-p1", "interface: veth-s1-p1-longer"), 17,
            "interface 'veth-s1-p1-longer' is 17 characters long; Linux interface names have at most 15");
        assertRejected(with("interface: veth-s1-p1", "interface: veth/1"), 17, "'veth/1' is not an interface name");
    }

    @Test
    void shouldRejectDuplicateInterfacesOnOneSwitch()
    {
        final SwitchSpec s1 = new SwitchSpec("s1", Multipath.SPRAY, List.of(
            PortSpec.ofInterface("p1", "eth1", 0, "pfabric", 0), PortSpec.ofInterface("p2", "eth1", 0, "pfabric", 0)));

        final TopologyException ex =
            assertThrows(TopologyException.class, () -> new Topology(List.of(), List.of(s1), List.of()));
        assertEquals("switch 's1' port 'p2': interface 'eth1' is already used by port 'p1'", ex.getMessage());
    }

    @Test
    void shouldRejectABadIpv4Address()
    {
        assertRejected(with("ip: 10.0.0.2", "ip: 10.0.0.256"), 8,
            "host 'h2': ip '10.0.0.256' is not an IPv4 address like 10.0.0.1");
        assertRejected(with("ip: 10.0.0.2", "ip: 10.0.2"), 8, "ip '10.0.2' is not an IPv4 address");
    }

    @Test
    void shouldRejectABadMacAddress()
    {
        final TopologyException ex = assertRejected(with("\"02:00:00:00:00:02\"", "\"02:00:zz\""), 9,
            "topo.yaml:9:10: host 'h2': mac '02:00:zz' is not a MAC address like 02:00:00:00:00:01");
        assertEquals(10, ex.column());
        assertRejected(with("\"02:00:00:00:00:02\"", "\"01:00:5e:00:00:01\""), 9,
            "mac '01:00:5e:00:00:01' is a multicast address");
    }

    @Test
    void shouldRejectBadRates()
    {
        assertRejected(with("rate: 1g", "rate: -1g"), 18, "switch 's1' port 'p1': rate '-1g' is negative");
        assertRejected(with("rate: 1g", "rate: 1t"), 18, "rate '1t' is not a rate like 100m, 1g or 2.5g");
        assertRejected(with("rate: 1g", "rate: 0x"), 18, "rate '0x' is not a rate");
        assertRejected(with("rate: 1g", "rate: 1.5"), 18, "rate '1.5' is not a whole number of bits per second");
    }

    @Test
    void shouldRejectAnUnknownDiscipline()
    {
        assertRejected(with("discipline: pfabric", "discipline: fifo"), 19,
            "discipline 'fifo' is not a queue discipline: use pfabric, droptail, ecn, strict");
    }

    @Test
    void shouldAcceptTheCommoditySwitchDisciplinesWithTheirParameters()
    {
        for (final String discipline : new String[]{ "strict:4", "strict:8:equal", "strict:3:1000,20000", "sp-pifo:8",
            "aifo:k=0.2", "pias:4:30000" })
        {
            final Topology topology = parse(with("discipline: pfabric", "discipline: " + discipline));
            assertEquals(discipline, topology.switches().get(0).ports().get(0).discipline());
        }
    }

    @Test
    void shouldRejectBadDisciplineParametersWithTheLine()
    {
        assertRejected(with("discipline: pfabric", "discipline: strict:9"), 19,
            "'strict:9': the number of queues must be 1 to 8");
        assertRejected(with("discipline: pfabric", "discipline: strict:3:2000,1000"), 19,
            "thresholds must be positive and strictly increasing");
        assertRejected(with("discipline: pfabric", "discipline: aifo:k=1"), 19, "aifo's headroom k must be in (0, 1)");
        assertRejected(with("discipline: pfabric", "discipline: sp-pifo:0"), 19, "the number of queues must be 1 to 8");
    }

    @Test
    void shouldRejectABadBuffer()
    {
        assertRejected(with("buffer: 36000", "buffer: -1"), 20, "buffer '-1' is negative");
        assertRejected(with("buffer: 36000", "buffer: 36k"), 20, "buffer '36k' is not a whole number of bytes");
    }

    @Test
    void shouldRejectBadUdpEndpoints()
    {
        assertRejected(with("local: 127.0.0.1:4790", "local: 127.0.0.1"), 23,
            "switch 's1' port 'p2' udp: local '127.0.0.1' is not host:port");
        assertRejected(with("local: 127.0.0.1:4790", "local: 127.0.0.1:70000"), 23, "UDP ports are 1 to 65535");
        assertRejected(with("remote: 127.0.0.1:4791", "remote: 127.0.0.300:4791"), 24,
            "remote '127.0.0.300:4791' is not host:port");
    }

    @Test
    void shouldRejectAVniOutOfRange()
    {
        assertRejected(with("4791\n          vni: 1", "4791\n          vni: 16777216"), 25,
            "vni '16777216' is outside 0 to 16777215");
        assertRejected(with("4791\n          vni: 1", "4791\n          vni: -1"), 25,
            "vni '-1' is outside 0 to 16777215");
    }

    @Test
    void shouldRejectAnUnknownMultipathMode()
    {
        assertRejected(with("multipath: spray", "multipath: random"), 14,
            "switch 's1': multipath 'random' is not a multipath mode: use spray or ecmp");
    }

    @Test
    void shouldNameTheFileWhenItCannotBeRead(@TempDir final Path directory) throws Exception
    {
        final Path missing = directory.resolve("missing.yaml");
        final TopologyException ex = assertThrows(TopologyException.class, () -> TopologyParser.parse(missing));
        assertEquals(missing + ": no such file", ex.getMessage());

        final Path file = Files.writeString(directory.resolve("bad.yaml"), with("ip: 10.0.0.2", "ip: x"));
        final TopologyException bad = assertThrows(TopologyException.class, () -> TopologyParser.parse(file));
        assertTrue(bad.getMessage().startsWith(file + ":8:"), bad.getMessage());
    }

    static Path resource(final String name) throws Exception
    {
        return Path.of(TopologyParserTest.class.getResource("/topology/" + name).toURI());
    }

    private static Topology parse(final String yaml)
    {
        return TopologyParser.parse(SOURCE, new StringReader(yaml));
    }

    private static String with(final String original, final String replacement)
    {
        final int index = BASE.indexOf(original);
        assertTrue(index >= 0 && index == BASE.lastIndexOf(original), "one '" + original + "' in BASE");
        return BASE.replace(original, replacement);
    }

    private static TopologyException assertRejected(final String yaml, final int line, final String phrase)
    {
        final TopologyException ex = assertThrows(TopologyException.class, () -> parse(yaml));
        final String message = ex.getMessage();
        assertTrue(message.startsWith(SOURCE + ":" + line + ":"), message);
        assertTrue(message.contains(phrase), message);
        assertFalse(message.contains("\n"), message);
        assertEquals(line, ex.line(), message);
        return ex;
    }
}
