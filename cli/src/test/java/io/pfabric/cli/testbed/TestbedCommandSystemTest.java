package io.pfabric.cli.testbed;

import io.pfabric.common.os.Commands;
import io.pfabric.testsupport.Await;
import io.pfabric.testsupport.RequiresNetns;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code pfabric testbed up|exec|down} as a user runs them, each in a process of its own, on namespaces of a prefix
 * of the test's own and a state directory of its own: a second {@code up} refuses while one is up and {@code down}
 * then stops every switch process; Ctrl-C during {@code up} leaves no namespace; {@code exec} with no command, an
 * unknown host or no testbed says so; the counts are in words that agree with them, and a star of fewer than two
 * hosts is refused; a topology file makes a testbed as a shape does.
 */
@Timeout(180)
@RequiresNetns
class TestbedCommandSystemTest
{
    private static final long COMMAND_SECONDS = 120;

    @TempDir
    Path home;

    private final String prefix = String.format("pfn%04x", ThreadLocalRandom.current().nextInt(0x10000));
    private final List<Process> started = new ArrayList<>();

    private record Finished(int exit, String output)
    {
    }

    @AfterEach
    void removeEverything() throws Exception
    {
        for (final Process process : started)
        {
            PfabricJava.terminate(process, 10_000);
        }
        run("testbed", "down");
        for (final String namespace : namespaces())
        {
            Commands.run("ip", "netns", "del", namespace);
        }
    }

    private List<String> namespaces() throws IOException
    {
        final List<String> names = new ArrayList<>();
        for (final String line : Commands.run("ip", "netns", "list").split("\n"))
        {
            final String name = line.trim().split(" ")[0];
            if (name.startsWith(prefix + "-"))
            {
                names.add(name);
            }
        }
        return names;
    }

    private Process start(final String log, final String... arguments) throws IOException
    {
        final List<String> command = new ArrayList<>(PfabricJava.command());
        final int classPath = command.indexOf("-cp");
        command.add(classPath, "-Dpfabric.home=" + home);
        command.add(classPath, "-Dpfabric.testbed.prefix=" + prefix);
        command.addAll(List.of(arguments));
        final Process process = new ProcessBuilder(PfabricJava.interruptible(command)).redirectErrorStream(true)
            .redirectOutput(home.resolve(log).toFile()).start();
        started.add(process);
        return process;
    }

    private Finished run(final String... arguments) throws Exception
    {
        final String log = "command-" + started.size() + ".log";
        final Process process = start(log, arguments);
        final boolean finished = process.waitFor(COMMAND_SECONDS, TimeUnit.SECONDS);
        final String output = PfabricJava.text(home.resolve(log));
        assertTrue(finished, () -> String.join(" ", arguments) + " still runs; its output:\n" + output);
        return new Finished(process.exitValue(), output);
    }

    private Optional<ProcessHandle> switches() throws IOException
    {
        final Path pidFile = home.resolve(".pfabric/testbed/switches.pid");
        return Files.exists(pidFile) ? ProcessHandle.of(Long.parseLong(Files.readString(pidFile).trim())) :
            Optional.empty();
    }

    @Test
    void aSecondUpRefusesAndDownStopsEverySwitchProcess() throws Exception
    {
        final Finished first = run("testbed", "up", "--topo", "star:2", "--rate", "100m");
        assertEquals(0, first.exit(), first.output());
        assertTrue(first.output().contains("2 hosts, 1 switch up"), first.output());
        final ProcessHandle firstSwitches = switches().orElseThrow();

        final Finished second = run("testbed", "up", "--topo", "star:3");
        assertEquals(2, second.exit(), second.output());
        assertTrue(second.output().contains("a testbed is up already") &&
            second.output().contains("'pfabric testbed down'"), second.output());
        assertEquals(List.of(prefix + "-h1", prefix + "-h2", prefix + "-s1"), namespaces().stream().sorted().toList());
        assertTrue(firstSwitches.isAlive(), "the first testbed's switches still run");

        final Finished down = run("testbed", "down");
        assertEquals(0, down.exit(), down.output());
        assertTrue(down.output().contains("removed 3 namespaces"), down.output());
        assertFalse(firstSwitches.isAlive(), "down stopped the switches");
        assertEquals(List.of(), namespaces());
    }

    @Test
    void aTestbedUpFromAnotherCheckoutIsSeenAndDownStopsItsSwitches() throws Exception
    {
        assertEquals(0, run("testbed", "up", "--topo", "star:2", "--rate", "100m").exit());
        final ProcessHandle firstSwitches = switches().orElseThrow();
        Files.delete(home.resolve(".pfabric/testbed/switches.pid"));

        final Finished second = run("testbed", "up", "--topo", "star:2");
        assertEquals(2, second.exit(), second.output());
        assertTrue(second.output().contains("a testbed is up already (its switches run as process " +
            firstSwitches.pid() + ")"), second.output());

        assertEquals(0, run("testbed", "down").exit());
        assertFalse(firstSwitches.isAlive(), "down stopped the switches it found");
        assertEquals(List.of(), namespaces());
    }

    @Test
    void ctrlCDuringUpRemovesWhatItMade() throws Exception
    {
        final Process up = start("up.log", "testbed", "up", "--topo", "leafspine:2x2x2", "--rate", "100m");
        Await.await(() -> !namespacesOrNone().isEmpty(), Duration.ofSeconds(60),
            () -> "up made a namespace; its output:\n" + PfabricJava.text(home.resolve("up.log")));
        Commands.run("kill", "-INT", Long.toString(up.pid()));

        assertTrue(up.waitFor(COMMAND_SECONDS, TimeUnit.SECONDS), "up ended on SIGINT");
        final String output = PfabricJava.text(home.resolve("up.log"));
        assertTrue(output.contains("pfabric testbed: interrupted; removed the"), output);
        assertEquals(List.of(), namespaces(), output);
        assertTrue(switches().isEmpty() || !switches().get().isAlive(), output);
    }

    private List<String> namespacesOrNone()
    {
        try
        {
            return namespaces();
        }
        catch (final IOException ex)
        {
            return List.of();
        }
    }

    @Test
    void execSaysWhatIsWrong() throws Exception
    {
        final Finished noCommand = run("testbed", "exec", "h1");
        assertEquals(2, noCommand.exit(), noCommand.output());
        assertTrue(noCommand.output().startsWith("pfabric testbed exec: give the command to run in h1"),
            noCommand.output());
        assertEquals(1, noCommand.output().strip().lines().count(), noCommand.output());

        final Finished noTestbed = run("testbed", "exec", "h1", "--", "true");
        assertEquals(2, noTestbed.exit(), noTestbed.output());
        assertEquals("pfabric testbed exec: no testbed is up; make one with 'pfabric testbed up'",
            noTestbed.output().strip());

        assertEquals(0, run("testbed", "up", "--topo", "star:2", "--rate", "100m").exit());
        final Finished unknown = run("testbed", "exec", "h9", "--", "true");
        assertEquals(2, unknown.exit(), unknown.output());
        assertEquals("pfabric testbed exec: no host or switch h9 in the testbed; it has h1, h2, s1",
            unknown.output().strip());
        assertEquals(0, run("testbed", "exec", "h1", "--", "true").exit());
    }

    @Test
    void upTakesATopologyFile() throws Exception
    {
        final Path file = PfabricJava.repository().resolve("common/src/test/resources/topology/star2.yaml");
        final Finished up = run("testbed", "up", "--topo", file.toString());
        assertEquals(0, up.exit(), up.output());
        assertTrue(up.output().contains("2 hosts, 1 switch up"), up.output());
        assertEquals(List.of(prefix + "-h1", prefix + "-h2", prefix + "-s1"), namespaces().stream().sorted().toList());
        final Finished ping = run("testbed", "exec", "h1", "--", "ping", "-c", "1", "-W", "10", "10.0.0.2");
        assertEquals(0, ping.exit(), ping.output());
    }

    @Test
    void aStarOfFewerThanTwoHostsIsRefusedBeforeAnythingIsMade() throws Exception
    {
        for (final String star : List.of("star:0", "star:1"))
        {
            final Finished refused = run("testbed", "up", "--topo", star);
            assertEquals(2, refused.exit(), refused.output());
            assertEquals("pfabric testbed up: --topo '" + star + "': a star needs at least 2 hosts",
                refused.output().strip());
            assertEquals(List.of(), namespaces());
        }
    }
}
