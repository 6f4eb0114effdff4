package io.pfabric.analysis;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A figure's schemes taken from several summaries: each chosen scheme from its file, none twice, and a summary read
 * back as it was written.
 */
class SummaryMergeTest
{
    @TempDir
    Path directory;

    private Path summary(final String name, final String... rows) throws IOException
    {
        final Path file = directory.resolve(name);
        Files.writeString(file, ResultsTable.CSV_HEADER + "\n" + String.join("\n", rows) + "\n");
        return file;
    }

    @Test
    void takesEachChosenSchemeFromItsOwnSummaryInOrder() throws IOException
    {
        final Path old = summary("old.csv", "tcp,0.2,small,10,4.0700,3.0000,30.0000",
            "pfabric,0.2,small,10,1.0500,1.0000,1.3000");
        final Path rerun = summary("new.csv", "tcp,0.2,small,10,4.5900,3.1000,31.0000");
        final List<ResultsTable.Line> merged = SummaryMerge.merge(List.of(
            new SummaryMerge.Source(old, Set.of("pfabric")), new SummaryMerge.Source(rerun, Set.of())));
        assertEquals(List.of("pfabric", "tcp"), merged.stream().map(ResultsTable.Line::scheme).toList());
        assertEquals(4.59, merged.get(1).summary().mean(), 1e-9);

        final Path written = directory.resolve("merged.csv");
        ResultsTable.writeCsv(written, merged);
        assertEquals(merged, ResultsTable.readCsv(written));
    }

    @Test
    void refusesASchemeFromTwoSourcesOrMissingFromItsFile() throws IOException
    {
        final Path a = summary("a.csv", "tcp,0.2,small,10,4.0700,3.0000,30.0000");
        final Path b = summary("b.csv", "tcp,0.2,small,10,4.5900,3.1000,31.0000");
        final IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () ->
            SummaryMerge.merge(List.of(SummaryMerge.Source.parse(a.toString()), SummaryMerge.Source.parse(
                b.toString()))));
        assertTrue(twice.getMessage().contains("'tcp' is in both"), twice.getMessage());
        final IllegalArgumentException missing = assertThrows(IllegalArgumentException.class, () ->
            SummaryMerge.merge(List.of(SummaryMerge.Source.parse(a + ":pdq"))));
        assertTrue(missing.getMessage().contains("has no scheme 'pdq'"), missing.getMessage());
    }

    @Test
    void aLineThatIsNotASummaryLineIsNamedByItsLineNumber() throws IOException
    {
        final Path bad = summary("bad.csv", "tcp,0.2,small,10,4.0700,3.0000,30.0000", "tcp,0.2,tiny,1,1,1,1");
        final IOException thrown = assertThrows(IOException.class, () -> ResultsTable.readCsv(bad));
        assertTrue(thrown.getMessage().contains("bad.csv:3"), thrown.getMessage());
    }
}
