package io.pfabric.cli.testbed;

import io.pfabric.cli.ExpositionLint;
import io.pfabric.hostd.workload.FctLogReader;
import io.pfabric.hostd.workload.FctLogWriter;
import io.pfabric.testsupport.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SIGTERM to a hostd in the middle of a workload, unprivileged, two hosts over UDP on loopback addresses: the process
 * stops starting flows, logs the ones it started (incomplete ones with an empty end), writes the whole FCT log and
 * only then exits; until then the log is not there at all, only its hidden partial file.
 */
@Timeout(120)
class HostdStopSystemTest
{
    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final String TOPOLOGY = """
        hosts:
          - {name: h1, ip: 127.0.83.1, mac: "02:00:7f:53:00:01", switch: s1, port: p1}
          - {name: h2, ip: 127.0.83.2, mac: "02:00:7f:53:00:02", switch: s1, port: p2}
        switches:
          - name: s1
            ports:
              - {name: p1, interface: pf-stop-p1, rate: 100m, discipline: pfabric}
              - {name: p2, interface: pf-stop-p2, rate: 100m, discipline: pfabric}
        links: []
        """;

    @TempDir
    Path directory;

    private final PfabricJava.Children children = new PfabricJava.Children();

    @AfterEach
    void stopAll() throws InterruptedException
    {
        children.stopAll();
    }

    private Process hostd(final String name, final Path log, final String... extra) throws IOException
    {
        final List<String> arguments = new ArrayList<>(List.of("hostd", "--topology",
            directory.resolve("topology.yaml").toString(), "--name", name, "--socket",
            directory.resolve(name + ".sock").toString()));
        arguments.addAll(List.of(extra));
        return children.start(directory, log, arguments);
    }

    private static long size(final Path file)
    {
        try
        {
            return Files.size(file);
        }
        catch (final IOException ex)
        {
            return 0;
        }
    }

    @Test
    void sigtermMidWorkloadWritesTheWholeFctLogBeforeExiting() throws Exception
    {
        Files.writeString(directory.resolve("topology.yaml"), TOPOLOGY);
        final Path receiverLog = directory.resolve("h2.log");
        final Path senderLog = directory.resolve("h1.log");
        final Path fctLog = directory.resolve("fct-h1.csv");
        hostd("h2", receiverLog);
        Await.await(() -> PfabricJava.text(receiverLog).contains("application socket"), PATIENCE,
            () -> "h2 served its socket; its log:\n" + PfabricJava.text(receiverLog));
        final Path counters = directory.resolve("h1.prom");
        final Process sender = hostd("h1", senderLog, "--workload", "websearch", "--load", "0.5", "--flows", "100000",
            "--seed", "3", "--fct-log", fctLog.toString(), "--counters-file", counters.toString());
        final Path partial = FctLogWriter.partialOf(fctLog);
        Await.await(() -> size(partial) > FctLogWriter.HEADER.length() + 1, PATIENCE,
            () -> "h1 wrote rows of its workload's FCT log; its log:\n" + PfabricJava.text(senderLog));
        assertFalse(Files.exists(fctLog), "the log is not there while it is being written");

        final int exit = PfabricJava.terminate(sender, 30_000);
        final String output = PfabricJava.text(senderLog);
        assertEquals(143, exit, () -> "hostd exits as Java services do on SIGTERM; its log:\n" + output);
        assertTrue(output.contains("FCT log " + fctLog + " written"), output);
        assertFalse(Files.exists(partial), "the partial file became the log");
        final List<FctLogReader.Row> rows = FctLogReader.read(fctLog);
        assertTrue(Files.readString(fctLog).endsWith("\n"), "the last row is whole");
        final long completed = rows.stream().filter(row -> row.endNs() >= 0).count();
        assertTrue(completed > 0 && rows.size() < 100_000, () -> rows.size() + " rows, " + completed + " complete");
        assertTrue(output.contains("done, " + String.format(java.util.Locale.ROOT, "%,d", completed) + " of "),
            () -> "the log holds the " + completed + " flows hostd says completed:\n" + output);
        ExpositionLint.assertClean(counters);
        final String finalCounters = Files.readString(counters);
        assertTrue(finalCounters.contains("pfabric_stopped 1.0"), finalCounters);
        final Matcher started = Pattern.compile("pfabric_host_flows_started_total\\{host=\"h1\",?} (\\d+)")
            .matcher(finalCounters);
        assertTrue(started.find(), finalCounters);
        assertTrue(Double.parseDouble(started.group(1)) >= rows.size(),
            () -> "the final counters count at least the logged flows as started:\n" + finalCounters);
    }
}
