package io.pfabric.sim.reproduce;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Reproduction} at the tiny scale: resuming skips done points and says so, a truncated result is run again
 * and never counted, the same command and seed give byte-identical CSVs, and bad input is one line naming the option.
 */
class ReproductionTest
{
    private static final String COMMIT = "0123abc";
    private static final String LAUNCHER = "pfabric";
    private static final Scale TINY = Scale.named("tiny");

    @TempDir
    Path directory;

    private final ByteArrayOutputStream progressBytes = new ByteArrayOutputStream();
    private final PrintStream progress = new PrintStream(progressBytes, true, StandardCharsets.UTF_8);

    private String progress()
    {
        final String text = progressBytes.toString(StandardCharsets.UTF_8);
        progressBytes.reset();
        return text;
    }

    private List<Report.Entry> run(final Path dir, final List<String> only) throws IOException
    {
        return Reproduction.run(dir, TINY, 1, only, COMMIT, LAUNCHER, 1, progress);
    }

    private static String verdict(final List<Report.Entry> entries, final String figure)
    {
        return entries.stream().filter(e -> e.figure().id().equals(figure)).findFirst().orElseThrow().verdict();
    }

    @Test
    void aRerunSkipsTheDonePointsAndSaysSo() throws IOException
    {
        final Path dir = directory.resolve("r");
        run(dir, List.of("15", "16"));
        final String first = progress();
        assertTrue(first.contains("done model/websearch/fig15"), first);
        assertTrue(first.contains("0 points left"), first);
        final byte[] result = Files.readAllBytes(Points.resultFile(dir, "model/websearch/fig15"));

        final List<Report.Entry> entries = run(dir, List.of("15", "16"));

        final String second = progress();
        assertTrue(second.contains("2 of 2 points already done"), second);
        assertFalse(second.contains("done model/"), second);
        assertArrayEquals(result, Files.readAllBytes(Points.resultFile(dir, "model/websearch/fig15")));
        assertEquals(List.of("15", "16"), entries.stream().map(e -> e.figure().id()).toList());
        assertFalse(verdict(entries, "15").startsWith("not run"), verdict(entries, "15"));
    }

    @Test
    void aTruncatedPointIsNotCountedAndRunsAgain() throws IOException
    {
        final Path dir = directory.resolve("r");
        run(dir, List.of("15"));
        progress();
        final Path file = Points.resultFile(dir, "model/websearch/fig15");
        final String whole = Files.readString(file);
        Files.writeString(file, whole.substring(0, whole.length() / 2));

        final List<Report.Entry> collected = Reproduction.collect(dir, COMMIT, progress);

        final String collecting = progress();
        assertTrue(collecting.contains(file + " is truncated"), collecting);
        assertEquals("not run (0 of 1 points done)", verdict(collected, "15"));
        assertEquals(Points.State.TRUNCATED, Points.state(dir, "model/websearch/fig15"));

        run(dir, List.of("15"));

        final String rerun = progress();
        assertTrue(rerun.contains("is truncated (no end line); not counted, running model/websearch/fig15 again"),
            rerun);
        assertEquals(whole, Files.readString(file));
    }

    @Test
    void theSameCommandAndSeedGiveByteIdenticalCsvs() throws IOException
    {
        final Path one = directory.resolve("one");
        final Path two = directory.resolve("two");
        run(one, List.of("7", "17"));
        run(two, List.of("7", "17"));
        for (final String figure : List.of("fig7.csv", "fig17.csv"))
        {
            final byte[] first = Files.readAllBytes(one.resolve("figures").resolve(figure));
            assertTrue(first.length > 100, figure);
            assertArrayEquals(first, Files.readAllBytes(two.resolve("figures").resolve(figure)), figure);
        }
        try (var files = Files.list(one.resolve("points")))
        {
            for (final Path file : files.filter(f -> f.toString().endsWith(".csv")).toList())
            {
                assertArrayEquals(Files.readAllBytes(file),
                    Files.readAllBytes(two.resolve("points").resolve(file.getFileName())), file.toString());
            }
        }
        assertEquals(Report.withoutProvenance(Files.readString(one.resolve("report.md"))),
            Report.withoutProvenance(Files.readString(two.resolve("report.md"))));
    }

    @Test
    void anUnknownFigureIsOneLineListingTheFigures()
    {
        final Path dir = directory.resolve("r");
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> run(dir, List.of("7", "99")));
        assertEquals("--only: no figure '99'; the figures are 5a, 5b, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17",
            ex.getMessage());
        assertFalse(Files.exists(dir), "nothing created");
    }

    @Test
    void anUnknownScaleIsOneLine()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> Scale.named("huge"));
        assertEquals("--scale must be one of quick, paper, tiny, not 'huge'", ex.getMessage());
    }

    @Test
    void collectingADirectoryWithoutAPlanIsOneLine()
    {
        final Path dir = directory.resolve("empty");
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> Reproduction.collect(dir, COMMIT, progress));
        assertTrue(ex.getMessage().startsWith("--collect: " + dir + " has no plan"), ex.getMessage());
        assertFalse(ex.getMessage().contains("\n"));
        assertFalse(Files.exists(dir), "nothing created");
    }

    @Test
    void aPlanOfAnotherScaleOrCommitIsRefused() throws IOException
    {
        final Path dir = directory.resolve("r");
        Reproduction.plan(dir, "--plan", TINY, 1, List.of("15"), COMMIT, LAUNCHER);
        final String planned = Files.readString(dir.resolve(Reproduction.PLAN_FILE));

        final IllegalArgumentException scale = assertThrows(IllegalArgumentException.class,
            () -> Reproduction.run(dir, Scale.named("quick"), 1, List.of("15"), COMMIT, LAUNCHER, 1, progress));
        assertEquals("--out: " + dir + " holds a plan at scale tiny, seed 1; give another directory, or --scale " +
            "tiny --seed 1 to resume it", scale.getMessage());

        final IllegalArgumentException commit = assertThrows(IllegalArgumentException.class,
            () -> Reproduction.collect(dir, "fedcba9", progress));
        assertEquals("--collect: " + dir + " was planned at commit " + COMMIT + ", these sources are fedcba9; " +
            "their points would mix two versions: use a new directory, or check out " + COMMIT, commit.getMessage());

        final IllegalArgumentException point = assertThrows(IllegalArgumentException.class,
            () -> Reproduction.runPoint(dir, "model/websearch/fig15", "fedcba9", progress));
        assertTrue(point.getMessage().startsWith("--out: " + dir + " was planned at commit"), point.getMessage());
        assertEquals(planned, Files.readString(dir.resolve(Reproduction.PLAN_FILE)), "the plan is unchanged");
        assertEquals(Points.State.MISSING, Points.state(dir, "model/websearch/fig15"));
    }

    @Test
    void aPlanHasOneShellCommandPerPointAndASlurmArray() throws IOException
    {
        final Path dir = directory.resolve("r");
        final Reproduction.Plan plan = Reproduction.plan(dir, "--plan", TINY, 1, List.of("7", "17"), COMMIT,
            LAUNCHER);
        final List<String> jobs = Files.readAllLines(dir.resolve("jobs.txt"));
        assertEquals(plan.points().size(), jobs.size());
        assertEquals(14, jobs.size(), "10 points of Fig 7, and Fig 17's 6 less the 2 it shares with Fig 7");
        assertEquals("pfabric reproduce --out " + dir.toAbsolutePath() + " --point fct/websearch/ideal/0.5",
            jobs.get(0));
        final String slurm = Files.readString(dir.resolve("slurm.sh"));
        assertTrue(slurm.contains("#SBATCH --array=1-14\n"), slurm);
        assertTrue(slurm.contains("sed -n \"${SLURM_ARRAY_TASK_ID}p\" " + dir.toAbsolutePath() + "/jobs.txt | bash"),
            slurm);
    }
}
