package io.pfabric.analysis;

import io.pfabric.hostd.workload.FctLogWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * FCT in milliseconds from hand-written logs whose figures are worked out below.
 */
class AbsoluteFctTableTest
{
    private static final long MS = 1_000_000L;

    /**
     * Small FCTs 1, 2, 3, 4 and 100 ms: mean 110 / 5 = 22; the 99th percentile sits at k = 4 * 0.99 = 3.96, between
     * 4 and 100: 4 + 96 * 0.96 = 96.16 (the nearest rank would give 100). Flows of 100,001 and 999,999 B count in
     * neither set; 1,000,000 and 3,000,000 B ones took 10 and 20 ms: mean 15. A small flow that never completed is
     * left out.
     */
    private static void writeLog(final Path file, final String scheme) throws Exception
    {
        try (FctLogWriter log = new FctLogWriter(file))
        {
            log.append(1, "h1", "h2", 1_000, 0, 100 * MS, 0, 0, scheme);
            log.append(2, "h1", "h2", 100_000, 5 * MS, 6 * MS, 0, 0, scheme);
            log.append(3, "h1", "h2", 50, 0, 3 * MS, 0, 0, scheme);
            log.append(4, "h1", "h2", 100_001, 0, 50 * MS, 0, 0, scheme);
            log.append(5, "h1", "h2", 999_999, 0, 70 * MS, 0, 0, scheme);
            log.append(6, "h1", "h2", 1_000_000, 0, 10 * MS, 0, 0, scheme);
            log.append(7, "h1", "h2", 3_000_000, MS, 21 * MS, 0, 0, scheme);
            log.append(8, "h1", "h2", 2_000, 0, 2 * MS, 0, 0, scheme);
            log.append(9, "h1", "h2", 2_000, 0, 4 * MS, 0, 0, scheme);
            log.append(10, "h1", "h2", 2_000, 0, -1, 0, 0, scheme);
        }
    }

    @Test
    void smallFlowsMeanAndInterpolatedP99AndTheMeanOfFlowsOfAtLeastOneMegabyte(@TempDir final Path directory)
        throws Exception
    {
        writeLog(directory.resolve("fct-pfabric-0.5.csv"), "pfabric");
        final List<AbsoluteFctTable.Row> rows =
            AbsoluteFctTable.summarize(List.of(new AbsoluteFctTable.Source(null, directory)), Set.of());
        assertEquals(1, rows.size());
        final AbsoluteFctTable.Row row = rows.get(0);
        assertEquals("pfabric", row.scheme());
        assertEquals("0.5", row.load());
        assertEquals(5, row.smallFlows());
        assertEquals(22.0, row.smallMeanMs(), 1e-12);
        assertEquals(96.16, row.smallP99Ms(), 1e-9);
        assertEquals(2, row.largeFlows());
        assertEquals(15.0, row.largeMeanMs(), 1e-12);
        assertEquals(1, row.incomplete());
        assertEquals("pfabric,0.5,5,22.0000,96.1600,2,15.000", AbsoluteFctTable.line(row));
    }

    @Test
    void rowsAreNamedAfterTheFileOrTheLabelAndOrderedBySchemeThenLoad(@TempDir final Path directory)
        throws Exception
    {
        final Path mixed = Files.createDirectories(directory.resolve("mixed"));
        final Path aifo = Files.createDirectories(directory.resolve("aifo"));
        writeLog(mixed.resolve("fct-pias-0.8.csv"), "pias");
        writeLog(mixed.resolve("fct-dctcp-0.5.csv"), "dctcp");
        writeLog(aifo.resolve("fct-pfabric-10.csv"), "pfabric");
        writeLog(aifo.resolve("fct-pfabric-0.8.csv"), "pfabric");
        writeLog(aifo.resolve("fct-pfabric-9.csv"), "pfabric");
        final List<AbsoluteFctTable.Source> sources =
            List.of(AbsoluteFctTable.Source.parse(mixed.toString()), AbsoluteFctTable.Source.parse("aifo-c10=" + aifo));
        assertEquals(List.of("aifo-c10,0.8", "aifo-c10,9", "aifo-c10,10", "dctcp,0.5", "pias,0.8"),
            AbsoluteFctTable.summarize(sources, Set.of()).stream().map(row -> row.scheme() + "," + row.load())
                .toList());
        assertEquals(List.of("aifo-c10,0.8", "pias,0.8"),
            AbsoluteFctTable.summarize(sources, Set.of(0.8)).stream().map(row -> row.scheme() + "," + row.load())
                .toList());

        final Path file = directory.resolve(AbsoluteFctTable.FILE_NAME);
        AbsoluteFctTable.writeCsv(file, AbsoluteFctTable.summarize(sources.subList(0, 1), Set.of(0.5)));
        assertEquals(AbsoluteFctTable.CSV_HEADER + "\ndctcp,0.5,5,22.0000,96.1600,2,15.000\n",
            Files.readString(file, StandardCharsets.UTF_8));
    }

    @Test
    void figuresAreRoundedFromTheirBinaryValueWithTiesToEven(@TempDir final Path directory) throws Exception
    {
        try (FctLogWriter log = new FctLogWriter(directory.resolve("fct-pfabric-0.2.csv")))
        {
            log.append(1, "h1", "h2", 1_000, 0, 250_050, 0, 0, "pfabric");
        }
        final AbsoluteFctTable.Row row =
            AbsoluteFctTable.summarize(List.of(new AbsoluteFctTable.Source(null, directory)), Set.of()).get(0);
        assertEquals("pfabric,0.2,1,0.2500,0.2500,0,", AbsoluteFctTable.line(row),
            "0.25005 is 0.2500499... in binary; no flow of 1 MB leaves the mean empty");
        assertEquals("0.12", AbsoluteFctTable.decimal(0.125, 2), "an exact tie goes to the even digit");
    }

    @Test
    void badInputIsOneLineNamingTheFileOrDirectory(@TempDir final Path directory) throws Exception
    {
        final Path empty = Files.createDirectories(directory.resolve("empty"));
        final Path large = Files.createDirectories(directory.resolve("large"));
        final Path two = Files.createDirectories(directory.resolve("two"));
        try (FctLogWriter log = new FctLogWriter(large.resolve("fct-pfabric-0.2.csv")))
        {
            log.append(1, "h1", "h2", 1_000_000, 0, 5 * MS, 0, 0, "pfabric");
        }
        writeLog(two.resolve("fct-pfabric-0.2.csv"), "pfabric");
        writeLog(two.resolve("fct-ideal-0.2.csv"), "ideal");
        assertRejected(List.of(new AbsoluteFctTable.Source(null, empty)), "no fct-*.csv files");
        assertRejected(List.of(new AbsoluteFctTable.Source(null, large)), "no completed flow of at most 100000 B");
        assertRejected(List.of(new AbsoluteFctTable.Source("x", two)), "one label for the logs of several schemes");
        assertRejected(List.of(new AbsoluteFctTable.Source(null, two), new AbsoluteFctTable.Source(null, two)),
            "a second log of");
        assertRejected(List.of(new AbsoluteFctTable.Source(null, directory.resolve("none"))), "is not a directory");
        assertThrows(IllegalArgumentException.class, () -> AbsoluteFctTable.Source.parse("=dir"));
    }

    private static void assertRejected(final List<AbsoluteFctTable.Source> sources, final String expected)
    {
        final IllegalArgumentException ex =
            assertThrows(IllegalArgumentException.class, () -> AbsoluteFctTable.summarize(sources, Set.of()));
        assertTrue(ex.getMessage().contains(expected), ex.getMessage());
        assertTrue(!ex.getMessage().contains("\n"), ex.getMessage());
    }
}
