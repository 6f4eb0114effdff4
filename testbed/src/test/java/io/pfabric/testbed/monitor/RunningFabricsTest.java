package io.pfabric.testbed.monitor;

import io.pfabric.common.topology.Topology;
import io.pfabric.common.topology.TopologySpec;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which fabric {@code pfabric top} and {@code pfabric monitor} are about: the standing testbed and the runs published
 * under {@code live/}, each running while its switches' process lives (this JVM stands in for it), chosen by name or
 * as the only one; and a publication that goes away when closed.
 */
class RunningFabricsTest
{
    private static final Topology STAR = TopologySpec.parse("star:2").toTopology(100_000_000L, "pfabric");

    @TempDir
    Path directory;

    private Path pfabric;

    @BeforeEach
    void home()
    {
        pfabric = directory.resolve(".pfabric");
    }

    private Path testbed() throws IOException
    {
        final Path state = pfabric.resolve(RunningFabrics.TESTBED);
        Files.createDirectories(state);
        Files.writeString(state.resolve("topology.yaml"), STAR.toYaml());
        Files.writeString(state.resolve(MetricsEndpoint.SWITCHES_PID), Long.toString(ProcessHandle.current().pid()));
        return state;
    }

    @Test
    void noneRunningSaysHowToStartOne() throws IOException
    {
        final IllegalStateException failure =
            assertThrows(IllegalStateException.class, () -> RunningFabrics.choose(pfabric, null));

        assertEquals("no testbed or experiment running (none recorded in " + pfabric + "): start one with " +
            "'./pfabric testbed up --topo star:4', or run './pfabric demo' in another terminal", failure.getMessage());
        assertFalse(Files.exists(pfabric), "nothing made");
    }

    @Test
    void aPublishedRunIsFoundWhileItRunsAndGoneOnceClosed() throws IOException
    {
        final Path entry;
        try (PublishedFabric demo = PublishedFabric.inProcess(pfabric, "demo", STAR))
        {
            entry = demo.stateDirectory();
            demo.record(new MetricsEndpoint("hostd", "h1", "127.0.0.1:9"));

            final RunningFabrics.Fabric chosen = RunningFabrics.choose(pfabric, null);
            assertEquals(new RunningFabrics.Fabric("demo", pfabric.resolve("live").resolve("demo")), chosen);
            assertEquals(STAR.toYaml(), Files.readString(chosen.stateDirectory().resolve("topology.yaml")));
            assertEquals(List.of(new MetricsEndpoint("hostd", "h1", "127.0.0.1:9")),
                MetricsEndpoint.readAll(chosen.stateDirectory()));
            assertEquals(STAR.hosts().size(), Monitor.runningTestbed(chosen.stateDirectory()).hosts().size());

            final IllegalStateException twice = assertThrows(IllegalStateException.class,
                () -> PublishedFabric.inProcess(pfabric, "demo", STAR));
            assertEquals("another demo is running (process " + ProcessHandle.current().pid() + ", " + entry + ")",
                twice.getMessage());
        }
        assertFalse(Files.exists(entry));
        assertEquals(List.of(), RunningFabrics.running(pfabric));
    }

    @Test
    void severalRunningNeedAName() throws IOException
    {
        testbed();
        try (PublishedFabric demo = PublishedFabric.inProcess(pfabric, "demo", STAR))
        {
            final IllegalStateException several =
                assertThrows(IllegalStateException.class, () -> RunningFabrics.choose(pfabric, null));
            assertEquals("several fabrics running (testbed, demo): choose one with --fabric", several.getMessage());

            assertEquals(demo.stateDirectory(), RunningFabrics.choose(pfabric, "demo").stateDirectory());
            assertEquals(pfabric.resolve("testbed"), RunningFabrics.choose(pfabric, "testbed").stateDirectory());
            final IllegalStateException unknown =
                assertThrows(IllegalStateException.class, () -> RunningFabrics.choose(pfabric, "soak"));
            assertEquals("--fabric soak: no such fabric running (running: testbed, demo)", unknown.getMessage());
        }
    }

    @Test
    void aLeftoverOfAKilledRunIsNotRunningAndIsReplaced() throws IOException
    {
        final Path leftover = pfabric.resolve("live").resolve("experiment");
        Files.createDirectories(leftover.resolve(MetricsEndpoint.DIRECTORY));
        Files.writeString(leftover.resolve("topology.yaml"), STAR.toYaml());
        Files.writeString(leftover.resolve(MetricsEndpoint.DIRECTORY).resolve("hostd-h1.endpoint"), "stale");

        assertEquals(List.of(), RunningFabrics.running(pfabric));
        try (PublishedFabric experiment = PublishedFabric.inProcess(pfabric, "experiment", STAR))
        {
            assertEquals(List.of(), MetricsEndpoint.readAll(experiment.stateDirectory()));
            assertEquals("experiment", RunningFabrics.choose(pfabric, null).name());
        }
    }

    @Test
    void aLinkedRunKeepsItsOwnStateAndOnlyTheLinkGoes() throws IOException
    {
        final Path out = directory.resolve("soak");
        Files.createDirectories(out);
        Files.writeString(out.resolve("topology.yaml"), STAR.toYaml());
        try (PublishedFabric soak = PublishedFabric.link(pfabric, "soak", out))
        {
            assertEquals(List.of(), RunningFabrics.running(pfabric), "not running before its switches start");
            Files.writeString(out.resolve(MetricsEndpoint.SWITCHES_PID), Long.toString(ProcessHandle.current().pid()));
            assertEquals("soak", RunningFabrics.choose(pfabric, null).name());
            assertEquals(out, soak.stateDirectory());
        }
        assertFalse(Files.exists(pfabric.resolve("live").resolve("soak"), LinkOption.NOFOLLOW_LINKS));
        assertTrue(Files.isRegularFile(out.resolve("topology.yaml")), "the soak's own state stays");
    }
}
