package io.pfabric.testbed.monitor;

import io.pfabric.common.topology.Topology;
import io.pfabric.common.topology.TopologySpec;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The scrape configuration from a topology and the metrics records of its daemons.
 */
class ScrapeConfigTest
{
    private final Topology topology = TopologySpec.parse("star:3").toTopology(100_000_000L, "pfabric");
    private final MetricsEndpoint switches = new MetricsEndpoint(MetricsEndpoint.SWITCHES, MetricsEndpoint.SWITCHES,
        "127.0.0.1:40001");
    private final MetricsEndpoint h1 = new MetricsEndpoint("hostd", "h1", "127.0.0.1:40002");
    private final MetricsEndpoint h3 = new MetricsEndpoint("hostd", "h3", "127.0.0.1:40003");

    @Test
    void oneJobPerKindOfDaemonOneLabelledTargetPerDaemonAndTheHostsLeftOutSaid()
    {
        final String yaml = ScrapeConfig.generate(topology, List.of(switches, h1, h3), 2_000);

        assertEquals("""
            # Written by 'pfabric monitor up' from the testbed's topology (3 hosts, 1 switches) and the metrics \
            records of its daemons.
            # Hosts with no daemon serving metrics (start hostd with --metrics 0): h2
            global:
              scrape_interval: 2000ms
              scrape_timeout: 2000ms
              evaluation_interval: 2000ms
            scrape_configs:
              - job_name: pfabric-switches
                metrics_path: /metrics
                static_configs:
                  - targets: ['127.0.0.1:40001']
                    labels:
                      daemon: switches
                      name: switches
                    # serves switches s1
              - job_name: pfabric-hostd
                metrics_path: /metrics
                static_configs:
                  - targets: ['127.0.0.1:40002']
                    labels:
                      daemon: hostd
                      name: h1
                  - targets: ['127.0.0.1:40003']
                    labels:
                      daemon: hostd
                      name: h3
            """, yaml);
        assertEquals(List.of("h2"), ScrapeConfig.unservedHosts(topology, List.of(switches, h1, h3)));
    }

    @Test
    void aRecordOfNoDaemonOfTheTopologyOrNoSwitchesIsRefused()
    {
        final IllegalStateException stranger = assertThrows(IllegalStateException.class, () ->
            ScrapeConfig.generate(topology, List.of(switches, new MetricsEndpoint("hostd", "h9", "127.0.0.1:1")),
                2_000));
        assertTrue(stranger.getMessage().startsWith("hostd h9 (recorded at 127.0.0.1:1) is not a daemon of the " +
            "testbed's topology"), stranger.getMessage());

        final IllegalStateException noSwitches = assertThrows(IllegalStateException.class, () ->
            ScrapeConfig.generate(topology, List.of(h1), 2_000));
        assertTrue(noSwitches.getMessage().startsWith("the testbed's switches serve no metrics"),
            noSwitches.getMessage());
    }
}
