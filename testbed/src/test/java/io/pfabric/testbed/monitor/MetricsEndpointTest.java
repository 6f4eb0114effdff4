package io.pfabric.testbed.monitor;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The records of where a testbed's daemons serve their meters.
 */
class MetricsEndpointTest
{
    @TempDir
    Path state;

    @Test
    void recordsAreReadBackByRoleAndNameAndRemovedAllAtOnce() throws IOException
    {
        final MetricsEndpoint h2 = new MetricsEndpoint("hostd", "h2", "127.0.0.1:40002");
        final MetricsEndpoint switches = new MetricsEndpoint(MetricsEndpoint.SWITCHES, MetricsEndpoint.SWITCHES,
            "127.0.0.1:40001");
        final MetricsEndpoint h1 = new MetricsEndpoint("hostd", "h1", "127.0.0.1:40003");
        h2.write(state);
        switches.write(state);
        h1.write(state);
        new MetricsEndpoint("hostd", "h1", "127.0.0.1:40004").write(state);

        assertEquals(List.of(new MetricsEndpoint("hostd", "h1", "127.0.0.1:40004"), h2, switches),
            MetricsEndpoint.readAll(state));
        assertEquals("http://127.0.0.1:40002/metrics", h2.url());
        assertEquals("hostd h2", h2.label());

        MetricsEndpoint.removeAll(state);
        assertEquals(List.of(), MetricsEndpoint.readAll(state));
    }

    @Test
    void aDaemonBelongsToTheTestbedWhoseTopologyItRunsWhileTheTestbedRuns() throws IOException
    {
        final Path topology = state.resolve("topology.yaml");
        Files.writeString(topology, "hosts: []\n");
        assertNull(MetricsEndpoint.testbedOf(topology));

        Files.writeString(state.resolve(MetricsEndpoint.SWITCHES_PID), "1");
        assertEquals(state.toAbsolutePath(), MetricsEndpoint.testbedOf(topology));
        assertNull(MetricsEndpoint.testbedOf(state.resolve("other.yaml")));
        assertNull(MetricsEndpoint.testbedOf(null));
    }
}
