package io.pfabric.cli;

import io.pfabric.common.topology.Topologies;
import io.pfabric.common.topology.Topology;
import io.pfabric.experiment.Experiment;
import io.pfabric.experiment.ExperimentSettings;
import io.pfabric.hostd.HostDaemon;
import io.pfabric.testbed.FabricRunner;
import io.pfabric.testbed.NetnsFabric;
import io.pfabric.testbed.monitor.RunningFabrics;
import io.pfabric.testbed.monitor.Top;
import io.pfabric.testsupport.Await;
import io.pfabric.testsupport.RequiresNetns;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An experiment's fabric seen from outside while it runs, as {@code pfabric demo} runs one: the smallest experiment
 * ({@code star:3} in namespaces of the test's own prefix) is held right after its hosts start, the test sends flows
 * through those hosts, and then {@code pfabric top --once}, run as a user runs it in another terminal, prints every
 * switch port and every host of the run with its counters; and {@code --live}'s view redraws the same ports and hosts
 * while the run goes on. When the run is stopped (as on Ctrl-C), its fabric is no longer published: a top left
 * running says so and ends, and {@code pfabric top} says that nothing runs.
 */
@RequiresNetns
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class TopDuringExperimentSystemTest
{
    private static final String PREFIX = "pftop";
    private static final long RATE_BITS_PER_SEC = 100_000_000L;
    private static final Duration PATIENCE = Duration.ofSeconds(60);
    /**
     * A flow that outlasts the test (5 min at the line rate; the test times out after 3), so that it still runs
     * whenever {@code pfabric top} looks, however long top takes to start on a busy machine.
     */
    private static final long OUTLASTING_FLOW_BYTES = 4_000_000_000L;

    @TempDir
    Path directory;

    private final ExecutorService runner = Executors.newSingleThreadExecutor();
    private final ExecutorService watcher = Executors.newSingleThreadExecutor();
    private final Held held = new Held();
    private Experiment experiment;

    /**
     * Holds the experiment's thread when its first hosts have started, until released; passes every event on.
     */
    private static final class Held implements Experiment.Observer
    {
        private final CompletableFuture<List<HostDaemon>> hosts = new CompletableFuture<>();
        private final CountDownLatch release = new CountDownLatch(1);
        private volatile Experiment.Observer next = new Experiment.Observer()
        {
        };

        public void onFabric(final Topology topology, final FabricRunner switches)
        {
            next.onFabric(topology, switches);
        }

        public void onHosts(final List<HostDaemon> started)
        {
            next.onHosts(started);
            if (hosts.complete(started))
            {
                try
                {
                    release.await();
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    @AfterEach
    void cleanUp() throws Exception
    {
        try
        {
            if (null != experiment)
            {
                experiment.stop();
            }
            held.release.countDown();
            watcher.shutdownNow();
            runner.shutdown();
            assertTrue(runner.awaitTermination(60, TimeUnit.SECONDS), "the stopped run ended");
        }
        finally
        {
            NetnsFabric.removeLeftovers(PREFIX);
        }
    }

    private Future<?> start(final Path pfabricDirectory) throws IOException
    {
        final ExperimentSettings settings = new ExperimentSettings("netns", "star:3",
            Topologies.star(3, "", RATE_BITS_PER_SEC, "pfabric"), RATE_BITS_PER_SEC, "websearch", List.of(0.5),
            List.of("pfabric"), 10, 1, directory.resolve("out"), "cubic", 0, TimeUnit.SECONDS.toNanos(10), "test");
        experiment = new Experiment(settings, new PrintStream(new ByteArrayOutputStream(), true,
            StandardCharsets.UTF_8), PREFIX).observe(held);
        if (null != pfabricDirectory)
        {
            experiment.publish(pfabricDirectory, "experiment");
        }
        return runner.submit(() -> experiment.run());
    }

    /**
     * Run {@code pfabric top ARGS} with the project's home in the test's directory.
     */
    private int top(final StringBuilder out, final StringBuilder err, final String... args)
    {
        final String home = System.getProperty("pfabric.home");
        final PrintStream original = System.out;
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        final StringWriter errors = new StringWriter();
        final List<String> arguments = new ArrayList<>(List.of("top"));
        arguments.addAll(List.of(args));
        try (PrintStream capture = new PrintStream(captured, true, StandardCharsets.UTF_8))
        {
            System.setProperty("pfabric.home", directory.toString());
            System.setOut(capture);
            return PfabricCommand.commandLine().setErr(new PrintWriter(errors, true))
                .execute(arguments.toArray(String[]::new));
        }
        finally
        {
            System.setOut(original);
            if (null == home)
            {
                System.clearProperty("pfabric.home");
            }
            else
            {
                System.setProperty("pfabric.home", home);
            }
            out.append(captured.toString(StandardCharsets.UTF_8));
            err.append(errors);
        }
    }

    private static String[] row(final String screen, final String first, final String second)
    {
        for (final String line : screen.split("\n"))
        {
            final String[] fields = line.trim().split("\\s+");
            if (fields.length >= 2 && first.equals(fields[0]) && (null == second || second.equals(fields[1])))
            {
                return fields;
            }
        }
        return null;
    }

    @Test
    void topInAnotherTerminalShowsTheRunsPortsAndHostsAndNothingOnceItStops() throws Exception
    {
        final Path pfabricDirectory = directory.resolve(".pfabric");
        final Future<?> run = start(pfabricDirectory);
        final List<HostDaemon> hosts = held.hosts.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        hosts.get(0).send("h2", 100_000).get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        hosts.get(2).send("h2", OUTLASTING_FLOW_BYTES);

        final StringBuilder out = new StringBuilder();
        final StringBuilder err = new StringBuilder();
        assertEquals(0, top(out, err, "--once", "--interval", "500ms"), err.toString());

        final String screen = out.toString();
        assertTrue(screen.startsWith("pfabric top  experiment  "), screen);
        assertTrue(screen.contains("1 switches, 3 hosts, 4 daemons serving metrics"), screen);
        for (final String port : List.of("p1", "p2", "p3"))
        {
            assertTrue(null != row(screen, "s1", port), port + " of s1 in\n" + screen);
        }
        final String[] toH2 = row(screen, "s1", "p2");
        assertFalse("0".equals(toH2[2]) && "b/s".equals(toH2[3]), "h3's flow to h2 leaves port p2 during the view\n" +
            screen);
        for (final String host : List.of("h1", "h2", "h3"))
        {
            assertTrue(null != row(screen, host, null), host + " in\n" + screen);
        }
        assertTrue(Long.parseLong(row(screen, "h1", null)[2]) >= 1, "h1's flow done\n" + screen);
        assertEquals(1, Long.parseLong(row(screen, "h3", null)[1]), "h3's long flow active\n" + screen);

        final ByteArrayOutputStream watched = new ByteArrayOutputStream();
        final Future<?> watching = watcher.submit(() -> Top.run(
            pfabricDirectory.resolve(RunningFabrics.DIRECTORY).resolve("experiment"), "experiment",
            new PrintStream(watched, true, StandardCharsets.UTF_8), false, TimeUnit.MILLISECONDS.toNanos(100)));
        experiment.stop();
        held.release.countDown();
        Await.await(run::isDone, PATIENCE, "the stopped run ended");
        Await.await(watching::isDone, PATIENCE, "top, left running, ended with the run");
        assertTrue(watched.toString(StandardCharsets.UTF_8).endsWith("pfabric top: the experiment has stopped " +
            "running\n"), watched.toString(StandardCharsets.UTF_8));
        assertFalse(Files.exists(pfabricDirectory.resolve(RunningFabrics.DIRECTORY).resolve("experiment")),
            "the run's fabric is no longer published");

        final StringBuilder after = new StringBuilder();
        final StringBuilder afterErr = new StringBuilder();
        assertEquals(2, top(after, afterErr, "--once"), after.toString());
        assertEquals("pfabric top: no testbed or experiment running (none recorded in " + pfabricDirectory + "): " +
            "start one with './pfabric testbed up --topo star:4', or run './pfabric demo' in another terminal\n",
            afterErr.toString());
        assertEquals("", after.toString());
    }

    @Test
    void theLiveViewRedrawsThePortsAndHostsWhileTheRunGoesOn() throws Exception
    {
        final ByteArrayOutputStream drawn = new ByteArrayOutputStream();
        final LiveView view = new LiveView(new PrintStream(drawn, true, StandardCharsets.UTF_8), "demo");
        final List<String> views;
        final int before;
        try
        {
            held.next = view;
            start(null);
            final List<HostDaemon> hosts = held.hosts.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            // A view being drawn as the hosts started may not show them yet: it counts among those before.
            before = snapshots(drawn).size() + 1;
            hosts.get(0).send("h2", 100_000).get(PATIENCE.toSeconds(), TimeUnit.SECONDS);

            Await.await(() -> snapshots(drawn).size() >= before + 3 && h1Done(last(drawn)), PATIENCE,
                () -> "more views, the last with h1's flow done; drawn:\n" + drawn);
        }
        finally
        {
            view.close();
        }
        views = snapshots(drawn);
        assertTrue(views.size() >= before + 3, views.toString());
        long done = 0;
        for (final String screen : views.subList(before, views.size()))
        {
            assertTrue(screen.startsWith("pfabric demo  "), screen);
            assertTrue(screen.contains("1 switches, 3 hosts"), screen);
            for (final String port : List.of("p1", "p2", "p3"))
            {
                assertTrue(null != row(screen, "s1", port), port + " of s1 in\n" + screen);
            }
            for (final String host : List.of("h1", "h2", "h3"))
            {
                assertTrue(null != row(screen, host, null), host + " in\n" + screen);
            }
            final long h1 = Long.parseLong(row(screen, "h1", null)[2]);
            assertTrue(h1 >= done, "h1's flows done never decrease from one view to the next\n" + screen);
            done = h1;
        }
        assertEquals(1, done, "the last view shows h1's flow done");
    }

    private static List<String> snapshots(final ByteArrayOutputStream drawn)
    {
        final String[] parts = drawn.toString(StandardCharsets.UTF_8).split(Pattern.quote(Top.CLEAR), -1);
        return List.of(parts).subList(1, parts.length);
    }

    private static String last(final ByteArrayOutputStream drawn)
    {
        final List<String> views = snapshots(drawn);
        return views.isEmpty() ? "" : views.get(views.size() - 1);
    }

    private static boolean h1Done(final String screen)
    {
        final String[] h1 = row(screen, "h1", null);
        return null != h1 && h1.length >= 5 && h1[2].matches("[0-9]+") && Long.parseLong(h1[2]) >= 1;
    }
}
