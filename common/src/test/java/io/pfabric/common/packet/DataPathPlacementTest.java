package io.pfabric.common.packet;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class DataPathPlacementTest
{
    @TempDir
    Path directory;

    @BeforeEach
    void recordsHere()
    {
        System.setProperty("pfabric.placement.directory", directory.toString());
    }

    @AfterEach
    void clearProperties()
    {
        System.clearProperty("pfabric.placement.directory");
        System.clearProperty("pfabric.placement");
    }

    private static <T> T onNewThread(final Callable<T> work) throws Exception
    {
        final CompletableFuture<T> result = new CompletableFuture<>();
        final Thread thread = new Thread(() ->
        {
            try
            {
                result.complete(work.call());
            }
            catch (final Throwable ex)
            {
                result.completeExceptionally(ex);
            }
        });
        thread.start();
        final T value = result.get(10, TimeUnit.SECONDS);
        thread.join();
        return value;
    }

    private static BitSet cpus()
    {
        return DataPathPlacement.affinity();
    }

    @Test
    void aForwarderTakesTheHighestCoreRecordsItAndAHostKeepsOffIt() throws Exception
    {
        final BitSet all = cpus();
        assumeTrue(all.cardinality() >= 2, "needs two cores");
        final int highest = all.length() - 1;
        final BitSet[] forwarderCores = new BitSet[1];
        final DataPathPlacement forwarder = onNewThread(() ->
        {
            final DataPathPlacement placed = DataPathPlacement.placeForwarder();
            forwarderCores[0] = cpus();
            return placed;
        });
        try
        {
            final Path record = directory.resolve(Integer.toString(highest));
            assertTrue(Files.exists(record), forwarder.description());
            assertEquals(Long.toString(ProcessHandle.current().pid()),
                Files.readString(record, StandardCharsets.US_ASCII), "the record names this process");
            assertEquals(1, forwarderCores[0].cardinality(), "the forwarder's thread runs on one core");
            assertTrue(forwarderCores[0].get(highest), "the highest: " + forwarderCores[0]);
            assertTrue(forwarder.description().startsWith("on core " + highest), forwarder.description());
            assertEquals(forwarder.description() + ", SCHED_FIFO", forwarder.description(null), "runs real-time");
            assertEquals(forwarder.description(), forwarder.description("not permitted"), "does not");

            final BitSet hostCores = onNewThread(() ->
            {
                DataPathPlacement.placeHost();
                return cpus();
            });
            final BitSet expected = (BitSet)all.clone();
            expected.clear(highest);
            assertEquals(expected, hostCores, "a host's thread keeps off the forwarder's core");
        }
        finally
        {
            forwarder.close();
        }
        assertFalse(Files.exists(directory.resolve(Integer.toString(highest))), "closing gives the core up");
        assertEquals(all, cpus(), "the calling thread is untouched");
    }

    @Test
    void aSecondForwarderLeavesTheLastFreeCoreAlone() throws Exception
    {
        final BitSet all = cpus();
        assumeTrue(all.cardinality() == 2, "two cores: one for a forwarder, one for the rest");
        final DataPathPlacement first = onNewThread(DataPathPlacement::placeForwarder);
        try
        {
            final BitSet[] secondCores = new BitSet[1];
            final DataPathPlacement second = onNewThread(() ->
            {
                final DataPathPlacement placed = DataPathPlacement.placeForwarder();
                secondCores[0] = cpus();
                return placed;
            });
            second.close();
            assertEquals(all, secondCores[0], second.description());
            assertTrue(second.description().contains("forwarders hold the others"), second.description());
            try (var records = Files.list(directory))
            {
                assertEquals(1, records.count(), "one record only");
            }
        }
        finally
        {
            first.close();
        }
    }

    @Test
    void aRecordOfAProcessThatIsGoneIsIgnoredAndReplaced() throws Exception
    {
        final BitSet all = cpus();
        assumeTrue(all.cardinality() >= 2, "needs two cores");
        final int highest = all.length() - 1;
        final Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        final Path record = directory.resolve(Integer.toString(highest));
        Files.writeString(record, Long.toString(gone.pid()), StandardCharsets.US_ASCII);
        assertTrue(DataPathPlacement.heldCores(directory).isEmpty(), "a dead holder holds nothing");

        final BitSet hostCores = onNewThread(() ->
        {
            DataPathPlacement.placeHost();
            return cpus();
        });
        assertEquals(all, hostCores, "a host is not kept off a core nobody holds");

        final DataPathPlacement forwarder = onNewThread(DataPathPlacement::placeForwarder);
        try
        {
            assertEquals(Long.toString(ProcessHandle.current().pid()),
                Files.readString(record, StandardCharsets.US_ASCII), forwarder.description());
        }
        finally
        {
            forwarder.close();
        }
    }

    @Test
    void offLeavesTheThreadAsItWas() throws Exception
    {
        System.setProperty("pfabric.placement", "off");
        final BitSet all = cpus();
        final BitSet forwarderCores = onNewThread(() ->
        {
            final DataPathPlacement placed = DataPathPlacement.placeForwarder();
            placed.close();
            return cpus();
        });
        assertEquals(all, forwarderCores);
        try (var records = Files.list(directory))
        {
            assertEquals(0, records.count(), "nothing recorded");
        }
    }

    @Test
    void aThreadThatMayRunOnOneCoreOnlyIsNotPinned() throws Exception
    {
        final BitSet all = cpus();
        final int only = all.nextSetBit(0);
        final String description = onNewThread(() ->
        {
            final BitSet one = new BitSet();
            one.set(only);
            assertTrue(DataPathPlacement.pin(one));
            try (DataPathPlacement placed = DataPathPlacement.placeForwarder())
            {
                return placed.description();
            }
        });
        assertTrue(description.contains("fewer than two"), description);
        try (var records = Files.list(directory))
        {
            assertEquals(0, records.count(), "nothing recorded");
        }
    }
}
