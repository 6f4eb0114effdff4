package io.pfabric.experiment;

import io.pfabric.hostd.workload.FctLogReader;
import io.pfabric.sim.SimFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The unprivileged experiment: switchd with VXLAN ports on loopback and hostd's frames in the tunnels, pFabric
 * queues against drop-tail queues; every flow of the trace completes under both. Needs no root.
 */
@Timeout(300)
class LoopbackExperimentTest
{
    private static final int FLOWS = 30;

    @TempDir
    Path out;

    private ExperimentSettings settings(final List<String> schemes)
    {
        return new ExperimentSettings("loopback", "star:3", Experiment.loopbackStar(3, 100_000_000L), 100_000_000L,
            "websearch", List.of(0.5), schemes, FLOWS, 11, out, "cubic", 0, TimeUnit.SECONDS.toNanos(30),
            "./pfabric experiment --testbed loopback --topo star:3");
    }

    @Test
    void pfabricAndDroptailReplayATraceOnLoopback() throws Exception
    {
        final ByteArrayOutputStream progress = new ByteArrayOutputStream();
        final Experiment experiment = new Experiment(settings(List.of("pfabric", "droptail")),
            new PrintStream(progress, true, StandardCharsets.UTF_8));
        final Experiment.Outcome outcome = experiment.run();

        for (final String scheme : List.of("pfabric", "droptail", "ideal", Experiment.SIMULATED_SCHEME))
        {
            final List<FctLogReader.Row> rows = FctLogReader.read(out.resolve("fct-" + scheme + "-0.5.csv"));
            assertEquals(FLOWS, rows.size(), scheme + " logged every flow");
            assertTrue(rows.stream().allMatch(FctLogReader.Row::isComplete), scheme + ": every flow completed\n" +
                progress.toString(StandardCharsets.UTF_8));
        }
        assertEquals(4 * 4, outcome.lines().size());
        final SimFabric simulated = experiment.simulatedFabric();
        final long measuredNs = outcome.rtts().nanos(0, 1);
        final long ratesOwnNs = simulated.withBaseRtts(0, 0).baseRttNs(0, 1);
        assertEquals(Math.max(measuredNs, ratesOwnNs), simulated.baseRttNs(0, 1), 4,
            "the simulated fabric's base RTT is the measured one, or the rates' own if the measured one is below it");
        assertTrue(Files.readString(out.resolve("README.md")).contains("pfabric-sim"), "the README says what it is");
        assertEquals(null, outcome.tcpSettings(), "no kernel TCP on loopback");
        final String readme = Files.readString(out.resolve("README.md"));
        assertTrue(readme.contains("on loopback, no privilege"), readme);
        assertFalse(Files.readString(out.resolve("counters-droptail-0.5.csv")).contains("Tcp:"),
            "no host namespaces to read kernel counters from");
    }

    @Test
    void kernelTcpIsRefusedOnLoopback()
    {
        final IllegalArgumentException error =
            assertThrows(IllegalArgumentException.class, () -> settings(List.of("pfabric", "tcp")));
        assertTrue(error.getMessage().contains("use droptail"), error.getMessage());
    }
}
