package io.pfabric.cli.testbed;

import io.pfabric.common.topology.Topology;
import io.pfabric.common.topology.TopologySpec;
import io.pfabric.hostd.workload.TraceFile;
import io.pfabric.hostd.workload.WorkloadTrace;
import io.pfabric.testbed.NetnsFabric;
import io.pfabric.testbed.monitor.MetricsEndpoint;
import io.pfabric.testbed.monitor.Top;
import io.pfabric.testsupport.Await;
import io.pfabric.testsupport.RequiresNetns;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * tcpd run in a host's namespace of a testbed ({@code --netns}, {@code --metrics 0}) serves its meters where its
 * record says, reachable from the namespace it was started in, as {@code pfabric top} and {@code pfabric monitor}
 * scrape it, and not in the host's namespace, which its replay enters.
 */
@RequiresNetns
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class TcpdMetricsSystemTest
{
    private static final String PREFIX = "pftcm";
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @TempDir
    Path directory;

    private final PfabricJava.Children children = new PfabricJava.Children();
    private NetnsFabric fabric;

    @AfterEach
    void cleanUp() throws IOException, InterruptedException
    {
        try
        {
            children.stopAll();
        }
        finally
        {
            if (null != fabric)
            {
                fabric.close();
            }
            NetnsFabric.removeLeftovers(PREFIX);
        }
    }

    @Test
    void tcpdInAHostsNamespaceServesItsMetricsWhereItsRecordSays() throws Exception
    {
        final Topology topology = TopologySpec.parse("star:2").toTopology(100_000_000L, "pfabric");
        final Path state = directory.resolve(".pfabric").resolve("testbed");
        Files.createDirectories(state);
        final Path topologyFile = state.resolve("topology.yaml");
        Files.writeString(topologyFile, topology.toYaml(), StandardCharsets.UTF_8);
        Files.writeString(state.resolve(MetricsEndpoint.SWITCHES_PID), Long.toString(ProcessHandle.current().pid()));
        NetnsFabric.removeLeftovers(PREFIX);
        fabric = NetnsFabric.build(topology, PREFIX);
        final Path trace = directory.resolve("trace.csv");
        TraceFile.write(trace, List.of(new WorkloadTrace.FlowSpec(0, 1, 0, 10_000, 0)), List.of("h1", "h2"));
        final Path log = directory.resolve("tcpd-h1.log");
        children.start(directory, log, List.of("tcpd", "--topology", topologyFile.toString(), "--name", "h1",
            "--netns", PREFIX + "-h1", "--trace", trace.toString(), "--stay", "--metrics", "0", "--fct-log",
            directory.resolve("fct-tcp-h1.csv").toString()));
        Await.await(() -> records(state).stream().anyMatch(e -> "tcpd".equals(e.role())), PATIENCE,
            () -> "tcpd recorded its metrics endpoint; its log:\n" + PfabricJava.text(log));

        final List<String> problems = new ArrayList<>();
        Await.await(() ->
        {
            problems.clear();
            return Top.scrape(records(state), state, problems)
                .labelValues("pfabric_tcp_flows_completed_total", "host").equals(List.of("h1"));
        }, PATIENCE, () -> "tcpd's meters, scraped where its record says; the scrape's problems: " + problems +
            "; its log:\n" + PfabricJava.text(log));
        assertEquals(List.of(), problems);
    }

    private static List<MetricsEndpoint> records(final Path state)
    {
        try
        {
            return MetricsEndpoint.readAll(state);
        }
        catch (final IOException ex)
        {
            return List.of();
        }
    }
}
