package io.pfabric.cli.testbed;

import io.pfabric.testsupport.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code pfabric send} and {@code recv} against hostd processes as a user runs them, unprivileged, three hosts over
 * UDP on loopback addresses: started right after their hostds they wait for the sockets and the message arrives;
 * a recv started after the message arrived still gets it;
 * the one-segment flows a hostd measures its base RTT with never reach a receiving application; a send to a host
 * with no hostd ends after its timeout and its hostd gives the flow up; a send from a host to itself is refused with
 * the host's name.
 */
@Timeout(150)
class SendRecvSystemTest
{
    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final long COMMAND_SECONDS = 90;
    private static final String TOPOLOGY = """
        hosts:
          - {name: h1, ip: 127.0.84.1, mac: "02:00:7f:54:00:01", switch: s1, port: p1}
          - {name: h2, ip: 127.0.84.2, mac: "02:00:7f:54:00:02", switch: s1, port: p2}
          - {name: h3, ip: 127.0.84.3, mac: "02:00:7f:54:00:03", switch: s1, port: p3}
        switches:
          - name: s1
            ports:
              - {name: p1, interface: pf-sr-p1, rate: 100m, discipline: pfabric}
              - {name: p2, interface: pf-sr-p2, rate: 100m, discipline: pfabric}
              - {name: p3, interface: pf-sr-p3, rate: 100m, discipline: pfabric}
        links: []
        """;

    @TempDir
    Path directory;

    private final PfabricJava.Children children = new PfabricJava.Children();

    private record Finished(int exit, String output)
    {
    }

    @BeforeEach
    void writeTopology() throws IOException
    {
        Files.writeString(directory.resolve("topology.yaml"), TOPOLOGY);
    }

    @AfterEach
    void stopAll() throws InterruptedException
    {
        children.stopAll();
    }

    private Path socket(final String host)
    {
        return directory.resolve(host + ".sock");
    }

    private Process hostd(final String name, final String... extra) throws IOException
    {
        final List<String> arguments = new ArrayList<>(List.of("hostd", "--topology",
            directory.resolve("topology.yaml").toString(), "--name", name, "--socket", socket(name).toString()));
        arguments.addAll(List.of(extra));
        return children.start(directory, directory.resolve("hostd-" + name + ".log"), arguments);
    }

    private Process start(final String log, final String... arguments) throws IOException
    {
        return children.start(directory, directory.resolve(log), List.of(arguments));
    }

    private Finished finish(final Process process, final String log) throws InterruptedException
    {
        final boolean finished = process.waitFor(COMMAND_SECONDS, TimeUnit.SECONDS);
        final String output = PfabricJava.text(directory.resolve(log));
        assertTrue(finished, () -> log + ": still running after " + COMMAND_SECONDS + " s; its output:\n" + output);
        return new Finished(process.exitValue(), output);
    }

    @Test
    void sendAndRecvStartedRightAfterTheirHostdsWaitForTheSockets() throws Exception
    {
        hostd("h2");
        hostd("h1");
        final Process recv = start("recv.log", "recv", "--socket", socket("h2").toString(), "--count", "1");
        final Process send = start("send.log", "send", "--socket", socket("h1").toString(), "--to", "h2", "--size",
            "1MB");

        final Finished sent = finish(send, "send.log");
        assertEquals(0, sent.exit(), sent.output());
        assertTrue(sent.output().contains("sent 1,000,000 bytes to h2: flow"), sent.output());
        final Finished received = finish(recv, "recv.log");
        assertEquals(0, received.exit(), received.output());
        assertTrue(received.output().matches("(?s).*from h1 flow [0-9a-f]+: 1,000,000 bytes.*"), received.output());
    }

    @Test
    void aRecvStartedAfterTheMessageArrivedStillGetsIt() throws Exception
    {
        hostd("h2");
        hostd("h1");
        final Finished sent = finish(start("send.log", "send", "--socket", socket("h1").toString(), "--to", "h2",
            "--size", "100KB"), "send.log");
        assertEquals(0, sent.exit(), sent.output());

        final Finished received = finish(start("recv.log", "recv", "--socket", socket("h2").toString(), "--count",
            "1"), "recv.log");
        assertEquals(0, received.exit(), received.output());
        assertTrue(received.output().matches("(?s).*from h1 flow [0-9a-f]+: 100,000 bytes.*"), received.output());
    }

    @Test
    void theFlowsAHostMeasuresItsBaseRttWithAreNotMessages() throws Exception
    {
        hostd("h2", "--base-rtt", "200us");
        final Process recv = start("recv.log", "recv", "--socket", socket("h2").toString(), "--count", "1");
        Await.await(() -> PfabricJava.text(directory.resolve("recv.log")).contains("pfabric recv: receiving"),
            PATIENCE, () -> "recv subscribed; its output:\n" + PfabricJava.text(directory.resolve("recv.log")));
        hostd("h1");
        final Process send = start("send.log", "send", "--socket", socket("h1").toString(), "--to", "h2", "--size",
            "1MB");

        final Finished sent = finish(send, "send.log");
        assertEquals(0, sent.exit(), sent.output());
        final Finished received = finish(recv, "recv.log");
        assertEquals(0, received.exit(), received.output());
        assertTrue(received.output().matches("(?s).*from h1 flow [0-9a-f]+: 1,000,000 bytes.*"),
            () -> "the one message received is the one sent, not a measurement flow:\n" + received.output());
    }

    @Test
    void aSendToAHostWithoutHostdEndsAfterItsTimeoutAndTheFlowIsGivenUp() throws Exception
    {
        hostd("h1", "--base-rtt", "200us");
        final Process send = start("send.log", "send", "--socket", socket("h1").toString(), "--to", "h3", "--size",
            "10KB", "--timeout", "2s");

        final Finished sent = finish(send, "send.log");
        assertEquals(1, sent.exit(), sent.output());
        assertTrue(sent.output().contains("the flow to h3 was not acknowledged in 2s; given up"), sent.output());
        final Path hostdLog = directory.resolve("hostd-h1.log");
        Await.await(() -> PfabricJava.text(hostdLog).matches("(?s).*flow [0-9a-f]+ to h3 given up incomplete.*"),
            PATIENCE, () -> "hostd h1 gave the flow up; its log:\n" + PfabricJava.text(hostdLog));
    }

    @Test
    void aSendFromAHostToItselfIsRefusedByName() throws Exception
    {
        hostd("h1", "--base-rtt", "200us");
        final Finished throughHostd = finish(start("self.log", "send", "--socket", socket("h1").toString(), "--to",
            "h1", "--size", "10KB"), "self.log");
        assertEquals(1, throughHostd.exit(), throughHostd.output());
        assertTrue(throughHostd.output().contains("pfabric send: cannot send from h1 to itself"),
            throughHostd.output());
        assertFalse(throughHostd.output().contains("host 0"), throughHostd.output());

        final Finished named = finish(start("named.log", "send", "--host", "h1", "--to", "h1", "--size", "10KB"),
            "named.log");
        assertEquals(2, named.exit(), named.output());
        assertEquals("pfabric send: --to h1 is the sending host itself", named.output().strip());
    }
}
