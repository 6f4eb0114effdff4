package io.pfabric.analysis;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PathRttsTest
{
    @TempDir
    Path directory;

    @Test
    void aTableByClassOfPathSurvivesTheFile() throws IOException
    {
        final List<String> names = List.of("h1", "h2", "h3", "h4");
        final PathRtts rtts = PathRtts.byClass(names, (source, destination) -> source / 2 == destination / 2 ? 10 : 30);
        final Path file = directory.resolve("base-rtt.csv");
        rtts.write(file);
        final PathRtts read = PathRtts.read(file);

        assertEquals(names, read.hostNames());
        assertEquals(10, read.nanos(read.hostIndex("h1"), read.hostIndex("h2")));
        assertEquals(30, read.nanos(read.hostIndex("h2"), read.hostIndex("h3")));
        assertEquals(0, read.nanos(2, 2));
        assertEquals(30, read.maxNs());
        assertEquals(1 + 4 * 3, Files.readAllLines(file).size());
    }

    @Test
    void aMalformedLineIsNamedByNumber() throws IOException
    {
        final Path file = directory.resolve("base-rtt.csv");
        Files.writeString(file, PathRtts.HEADER + "\nh1,h2,10\nh2,h1,ten\n");
        final IOException error = assertThrows(IOException.class, () -> PathRtts.read(file));
        assertTrue(error.getMessage().contains("line 3"), error.getMessage());
    }

    @Test
    void aMissingPathIsAnError() throws IOException
    {
        final Path file = directory.resolve("base-rtt.csv");
        Files.writeString(file, PathRtts.HEADER + "\nh1,h2,10\n");
        final IOException error = assertThrows(IOException.class, () -> PathRtts.read(file));
        assertTrue(error.getMessage().contains("no base RTT from h2 to h1"), error.getMessage());
    }

    @Test
    void anUnknownHostIsAnError()
    {
        final PathRtts rtts = PathRtts.uniform(List.of("h1", "h2"), 5);
        assertThrows(IllegalArgumentException.class, () -> rtts.hostIndex("h9"));
    }
}
