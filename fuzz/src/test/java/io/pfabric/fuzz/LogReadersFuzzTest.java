package io.pfabric.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.code_intelligence.jazzer.mutation.annotation.NotNull;
import io.pfabric.hostd.workload.FctLogReader;
import io.pfabric.hostd.workload.TraceFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The trace and FCT-log readers on any file content: they return rows or throw an IllegalArgumentException that
 * names the file and the line; nothing else escapes.
 */
class LogReadersFuzzTest
{
    private static Path directory;

    @BeforeAll
    static void createDirectory() throws IOException
    {
        directory = Files.createTempDirectory("pfabric-fuzz-");
    }

    @AfterAll
    static void removeDirectory() throws IOException
    {
        try (var files = Files.list(directory))
        {
            for (final Path file : files.toList())
            {
                Files.delete(file);
            }
        }
        Files.delete(directory);
    }

    private static Path write(final String name, final byte[] content)
    {
        try
        {
            return Files.write(directory.resolve(name), content);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * A reader of a file of rows.
     */
    @FunctionalInterface
    private interface Reader
    {
        void read(Path file) throws IOException;
    }

    private static void readOrRefuseWithFileAndLine(final String name, final byte[] content, final Reader reader)
        throws IOException
    {
        final Path file = write(name, content);
        try
        {
            reader.read(file);
        }
        catch (final IllegalArgumentException ex)
        {
            assertTrue(ex.getMessage().startsWith(file + ":"), ex.getMessage());
        }
    }

    @FuzzTest
    void aTraceIsReadOrRefusedWithFileAndLine(@NotNull final byte[] content) throws IOException
    {
        readOrRefuseWithFileAndLine("trace.csv", content, TraceFile::read);
    }

    @FuzzTest
    void anFctLogIsReadOrRefusedWithFileAndLine(@NotNull final byte[] content) throws IOException
    {
        readOrRefuseWithFileAndLine("fct.csv", content, FctLogReader::read);
    }
}
