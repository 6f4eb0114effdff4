package io.pfabric.cli;

import io.pfabric.cli.testbed.PfabricJava;
import io.pfabric.hostd.workload.FctLogReader;
import io.pfabric.hostd.workload.TraceFile;
import io.pfabric.hostd.workload.WorkloadTrace;
import io.pfabric.testbed.monitor.PrometheusText;
import io.pfabric.testsupport.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SIGTERM to switchd, controllerd and a tcpd that stays, unprivileged on loopback addresses, after they have counted
 * something: each stops as Java services do (status 143) and its {@code --counters-file} then holds the final
 * snapshot, whose counts are the ones it printed at its stop.
 */
@Timeout(120)
class DaemonStopSystemTest
{
    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final int GARBAGE_DATAGRAMS = 3;
    private static final String TOPOLOGY = """
        hosts:
          - {name: h1, ip: 10.84.0.1, mac: "02:00:0a:54:00:01", switch: s1, port: p1}
          - {name: h2, ip: 10.84.0.2, mac: "02:00:0a:54:00:02", switch: s1, port: p2}
        switches:
          - name: s1
            ports:
              - {name: p1, udp: {local: "127.0.84.1:47941", remote: "127.0.84.11:47941", vni: 1}, rate: 100m}
              - {name: p2, udp: {local: "127.0.84.2:47942", remote: "127.0.84.12:47942", vni: 1}, rate: 100m}
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

    private Process start(final Path log, final String... arguments) throws IOException
    {
        return children.start(directory, log, List.of(arguments));
    }

    private static void sendGarbage(final InetSocketAddress target) throws IOException
    {
        try (DatagramSocket socket = new DatagramSocket(new InetSocketAddress("127.0.84.20", 0)))
        {
            for (int i = 0; i < GARBAGE_DATAGRAMS; i++)
            {
                final byte[] junk = { 1, 2, 3, (byte)i };
                socket.send(new DatagramPacket(junk, junk.length, target));
            }
        }
    }

    private static double counter(final Path file, final String name)
    {
        try
        {
            return Files.exists(file) ? PrometheusText.read(file).sum(name) : -1;
        }
        catch (final IOException ex)
        {
            return -1;
        }
    }

    @Test
    void switchdWritesItsFinalCountersAtSigterm() throws Exception
    {
        Files.writeString(directory.resolve("topology.yaml"), TOPOLOGY);
        final Path log = directory.resolve("switchd.log");
        final Path counters = directory.resolve("switchd.prom");
        final Process switchd = start(log, "switchd", "--topology", directory.resolve("topology.yaml").toString(),
            "--name", "s1", "--counters-file", counters.toString(), "--counters-interval", "200ms");
        Await.await(() -> PfabricJava.text(log).contains("forwarding on"), PATIENCE,
            () -> "switchd forwards; its log:\n" + PfabricJava.text(log));
        sendGarbage(new InetSocketAddress("127.0.84.1", 47941));
        Await.await(() -> counter(counters, "pfabric_port_received_frames_total") +
            counter(counters, "pfabric_port_dropped_frames_total") > 0, PATIENCE,
            () -> "switchd counted the datagrams; its counters:\n" + PfabricJava.text(counters));

        final int exit = PfabricJava.terminate(switchd, 30_000);
        final String output = PfabricJava.text(log);
        assertEquals(143, exit, () -> "exits as Java services do on SIGTERM; its log:\n" + output);
        final PrometheusText last = PrometheusText.read(counters);
        assertEquals(1, last.sum(CountersFile.STOPPED), output);
        final Matcher printed = Pattern.compile("p1: received (\\d+), sent (\\d+), queue drops (\\d+), malformed (\\d+)")
            .matcher(output);
        assertTrue(printed.find(), output);
        assertEquals(Long.parseLong(printed.group(1)),
            last.sum("pfabric_port_received_frames_total", "port", "p1"), output);
        assertEquals(Long.parseLong(printed.group(4)),
            last.sum("pfabric_port_dropped_frames_total", "port", "p1", "reason", "malformed"), output);
        ExpositionLint.assertClean(counters);
        assertTrue(output.contains("stopped"), output);
    }

    @Test
    void controllerdWritesItsFinalCountersAtSigterm() throws Exception
    {
        Files.writeString(directory.resolve("topology.yaml"), TOPOLOGY);
        final Path key = directory.resolve("control.key");
        Files.writeString(key, "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\n");
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
        final Path log = directory.resolve("controllerd.log");
        final Path counters = directory.resolve("controllerd.prom");
        final Process controllerd = start(log, "controllerd", "--mode", "syn", "--topology",
            directory.resolve("topology.yaml").toString(), "--key-file", key.toString(), "--listen",
            "127.0.84.3:47943", "--rate", "100m", "--counters-file", counters.toString(), "--counters-interval",
            "200ms");
        Await.await(() -> PfabricJava.text(log).contains("SIGTERM or Ctrl-C stops it"), PATIENCE,
            () -> "controllerd runs; its log:\n" + PfabricJava.text(log));
        sendGarbage(new InetSocketAddress("127.0.84.3", 47943));
        Await.await(() -> counter(counters, "pfabric_controller_messages_malformed_total") == GARBAGE_DATAGRAMS,
            PATIENCE, () -> "controllerd refused the datagrams; its counters:\n" + PfabricJava.text(counters));

        final int exit = PfabricJava.terminate(controllerd, 30_000);
        final String output = PfabricJava.text(log);
        assertEquals(143, exit, () -> "exits as Java services do on SIGTERM; its log:\n" + output);
        final PrometheusText last = PrometheusText.read(counters);
        assertEquals(1, last.sum(CountersFile.STOPPED), output);
        assertEquals(GARBAGE_DATAGRAMS, last.sum("pfabric_controller_messages_malformed_total"), output);
        assertTrue(output.contains("refused malformed " + GARBAGE_DATAGRAMS), output);
        ExpositionLint.assertClean(counters);
    }

    @Test
    void tcpdWithStayServesItsPeersFlowsUntilSigtermAndBothWriteTheirFinalCounters() throws Exception
    {
        final int flows = 5;
        Files.writeString(directory.resolve("topology.yaml"), TOPOLOGY.replace("ip: 10.84.0.", "ip: 127.0.84.3"));
        final List<WorkloadTrace.FlowSpec> trace = new ArrayList<>();
        for (int i = 0; i < flows; i++)
        {
            trace.add(new WorkloadTrace.FlowSpec(i, 0, 1, 20_000L * (i + 1),
                TimeUnit.MILLISECONDS.toNanos(1_000 + 50 * i)));
        }
        TraceFile.write(directory.resolve("trace.csv"), trace, List.of("h1", "h2"));
        final Path receiverLog = directory.resolve("tcpd-h2.log");
        final Process receiver = start(receiverLog, tcpd("h2", "--stay"));
        final Path senderLog = directory.resolve("tcpd-h1.log");
        final Process sender = start(senderLog, tcpd("h1"));

        assertTrue(sender.waitFor(PATIENCE.toSeconds(), TimeUnit.SECONDS), () -> "h1's tcpd ends; its log:\n" +
            PfabricJava.text(senderLog));
        final String sent = PfabricJava.text(senderLog);
        assertEquals(0, sender.exitValue(), sent);
        assertTrue(sent.contains(flows + " of " + flows + " flows completed"), sent);
        final List<FctLogReader.Row> rows = FctLogReader.read(directory.resolve("fct-tcp-h1.csv"));
        assertEquals(flows, rows.size(), sent);
        assertTrue(rows.stream().allMatch(FctLogReader.Row::isComplete), rows::toString);
        final PrometheusText senderCounters = PrometheusText.read(directory.resolve("tcpd-h1.prom"));
        assertEquals(flows, senderCounters.sum("pfabric_tcp_flows_completed_total", "host", "h1"), sent);
        assertEquals(1, senderCounters.sum(CountersFile.STOPPED), sent);

        assertTrue(PfabricJava.text(receiverLog).contains("serving until SIGTERM"), PfabricJava.text(receiverLog));
        assertTrue(receiver.isAlive(), "h2's tcpd, its own flows long done, still serves");
        final int exit = PfabricJava.terminate(receiver, 30_000);
        final String received = PfabricJava.text(receiverLog);
        assertEquals(143, exit, () -> "exits as Java services do on SIGTERM; its log:\n" + received);
        final PrometheusText receiverCounters = PrometheusText.read(directory.resolve("tcpd-h2.prom"));
        assertEquals(1, receiverCounters.sum(CountersFile.STOPPED), received);
        assertEquals(0, receiverCounters.sum("pfabric_tcp_flows_completed_total", "host", "h2"), received);
        assertFalse(Files.exists(directory.resolve(".tcpd-h2.prom.partial")), "no partial snapshot is left");
        ExpositionLint.assertClean(directory.resolve("tcpd-h1.prom"));
    }

    private String[] tcpd(final String host, final String... more)
    {
        final List<String> arguments = new ArrayList<>(List.of("tcpd", "--topology",
            directory.resolve("topology.yaml").toString(), "--name", host, "--trace",
            directory.resolve("trace.csv").toString(), "--pool", "1", "--grace", "20s", "--fct-log",
            directory.resolve("fct-tcp-" + host + ".csv").toString(), "--counters-file",
            directory.resolve("tcpd-" + host + ".prom").toString(), "--counters-interval", "200ms"));
        arguments.addAll(List.of(more));
        return arguments.toArray(String[]::new);
    }
}
