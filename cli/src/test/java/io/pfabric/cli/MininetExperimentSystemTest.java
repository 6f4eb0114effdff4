package io.pfabric.cli;

import io.pfabric.experiment.ExperimentSettings;
import io.pfabric.experiment.Experiment;
import io.pfabric.common.topology.Topologies;
import io.pfabric.hostd.workload.FctLogReader;
import io.pfabric.testbed.NetnsFabric;
import io.pfabric.testsupport.RequiresNetns;
import org.junit.jupiter.api.AfterEach;
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
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The experiment runner on a fabric Mininet builds ({@code --testbed mininet}): pFabric and kernel TCP replay one
 * trace on {@code star:3} with a switchd process per switch started by Mininet, and every flow completes.
 */
@Timeout(300)
@RequiresNetns
class MininetExperimentSystemTest
{
    private static final int FLOWS = 20;

    @TempDir
    Path out;

    @AfterEach
    void tearDown() throws Exception
    {
        NetnsFabric.removeLeftovers(Experiment.PREFIX);
    }

    @Test
    void pfabricAndTcpReplayATraceOnAMininetFabric() throws Exception
    {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/mn")) && Files.isExecutable(Path.of("/usr/bin/python3")),
            "Mininet is not installed");
        System.setProperty("pfabric.home", Path.of("..").toAbsolutePath().normalize().toString());
        final ExperimentSettings settings = new ExperimentSettings("mininet", "star:3",
            Topologies.star(3, "", 100_000_000L, "pfabric"), 100_000_000L, "websearch", List.of(0.4),
            List.of("pfabric", "tcp"), FLOWS, 3, out, "reno", 0, TimeUnit.SECONDS.toNanos(30),
            "./pfabric experiment --testbed mininet --topo star:3");
        final ByteArrayOutputStream progress = new ByteArrayOutputStream();
        final Experiment.Outcome outcome =
            new Experiment(settings, new PrintStream(progress, true, StandardCharsets.UTF_8)).run();

        for (final String scheme : List.of("pfabric", "tcp", "ideal", Experiment.SIMULATED_SCHEME))
        {
            final List<FctLogReader.Row> rows = FctLogReader.read(out.resolve("fct-" + scheme + "-0.4.csv"));
            assertEquals(FLOWS, rows.size(), scheme + " logged every flow");
            assertTrue(rows.stream().allMatch(FctLogReader.Row::isComplete), scheme + ": every flow completed\n" +
                progress.toString(StandardCharsets.UTF_8));
        }
        assertTrue(outcome.rtts().maxNs() > 0);
        assertEquals(List.of(), NetnsFabric.removeLeftovers(Experiment.PREFIX), "no namespace left attached");
    }
}
