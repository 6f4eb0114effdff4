package io.pfabric.cli;

import io.pfabric.cli.testbed.PfabricJava;
import io.pfabric.sim.reproduce.Report;
import io.pfabric.sim.reproduce.Reproduction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code pfabric reproduce --plan} run through real GNU parallel with 2 jobs, then {@code --collect}, gives the report
 * {@code pfabric reproduce --out} writes in one process: the same sections, verdicts and tables, the same CSVs.
 */
class ReproduceCommandTest
{
    private static final List<String> FIGURES = List.of("fig7.csv", "fig15.csv");

    @TempDir
    Path directory;

    private static boolean gnuParallel() throws InterruptedException
    {
        for (final String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
        {
            if (Files.isExecutable(Path.of(dir, "parallel")))
            {
                try
                {
                    final Process version = new ProcessBuilder("parallel", "--version").redirectErrorStream(true)
                        .start();
                    final String text = new String(version.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                    return version.waitFor(60, TimeUnit.SECONDS) && text.startsWith("GNU parallel");
                }
                catch (final java.io.IOException ex)
                {
                    return false;
                }
            }
        }
        return false;
    }

    @Test
    void aPlanRunByGnuParallelGivesTheReportOfTheInProcessRun() throws Exception
    {
        assumeTrue(gnuParallel(), "GNU parallel is not installed (moreutils' parallel is another program); " +
            "'./pfabric setup' or './pfabric test' installs it as root (Debian package parallel)");
        final Path planned = directory.resolve("planned");
        final Path inProcess = directory.resolve("in-process");
        final String launcher = String.join(" ", PfabricJava.command().stream().map(Reproduction::shellWord)
            .toList());

        assertEquals(0, PfabricCommand.commandLine().execute("reproduce", "--scale", "tiny", "--only", "7,15",
            "--plan", planned.toString(), "--launcher", launcher));
        final List<String> jobs = Files.readAllLines(planned.resolve("jobs.txt"));
        assertEquals(11, jobs.size(), "10 points of Fig 7, 1 of Fig 15");
        final Process parallel = new ProcessBuilder("bash", "-c", "parallel --will-cite -j 2 < " +
            Reproduction.shellWord(planned.resolve("jobs.txt").toString()))
            .redirectErrorStream(true).redirectOutput(directory.resolve("parallel.log").toFile()).start();
        assertTrue(parallel.waitFor(10, TimeUnit.MINUTES), "GNU parallel finished");
        final String log = Files.readString(directory.resolve("parallel.log"), StandardCharsets.UTF_8);
        assertEquals(0, parallel.exitValue(), log);
        assertEquals(jobs.size(), log.lines().filter(line -> line.startsWith("reproduce: done ")).count(), log);
        assertEquals(0, PfabricCommand.commandLine().execute("reproduce", "--collect", planned.toString()));

        assertEquals(0, PfabricCommand.commandLine().execute("reproduce", "--scale", "tiny", "--only", "7,15",
            "--out", inProcess.toString()));

        final String report = Files.readString(inProcess.resolve("report.md"));
        assertTrue(report.contains("| [7](#fig-7) |"), report);
        assertEquals(Report.withoutProvenance(report),
            Report.withoutProvenance(Files.readString(planned.resolve("report.md"))));
        for (final String figure : FIGURES)
        {
            assertArrayEquals(Files.readAllBytes(inProcess.resolve("figures").resolve(figure)),
                Files.readAllBytes(planned.resolve("figures").resolve(figure)), figure);
        }
        assertTrue(Files.readString(planned.resolve("report.html")).contains("src=\"data:image/png;base64,"));
    }
}
