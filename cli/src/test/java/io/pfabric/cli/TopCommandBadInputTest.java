package io.pfabric.cli;

import io.pfabric.common.topology.TopologySpec;
import io.pfabric.testbed.monitor.MetricsEndpoint;
import io.pfabric.testbed.monitor.Monitor;
import io.pfabric.testbed.monitor.PublishedFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code pfabric top} and {@code pfabric monitor up} on bad input, as a user meets it: nothing running, a recorded
 * daemon that does not answer, several fabrics and none named, the monitor's port in use. Each is one line on
 * standard error that says which and what to do, status 2, and nothing is started. A fabric here is its state alone,
 * with this JVM standing in for the switches' process.
 */
class TopCommandBadInputTest
{
    @TempDir
    Path home;

    private record Outcome(int status, String out, String err)
    {
    }

    private Outcome pfabric(final String... args)
    {
        final String previous = System.getProperty("pfabric.home");
        final PrintStream original = System.out;
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        final StringWriter errors = new StringWriter();
        final int status;
        try (PrintStream capture = new PrintStream(captured, true, StandardCharsets.UTF_8))
        {
            System.setProperty("pfabric.home", home.toString());
            System.setOut(capture);
            status = PfabricCommand.commandLine().setErr(new PrintWriter(errors, true)).execute(args);
        }
        finally
        {
            System.setOut(original);
            if (null == previous)
            {
                System.clearProperty("pfabric.home");
            }
            else
            {
                System.setProperty("pfabric.home", previous);
            }
        }
        return new Outcome(status, captured.toString(StandardCharsets.UTF_8), errors.toString());
    }

    private Path testbed() throws IOException
    {
        final Path state = home.resolve(".pfabric").resolve("testbed");
        Files.createDirectories(state);
        Files.writeString(state.resolve("topology.yaml"),
            TopologySpec.parse("star:2").toTopology(100_000_000L, "pfabric").toYaml());
        Files.writeString(state.resolve(MetricsEndpoint.SWITCHES_PID), Long.toString(ProcessHandle.current().pid()));
        return state;
    }

    private static int closedPort() throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            return socket.getLocalPort();
        }
    }

    @Test
    void nothingRunning()
    {
        final String line = "no testbed or experiment running (none recorded in " + home.resolve(".pfabric") +
            "): start one with './pfabric testbed up --topo star:4', or run './pfabric demo' in another terminal\n";

        final Outcome top = pfabric("top", "--once");
        assertEquals(new Outcome(2, "", "pfabric top: " + line), top);
        final Outcome monitor = pfabric("monitor", "up", "--prometheus", "/bin/true");
        assertEquals(new Outcome(2, "", "pfabric monitor up: " + line), monitor);
        assertFalse(Files.exists(home.resolve(".pfabric")), "nothing made");
    }

    @Test
    void aRecordedDaemonThatDoesNotAnswer() throws IOException
    {
        final Path state = testbed();
        final MetricsEndpoint silent = new MetricsEndpoint(MetricsEndpoint.SWITCHES, MetricsEndpoint.SWITCHES,
            "127.0.0.1:" + closedPort());
        silent.write(state);

        final Outcome top = pfabric("top", "--once", "--interval", "10ms");

        assertEquals(2, top.status(), top.toString());
        final String which = "the testbed's switches process at " + silent.url() + ": no answer (";
        final String what = "): if it has stopped, start it again with --metrics, or remove its record " +
            silent.file(state) + "\n";
        assertTrue(top.err().startsWith("pfabric top: " + which) && top.err().endsWith(what) &&
            1 == top.err().lines().count(), top.err());
        assertTrue(top.out().startsWith("pfabric top  testbed  ") && top.out().contains(which), top.out());
    }

    @Test
    void severalFabricsAndNoneNamed() throws IOException
    {
        testbed();
        try (PublishedFabric demo = PublishedFabric.inProcess(home.resolve(".pfabric"), "demo",
            TopologySpec.parse("star:2").toTopology(100_000_000L, "pfabric")))
        {
            assertTrue(Files.isDirectory(demo.stateDirectory()));
            assertEquals(new Outcome(2, "", "pfabric top: several fabrics running (testbed, demo): choose one " +
                "with --fabric\n"), pfabric("top", "--once"));
            assertEquals(new Outcome(2, "", "pfabric top: --fabric soak: no such fabric running (running: " +
                "testbed, demo)\n"), pfabric("top", "--once", "--fabric", "soak"));
        }
    }

    @Test
    void theMonitorsPortInUse() throws IOException
    {
        final Path state = testbed();
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            final Outcome up = pfabric("monitor", "up", "--prometheus", "/bin/true", "--port",
                Integer.toString(taken.getLocalPort()));

            assertEquals(2, up.status(), up.toString());
            assertTrue(up.err().startsWith("pfabric monitor up: --port " + taken.getLocalPort() + ": 127.0.0.1:" +
                taken.getLocalPort() + " is in use (") && up.err().endsWith("): give a free one with --port\n") &&
                1 == up.err().lines().count(), up.err());
            assertEquals("", up.out());
        }
        assertFalse(Files.exists(state.resolve(Monitor.DIRECTORY)), "nothing started");
    }
}
