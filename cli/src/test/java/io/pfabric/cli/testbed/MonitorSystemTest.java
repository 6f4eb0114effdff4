package io.pfabric.cli.testbed;

import io.pfabric.common.topology.HostSpec;
import io.pfabric.common.topology.SwitchSpec;
import io.pfabric.common.topology.Topology;
import io.pfabric.common.topology.TopologySpec;
import io.pfabric.testbed.NetnsFabric;
import io.pfabric.testbed.monitor.MetricsEndpoint;
import io.pfabric.testbed.monitor.Monitor;
import io.pfabric.testbed.monitor.PrometheusText;
import io.pfabric.testbed.monitor.Top;
import io.pfabric.testbed.monitor.TopView;
import io.pfabric.testsupport.Await;
import io.pfabric.testsupport.LoopbackPorts;
import io.pfabric.testsupport.RequiresNetns;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A star of three hosts in namespaces of its own, its switches run as {@code testbed up} runs them and a hostd with a
 * workload and {@code --metrics 0} on every host: {@code Monitor.up} starts the real Prometheus scraping all four
 * daemons, and every query of every panel of {@code tools/grafana/pfabric.json}, read from the file, returns data
 * (a non-empty result with a number) through Prometheus's HTTP API; {@code pfabric top --once} shows every switch
 * port and every host, with flows done; {@code Monitor.down} stops Prometheus and removes its files.
 * <p>
 * The hosts offer web search at load 0.1. At 0.4 the data-path threads, real-time, kept 1.3 to 1.75 of the two
 * cores busy (the three hosts' threads 0.8 to 1 core between them, the forwarder 0.5 to 0.7), and every ordinary
 * thread of the machine shared the rest: a hostd's young-generation pauses took up to 0.8 s, and with four more
 * busy threads on the machine ({@code stress-ng --cpu 4}) three runs in five failed, Prometheus or {@code top}
 * waiting in vain for a hostd's scrape; at 0.1, none in five.
 */
@RequiresNetns
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class MonitorSystemTest
{
    private static final String PREFIX = "pfmon";
    private static final Duration PATIENCE = Duration.ofSeconds(90);
    private static final long QUERY_PACE_NS = TimeUnit.MILLISECONDS.toNanos(250);
    private static final Pattern EXPR = Pattern.compile("\"expr\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern VALUE = Pattern.compile("\"value\":\\[[^,]+,\"([^\"]+)\"\\]");

    @TempDir
    Path directory;

    private final PfabricJava.Children children = new PfabricJava.Children();
    private NetnsFabric fabric;
    private Path state;

    @AfterEach
    void cleanUp() throws IOException, InterruptedException
    {
        try
        {
            if (null != state)
            {
                Monitor.down(state);
            }
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
    void everyPanelQueryReturnsDataThroughPrometheusAndTopShowsEveryPortAndHost() throws Exception
    {
        final Topology topology = TopologySpec.parse("star:3").toTopology(100_000_000L, "pfabric-classes");
        state = directory.resolve(".pfabric").resolve("testbed");
        Files.createDirectories(state);
        final Path topologyFile = state.resolve("topology.yaml");
        Files.writeString(topologyFile, topology.toYaml(), StandardCharsets.UTF_8);
        NetnsFabric.removeLeftovers(PREFIX);
        fabric = NetnsFabric.build(topology, PREFIX);
        final Path switchesLog = directory.resolve("switches.log");
        final Process switches = children.start(directory, switchesLog,
            List.of("testbed", "switches", topologyFile.toString(), "--prefix", PREFIX, "--metrics", "0"));
        Files.writeString(state.resolve(MetricsEndpoint.SWITCHES_PID), Long.toString(switches.pid()));
        Await.await(paced(() -> records() >= 1), PATIENCE, () -> "the switches recorded their metrics endpoint; log: " +
            PfabricJava.text(switchesLog));
        for (final HostSpec host : topology.hosts())
        {
            children.start(directory, directory.resolve("hostd-" + host.name() + ".log"), List.of("hostd",
                "--topology", topologyFile.toString(), "--name", host.name(), "--netns", PREFIX + "-" + host.name(),
                "--base-rtt", "500us", "--workload", "websearch", "--load", "0.1", "--duration", "300s", "--stay",
                "--dscp-shares", "0:1,8:1", "--fct-log", directory.resolve("fct-" + host.name() + ".csv").toString(),
                "--metrics", "0"));
        }
        Await.await(paced(() -> records() >= 1 + topology.hosts().size()), PATIENCE,
            () -> "every hostd recorded its metrics endpoint; h1's log: " +
                PfabricJava.text(directory.resolve("hostd-h1.log")));

        final Monitor.Running running = Monitor.up(state, "prometheus", new InetSocketAddress("127.0.0.1",
            LoopbackPorts.free()));
        assertEquals(1 + topology.hosts().size(), running.endpoints().size());
        assertTrue(running.unserved().isEmpty(), running.unserved().toString());

        final String dashboard = Files.readString(PfabricJava.repository().resolve("tools/grafana/pfabric.json"));
        final List<String> queries = panelQueries(dashboard);
        assertEquals(7, count(dashboard, "\"type\": \"timeseries\""), "panels");
        assertTrue(queries.size() >= 7, queries.toString());
        for (final String query : queries)
        {
            final StringBuilder last = new StringBuilder();
            Await.await(paced(() -> hasNumber(running.url(), query, last)), PATIENCE,
                () -> "Prometheus answered '" + query + "' with data; last answer: " + last);
        }

        final List<MetricsEndpoint> endpoints = MetricsEndpoint.readAll(state);
        final List<String> problems = new ArrayList<>();
        final PrometheusText before = Top.scrape(endpoints, problems);
        final ByteArrayOutputStream printed = new ByteArrayOutputStream();
        Top.run(state, new PrintStream(printed, true, StandardCharsets.UTF_8), true,
            TimeUnit.SECONDS.toNanos(1));
        final String text = printed.toString(StandardCharsets.UTF_8);
        assertFalse(text.contains("\033["), text);
        final TopView view = TopView.of(before, Top.scrape(endpoints, problems), 1);
        assertTrue(problems.isEmpty(), problems.toString());
        int ports = 0;
        for (final SwitchSpec spec : topology.switches())
        {
            for (final var port : spec.ports())
            {
                ports++;
                assertTrue(Pattern.compile("(?m)^" + spec.name() + " +" + port.name() + " ").matcher(text).find(),
                    spec.name() + " " + port.name() + " in\n" + text);
            }
        }
        assertEquals(ports, view.ports().size());
        for (final HostSpec host : topology.hosts())
        {
            assertTrue(Pattern.compile("(?m)^" + host.name() + " +\\d+ +\\d+ ").matcher(text).find(),
                host.name() + " in\n" + text);
        }
        assertEquals(topology.hosts().size(), view.hosts().size());
        assertTrue(view.hosts().stream().allMatch(h -> h.completed() > 0), view.hosts().toString());

        assertTrue(Monitor.down(state));
        assertFalse(Files.exists(state.resolve(Monitor.DIRECTORY)));
        assertFalse(ProcessHandle.of(running.pid()).map(ProcessHandle::isAlive).orElse(false));
    }

    private long records()
    {
        try
        {
            return MetricsEndpoint.readAll(state).size();
        }
        catch (final IOException ex)
        {
            return 0;
        }
    }

    /**
     * The {@code expr} of every target of every panel, unescaped.
     */
    static List<String> panelQueries(final String dashboard)
    {
        final List<String> queries = new ArrayList<>();
        final Matcher matcher = EXPR.matcher(dashboard);
        while (matcher.find())
        {
            queries.add(matcher.group(1).replace("\\\"", "\"").replace("\\\\", "\\"));
        }
        return queries;
    }

    private static int count(final String text, final String what)
    {
        int count = 0;
        for (int at = text.indexOf(what); at >= 0; at = text.indexOf(what, at + 1))
        {
            count++;
        }
        return count;
    }

    private static boolean hasNumber(final String prometheus, final String query, final StringBuilder last)
    {
        try
        {
            final HttpURLConnection connection = (HttpURLConnection)URI.create(prometheus + "/api/v1/query?query=" +
                URLEncoder.encode(query, StandardCharsets.UTF_8)).toURL().openConnection();
            connection.setConnectTimeout(2_000);
            connection.setReadTimeout(5_000);
            final String body;
            try (InputStream in = connection.getResponseCode() < 400 ? connection.getInputStream() :
                connection.getErrorStream())
            {
                body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            last.setLength(0);
            last.append(body);
            if (!body.contains("\"status\":\"success\""))
            {
                return false;
            }
            final Matcher value = VALUE.matcher(body);
            while (value.find())
            {
                if (!"NaN".equals(value.group(1)))
                {
                    return true;
                }
            }
            return false;
        }
        catch (final IOException ex)
        {
            last.setLength(0);
            last.append(ex);
            return false;
        }
    }

    private static BooleanSupplier paced(final BooleanSupplier condition)
    {
        final long[] nextNs = { System.nanoTime() };
        return () ->
        {
            if (System.nanoTime() - nextNs[0] < 0)
            {
                return false;
            }
            nextNs[0] = System.nanoTime() + QUERY_PACE_NS;
            return condition.getAsBoolean();
        };
    }
}
