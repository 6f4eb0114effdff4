package io.pfabric.cli;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.pfabric.testbed.monitor.PrometheusText;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CountersFileTest
{
    @TempDir
    Path directory;

    private final PrintStream err = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);

    @Test
    void theFirstSnapshotIsThereWhenStartReturnsAndTheLastHoldsTheFinalCountsMarkedStopped() throws IOException
    {
        final AtomicLong frames = new AtomicLong(7);
        final PrometheusMeterRegistry registry = CountersFile.newRegistry();
        FunctionCounter.builder("pfabric.test.frames", frames, AtomicLong::get).tag("port", "p1").register(registry);
        final Path file = directory.resolve("counters.prom");

        final CountersFile counters = CountersFile.start(file, TimeUnit.HOURS.toNanos(1), registry, err);
        final PrometheusText first = PrometheusText.read(file);
        assertEquals(7, first.sum("pfabric_test_frames_total", "port", "p1"));
        assertEquals(0, first.sum(CountersFile.STOPPED));
        assertTrue(first.has(CountersFile.HEAP_AFTER_GC));
        assertTrue(first.has("process_files_open_files"));

        frames.set(9);
        counters.close();
        final PrometheusText last = PrometheusText.read(file);
        assertEquals(9, last.sum("pfabric_test_frames_total"));
        assertEquals(1, last.sum(CountersFile.STOPPED));
        try (var entries = Files.list(directory))
        {
            assertEquals(1, entries.count(), "no partial file is left beside it");
        }
    }

    @Test
    void aDirectoryThatIsNotThereIsRefusedAtStart()
    {
        final Path file = directory.resolve("missing").resolve("counters.prom");
        assertThrows(IOException.class,
            () -> CountersFile.start(file, TimeUnit.SECONDS.toNanos(1), CountersFile.newRegistry(), err));
        assertFalse(Files.exists(file));
    }

    @Test
    void theHeapAfterGcIsWhatTheJvmReportsForItsLastCollections()
    {
        assertTrue(CountersFile.heapAfterGcBytes() >= 0);
        System.gc();
        final long afterGc = CountersFile.heapAfterGcBytes();
        assertTrue(afterGc > 0 && afterGc <= Runtime.getRuntime().totalMemory(), () -> afterGc + " bytes");
    }

    @Test
    void samplesAreReadWithTheirLabelsAndABadLineNamesItsPlace() throws IOException
    {
        final PrometheusText.Sample sample =
            PrometheusText.parse("pfabric_port_received_frames_total{port=\"p\\\"1\",switch=\"s1\",} 12.0");
        assertEquals("pfabric_port_received_frames_total", sample.name());
        assertEquals(Map.of("port", "p\"1", "switch", "s1"), sample.labels());
        assertEquals(12.0, sample.value());
        assertEquals(3.5, PrometheusText.parse("up 3.5 1700000000").value());

        final Path file = directory.resolve("bad.prom");
        Files.writeString(file, "# HELP up\nup 1\nup{a=\"b\" 2\n");
        final IOException failure = assertThrows(IOException.class, () -> PrometheusText.read(file));
        assertTrue(failure.getMessage().startsWith(file + ":3: "), failure.getMessage());
    }
}
