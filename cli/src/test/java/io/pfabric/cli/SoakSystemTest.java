package io.pfabric.cli;

import io.pfabric.cli.testbed.PfabricJava;
import io.pfabric.testsupport.RequiresNetns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The soak for three minutes (root): web search at load 0.5 on leafspine:2x2x2 at 100 Mb/s, every daemon in its own
 * process, sampled every 20 s. Every process's heap after GC, resident memory outside the heap, descriptors and
 * threads stay flat within the bounds; every switch and link accounts for every frame; every flow completes; every
 * process writes its final counters at SIGTERM.
 * <p>
 * At load 0.8 (the soak command's documented run, {@code docs/results/soak-30m}) a 2-core VM with 4 ms scheduler
 * ticks carried less than the offered load: no idle CPU, the hosts' paced sends up to 2.7 s late, and 2, 31 and 42 of
 * the trace's 4,138 flows still in flight when their hosts' 2-minute grace ran out, in 3 runs of 3. There a 60 s run
 * at 0.5 took 82 s from start to its last flow (0.6: 109 s), so three minutes at 0.5 leave the grace a margin.
 */
@RequiresNetns
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class SoakSystemTest
{
    @TempDir
    Path directory;

    @Test
    void threeMinutesOfWebSearchAtLoadPointFiveLeaveEveryDaemonFlat() throws Exception
    {
        final Soak.Settings settings = new Soak.Settings("leafspine:2x2x2", 100_000_000L, "websearch", 0.5,
            TimeUnit.MINUTES.toNanos(3), TimeUnit.SECONDS.toNanos(20), 1, "128m", TimeUnit.MINUTES.toNanos(2),
            16_000_000L, 32_000_000L, 8, 4, directory, "pfsoak-t", 0);
        final ByteArrayOutputStream progress = new ByteArrayOutputStream();
        final Soak.Result result = Soak.run(settings, PfabricJava.command(),
            new PrintStream(progress, true, StandardCharsets.UTF_8));
        final String summary = Soak.summary(result, settings);

        assertEquals(5, result.processes());
        assertEquals(result.processes(), result.finalSnapshots(), summary);
        assertTrue(result.traceFlows() > 1_000, summary);
        assertEquals(result.traceFlows(), result.completedFlows(), summary);
        assertTrue(result.hosts().exactlyOnce(), summary);
        assertEquals(4 + 8, result.identities().size(), summary);
        result.identities().forEach(identity -> assertTrue(identity.holds(), () -> identity + "\n" + summary));
        assertTrue(result.identities().get(0).received() > 100_000, summary);
        assertEquals(20, result.growth().size(), summary);
        result.growth().forEach(growth -> assertFalse(growth.grew(), () -> growth + "\n" + summary));
        assertTrue(result.samples().size() >= 5 * 9, summary);
        assertTrue(result.passed(), summary);
        assertTrue(Files.readString(directory.resolve("summary.md")).contains("Passed"), summary);
    }

    @Test
    void theFirstSampleWaitsForHostsSlowerToStartThanASampleInterval() throws Exception
    {
        final Path java = directory.resolve("slow-hostd-java");
        final List<String> pfabric = new ArrayList<>(PfabricJava.command());
        Files.writeString(java, "#!/bin/sh\n" +
            "# a loaded machine: every hostd starts 4 s late, four sample intervals\n" +
            "case \" $* \" in *\" hostd \"*) sleep 4 ;; esac\n" +
            "exec " + pfabric.get(0) + " \"$@\"\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        pfabric.set(0, java.toString());
        final Path out = directory.resolve("soak");
        final Soak.Settings settings = new Soak.Settings("star:2", 100_000_000L, "websearch", 0.3,
            TimeUnit.SECONDS.toNanos(5), TimeUnit.SECONDS.toNanos(1), 1, "128m", TimeUnit.MINUTES.toNanos(1),
            16_000_000L, 32_000_000L, 8, 4, out, "pfsoak-t-s", 0);
        final ByteArrayOutputStream progress = new ByteArrayOutputStream();
        final Soak.Result result = Soak.run(settings, pfabric, new PrintStream(progress, true,
            StandardCharsets.UTF_8));
        final String summary = progress + "\n" + Soak.summary(result, settings);

        assertEquals(3, result.processes(), summary);
        assertEquals(List.of("switches", "h1", "h2"),
            result.samples().subList(0, 3).stream().map(Soak.Sample::process).toList(), summary);
        assertEquals(result.traceFlows(), result.completedFlows(), summary);
        assertEquals(result.processes(), result.finalSnapshots(), summary);
    }

    @Test
    void theSwitchesProcessKilledMidRunAndStartedASecondLaterLosesAndDuplicatesNothing() throws Exception
    {
        final Soak.Settings settings = new Soak.Settings("leafspine:2x2x2", 100_000_000L, "websearch", 0.6,
            TimeUnit.SECONDS.toNanos(60), TimeUnit.SECONDS.toNanos(15), 2, "128m", TimeUnit.MINUTES.toNanos(2),
            16_000_000L, 32_000_000L, 8, 4, directory, "pfsoak-t", TimeUnit.SECONDS.toNanos(25));
        final ByteArrayOutputStream progress = new ByteArrayOutputStream();
        final Soak.Result result = Soak.run(settings, PfabricJava.command(),
            new PrintStream(progress, true, StandardCharsets.UTF_8));
        final String summary = progress + "\n" + Soak.summary(result, settings);

        assertEquals(1, result.switchKills(), summary);
        assertTrue(Files.exists(directory.resolve("switches-killed.log")), summary);
        assertEquals(result.processes(), result.finalSnapshots(), summary);
        assertTrue(result.traceFlows() > 200, summary);
        assertEquals(result.traceFlows(), result.completedFlows(), "every flow of the trace completed\n" + summary);
        assertTrue(result.hosts().exactlyOnce(), "each flow delivered exactly once\n" + summary);
        assertTrue(result.hosts().timeouts() > 0, "the outage shows as timeouts\n" + summary);
        assertEquals(4 + 8, result.identities().size(), summary);
        result.identities().forEach(identity -> assertTrue(identity.holds(), () -> identity + "\n" + summary));
        assertTrue(result.passed(), summary);
    }
}
