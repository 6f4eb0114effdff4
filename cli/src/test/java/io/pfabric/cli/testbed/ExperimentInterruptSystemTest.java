package io.pfabric.cli.testbed;

import io.pfabric.hostd.workload.FctLogWriter;
import io.pfabric.testsupport.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Ctrl-C (SIGINT) to {@code pfabric experiment} as a user sends it, on the unprivileged loopback testbed: while it
 * warms up, and in the middle of a load's run. Either way its last line says it was interrupted and where, no other
 * failure is reported, the interrupted run leaves no FCT log that looks whole, only its partial file, and the fabric
 * it published for {@code pfabric top} while it ran is gone.
 */
@Timeout(240)
class ExperimentInterruptSystemTest
{
    private static final Duration PATIENCE = Duration.ofSeconds(120);

    @TempDir
    Path directory;

    private final PfabricJava.Children children = new PfabricJava.Children();

    @AfterEach
    void stopAll() throws InterruptedException
    {
        children.stopAll();
    }

    private String interruptOnceItSays(final String phase) throws Exception
    {
        return interruptOnce(phase, directory.resolve("experiment.log"));
    }

    private String interruptOnce(final String phase, final Path file) throws Exception
    {
        final Path log = directory.resolve("experiment.log");
        final Process experiment = children.start(directory, log, List.of("experiment", "--testbed", "loopback",
            "--topo", "star:3", "--rate", "100m", "--flows", "2000", "--loads", "0.5", "--schemes", "pfabric",
            "--out", directory.resolve("out").toString()));
        Await.await(() -> PfabricJava.text(log).contains("pfabric experiment: " + phase) && Files.exists(file),
            PATIENCE, () -> "the experiment reached '" + phase + "' and wrote " + file + "; its output:\n" +
                PfabricJava.text(log));
        final Path published = directory.resolve(".pfabric").resolve("live").resolve("experiment");
        assertTrue(Files.isRegularFile(published.resolve("topology.yaml")), "published for 'pfabric top' while it runs");
        new ProcessBuilder("kill", "-INT", Long.toString(experiment.pid())).start().waitFor();
        assertTrue(experiment.waitFor(PATIENCE.toSeconds(), TimeUnit.SECONDS), () -> "the experiment ended; its " +
            "output:\n" + PfabricJava.text(log));
        assertFalse(Files.exists(published), "no longer published once interrupted");
        return PfabricJava.text(log);
    }

    private static String lastLine(final String output)
    {
        final List<String> lines = output.strip().lines().toList();
        return lines.get(lines.size() - 1);
    }

    @Test
    void ctrlCWhileWarmingUpSaysItWasInterrupted() throws Exception
    {
        final String output = interruptOnceItSays("warming up");

        assertTrue(lastLine(output).startsWith("pfabric experiment: interrupted during "), output);
        assertFalse(output.contains("did not complete"), output);
    }

    @Test
    void ctrlCDuringALoadLeavesNoWholeLookingLogAndSaysHowFarItGot() throws Exception
    {
        final Path log = directory.resolve("out").resolve("fct-pfabric-0.5.csv");
        final String output = interruptOnce("pfabric at load 0.5", FctLogWriter.partialOf(log));

        assertTrue(lastLine(output).startsWith("pfabric experiment: interrupted during pfabric at load 0.5, "),
            output);
        assertFalse(Files.exists(log), () -> "no whole-looking log of the interrupted run:\n" + output);
        assertTrue(Files.exists(FctLogWriter.partialOf(log)), output);
        assertEquals(1, output.lines().filter(line -> line.startsWith("pfabric experiment: interrupted")).count(),
            output);
    }
}
