package io.pfabric.bench.transport;

import io.pfabric.common.os.Commands;
import io.pfabric.testsupport.Await;
import io.pfabric.testsupport.RequiresNetns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The transport benchmark end to end, short: every target carries a small flow through switchd paced at 100 Mb/s and
 * gives a goodput within the rate, a round trip and a CPU cost; nothing is left behind, also when the run is
 * stopped from another thread as Ctrl-C's shutdown hook does; the kernel's bridge carries kernel TCP in switchd's place,
 * shaped to the rate.
 */
@Timeout(240)
@RequiresNetns
class TransportBenchSystemTest
{
    private static final long RATE_BPS = 100_000_000L;
    private static final long SIZE_BYTES = 2_000_000L;

    @Test
    void measuresEveryTargetAndCleansUp() throws Exception
    {
        final ByteArrayOutputStream progress = new ByteArrayOutputStream();
        final List<TransportBench.Result> results;
        try (TransportBench bench = new TransportBench(settings(), new PrintStream(progress, true,
            StandardCharsets.UTF_8)))
        {
            results = bench.run();
        }
        final String log = progress.toString(StandardCharsets.UTF_8);

        assertEquals(List.of(TransportTarget.values()), results.stream().map(TransportBench.Result::target).toList(),
            log);
        for (final TransportBench.Result result : results)
        {
            assertEquals(RATE_BPS, result.rateBitsPerSec(), log);
            assertTrue(result.goodputBitsPerSec() > 0, () -> "nothing delivered: " + result + "\n" + log);
            assertTrue(result.goodputBitsPerSec() <= RATE_BPS,
                () -> "more than the line rate delivered: " + result + "\n" + log);
            assertTrue(result.rttNs() > 0, () -> "no round trip: " + result + "\n" + log);
            assertTrue(result.cpuMicrosPerMegabyte() > 0, () -> "no CPU time counted: " + result + "\n" + log);
        }
        assertNoNamespaceLeft();
    }

    @Test
    void bridgeCarriesKernelTcpAtTheRateBesideSwitchd() throws Exception
    {
        final ByteArrayOutputStream progress = new ByteArrayOutputStream();
        final List<TransportBench.Result> results;
        try (TransportBench bench = new TransportBench(new TransportBench.Settings(
            List.of(TransportTarget.HOSTD, TransportTarget.KERNEL_TCP), List.of(RATE_BPS), SIZE_BYTES,
            TransportBench.DEFAULT_BUFFER_LENGTH, 20, Duration.ZERO, null, true, 1,
            List.of(TransportSwitch.SWITCHD, TransportSwitch.BRIDGE)),
            new PrintStream(progress, true, StandardCharsets.UTF_8)))
        {
            results = bench.run();
        }
        final String log = progress.toString(StandardCharsets.UTF_8);

        assertEquals(List.of("hostd", "kernel-tcp", "kernel-tcp@bridge"),
            results.stream().map(TransportBench.Result::label).toList(), "hostd runs through switchd only\n" + log);
        final TransportBench.Result bridge = results.get(2);
        assertEquals(TransportSwitch.BRIDGE, bridge.through(), log);
        assertTrue(bridge.goodputBitsPerSec() > 0, () -> "nothing delivered: " + bridge + "\n" + log);
        assertTrue(bridge.goodputBitsPerSec() <= RATE_BPS,
            () -> "the bridge's shaper let more than the line rate through: " + bridge + "\n" + log);
        assertTrue(bridge.rttNs() > 0, () -> "no round trip: " + bridge + "\n" + log);
        assertNoNamespaceLeft();
    }

    @Test
    void removesTheNamespacesWhenClosedMidRun() throws Exception
    {
        final ByteArrayOutputStream progress = new ByteArrayOutputStream();
        final TransportBench bench = new TransportBench(settings(), new PrintStream(progress, true,
            StandardCharsets.UTF_8));
        final CompletableFuture<List<TransportBench.Result>> run = CompletableFuture.supplyAsync(() ->
        {
            try
            {
                return bench.run();
            }
            catch (final IOException ex)
            {
                throw new CompletionException(ex);
            }
        }, runnable -> new Thread(runnable, "transport-bench").start());
        Await.await(() -> progress.toString(StandardCharsets.UTF_8).contains("round trip median"),
            Duration.ofSeconds(60), () -> "the first target measured its round trip\n" + progress);

        bench.close();

        final ExecutionException stopped =
            assertThrows(ExecutionException.class, () -> run.get(60, TimeUnit.SECONDS), "the run stops");
        assertInstanceOf(IOException.class, stopped.getCause(), progress::toString);
        assertNoNamespaceLeft();
    }

    private static TransportBench.Settings settings()
    {
        return new TransportBench.Settings(List.of(TransportTarget.values()), List.of(RATE_BPS), SIZE_BYTES,
            TransportBench.DEFAULT_BUFFER_LENGTH, 20, Duration.ZERO, null, true, 1, List.of(TransportSwitch.SWITCHD));
    }

    private static void assertNoNamespaceLeft() throws IOException
    {
        assertFalse(Commands.run("ip", "netns", "list").contains(TransportBench.namespacePrefix() + "-"),
            "the benchmark's namespaces are gone");
    }
}
