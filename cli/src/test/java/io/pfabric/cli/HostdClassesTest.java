package io.pfabric.cli;

import io.pfabric.common.topology.Topology;
import io.pfabric.common.topology.TopologyParser;
import io.pfabric.common.topology.TrafficClasses;
import org.junit.jupiter.api.Test;

import java.io.StringReader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class HostdClassesTest
{
    private static final String TOPOLOGY = """
        hosts:
          - name: h1
            ip: 10.0.0.1
            mac: "02:00:00:00:00:01"
            switch: s1
            port: p1
          - name: h2
            ip: 10.0.0.2
            mac: "02:00:00:00:00:02"
            switch: s1
            port: p2
          - name: h3
            ip: 10.0.0.3
            mac: "02:00:00:00:00:03"
            switch: s1
            port: p3
        switches:
          - name: s1
            ports:
              - name: p1
                interface: veth-s1-p1
                discipline: pfabric-classes
                classes: 3:0-7;1:8-15
              - name: p2
                interface: veth-s1-p2
                discipline: pfabric-classes
              - name: p3
                interface: veth-s1-p3
        """;

    @Test
    void aHostTakesTheClassesOfItsSwitchPortUnlessGivenOthersOrNone()
    {
        final Topology topology = TopologyParser.parse("topo.yaml", new StringReader(TOPOLOGY));

        assertEquals(TrafficClasses.parse("3:0-7;1:8-15"),
            HostdCommand.hostClasses(null, topology, topology.host("h1")));
        assertEquals(TrafficClasses.DEFAULT, HostdCommand.hostClasses(null, topology, topology.host("h2")),
            "a pfabric-classes port without classes has the default ones");
        assertNull(HostdCommand.hostClasses(null, topology, topology.host("h3")), "a plain pfabric port: none");
        assertNull(HostdCommand.hostClasses("none", topology, topology.host("h1")));
        assertEquals(TrafficClasses.parse("1;1:46"), HostdCommand.hostClasses("1;1:46", topology,
            topology.host("h3")));
        assertThrows(IllegalArgumentException.class,
            () -> HostdCommand.hostClasses("1:0;1:0", topology, topology.host("h3")));
    }
}
