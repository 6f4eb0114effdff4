package io.pfabric.testbed.monitor;

import io.pfabric.common.topology.TopologySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code pfabric monitor up} on bad input: no testbed, Prometheus missing, its port in use, a daemon that does not
 * answer. Each is one message that says which and what to do, and nothing is made or left running. A daemon that
 * accepts the connection but does not answer in time is busy, not gone: Prometheus is started for it (here
 * {@code /bin/true}, which stops at once). The testbed here
 * is its state alone, with this JVM standing in for the switches process.
 */
class MonitorBadInputTest
{
    @TempDir
    Path state;

    private void testbed() throws IOException
    {
        Files.writeString(state.resolve("topology.yaml"),
            TopologySpec.parse("star:2").toTopology(100_000_000L, "pfabric").toYaml());
        Files.writeString(state.resolve(MetricsEndpoint.SWITCHES_PID), Long.toString(ProcessHandle.current().pid()));
    }

    private InetSocketAddress anyLoopback()
    {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), 9);
    }

    @Test
    void noTestbedRunning() throws IOException
    {
        final IllegalStateException failure = assertThrows(IllegalStateException.class,
            () -> Monitor.up(state, "prometheus", anyLoopback()));

        assertTrue(failure.getMessage().startsWith("no testbed running") &&
            failure.getMessage().endsWith("start one with './pfabric testbed up --topo star:4'"), failure.getMessage());
        try (var files = Files.list(state))
        {
            assertEquals(0, files.count());
        }
    }

    @Test
    void prometheusMissing() throws IOException
    {
        testbed();
        final IllegalStateException failure = assertThrows(IllegalStateException.class,
            () -> Monitor.up(state, state.resolve("no-such-prometheus").toString(), anyLoopback()));

        assertTrue(failure.getMessage().startsWith("prometheus is not installed") &&
            failure.getMessage().contains("apt-get install prometheus"), failure.getMessage());
        assertFalse(Files.exists(state.resolve(Monitor.DIRECTORY)));
    }

    @Test
    void portInUse() throws IOException
    {
        testbed();
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            final IllegalStateException failure = assertThrows(IllegalStateException.class,
                () -> Monitor.up(state, "/bin/true", (InetSocketAddress)taken.getLocalSocketAddress()));

            assertTrue(failure.getMessage().startsWith("--port " + taken.getLocalPort() + ": 127.0.0.1:" +
                taken.getLocalPort() + " is in use") && failure.getMessage().endsWith("give a free one with --port"),
                failure.getMessage());
        }
        assertFalse(Files.exists(state.resolve(Monitor.DIRECTORY)));
    }

    @Test
    void aDaemonThatDoesNotAnswer() throws IOException
    {
        testbed();
        final int silentPort;
        final int monitorPort;
        try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
            ServerSocket monitor = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            silentPort = silent.getLocalPort();
            monitorPort = monitor.getLocalPort();
        }
        final MetricsEndpoint switches = new MetricsEndpoint(MetricsEndpoint.SWITCHES, MetricsEndpoint.SWITCHES,
            "127.0.0.1:" + silentPort);
        switches.write(state);

        final IllegalStateException failure = assertThrows(IllegalStateException.class, () ->
            Monitor.up(state, "/bin/true", new InetSocketAddress(InetAddress.getLoopbackAddress(), monitorPort)));

        assertTrue(failure.getMessage().startsWith("the testbed's switches process at http://127.0.0.1:" +
            silentPort + "/metrics does not answer") && failure.getMessage().endsWith(
            "if it has stopped, start it again with --metrics, or remove its record " + switches.file(state)),
            failure.getMessage());
        assertFalse(Files.exists(state.resolve(Monitor.DIRECTORY)));
    }

    @Test
    void aDaemonThatAcceptsButIsSlowToAnswerIsNotRefused() throws IOException
    {
        testbed();
        final int monitorPort;
        try (ServerSocket monitor = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            monitorPort = monitor.getLocalPort();
        }
        try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            new MetricsEndpoint(MetricsEndpoint.SWITCHES, MetricsEndpoint.SWITCHES,
                "127.0.0.1:" + busy.getLocalPort()).write(state);

            final IOException failure = assertThrows(IOException.class, () ->
                Monitor.up(state, "/bin/true", new InetSocketAddress(InetAddress.getLoopbackAddress(), monitorPort)));

            assertTrue(failure.getMessage().startsWith("prometheus stopped at once"), failure.getMessage());
        }
        assertFalse(Files.exists(state.resolve(Monitor.DIRECTORY)));
    }
}
