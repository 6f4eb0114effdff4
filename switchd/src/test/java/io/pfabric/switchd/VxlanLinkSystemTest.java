package io.pfabric.switchd;

import io.pfabric.common.packet.NetworkNamespace;
import io.pfabric.common.topology.Topology;
import io.pfabric.common.topology.TopologyParser;
import io.pfabric.testsupport.RequiresNetns;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.SystemNanoClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.StringReader;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two switches linked by a VXLAN-over-UDP port pair on a namespace's loopback, each with a host on a raw-socket port:
 * kernel ping crosses both switches and the VXLAN link.
 */
@Timeout(120)
@RequiresNetns
class VxlanLinkSystemTest
{
    private static final String TOPOLOGY = String.join("\n",
        "hosts:",
        "  - {name: h1, ip: 10.0.0.1, mac: \"02:00:0a:00:00:01\", switch: s1, port: p1}",
        "  - {name: h2, ip: 10.0.0.2, mac: \"02:00:0a:00:00:02\", switch: s2, port: p1}",
        "switches:",
        "  - name: s1",
        "    ports:",
        "      - {name: p1, interface: s1-p1, rate: 100m}",
        "      - name: p2",
        "        udp: {local: \"127.0.0.1:47101\", remote: \"127.0.0.1:47102\", vni: 7}",
        "  - name: s2",
        "    ports:",
        "      - {name: p1, interface: s2-p1, rate: 100m}",
        "      - name: p2",
        "        udp: {local: \"127.0.0.1:47102\", remote: \"127.0.0.1:47101\", vni: 7}",
        "links:",
        "  - [s1:p2, s2:p2]",
        "");

    private final Namespaces namespaces = new Namespaces();
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private CompletableFuture<Void> switches;

    @AfterEach
    void tearDown() throws Exception
    {
        running.set(false);
        try
        {
            if (null != switches)
            {
                switches.get(30, TimeUnit.SECONDS);
            }
        }
        finally
        {
            threads.shutdownNow();
            namespaces.close();
        }
    }

    @Test
    void pingCrossesTwoSwitchesOverVxlan() throws Exception
    {
        final Topology topology = TopologyParser.parse("vxlan-link", new StringReader(TOPOLOGY));
        final String sw = namespaces.create("sw");
        final String h1 = namespaces.create("h1");
        final String h2 = namespaces.create("h2");
        for (final String[] attachment : new String[][]{ { "s1-p1", h1, "1" }, { "s2-p1", h2, "2" } })
        {
            Namespaces.exec(sw, "ip", "link", "add", attachment[0], "type", "veth", "peer", "name", "eth0", "netns",
                attachment[1]);
            Namespaces.exec(attachment[1], "ip", "link", "set", "eth0", "address", "02:00:0a:00:00:0" + attachment[2]);
            Namespaces.exec(attachment[1], "ip", "addr", "add", "10.0.0." + attachment[2] + "/24", "dev", "eth0");
            Namespaces.exec(attachment[1], "ip", "link", "set", "eth0", "up");
            Namespaces.exec(sw, "ip", "link", "set", attachment[0], "up");
        }

        final CountDownLatch started = new CountDownLatch(1);
        final AtomicReference<SwitchDaemon> s1 = new AtomicReference<>();
        switches = CompletableFuture.runAsync(() ->
        {
            try
            {
                NetworkNamespace.enterOnCurrentThread(sw);
                try (SwitchDaemon first = SwitchDaemon.open(topology, "s1", SwitchDaemon.Overrides.NONE,
                    new SystemNanoClock());
                    SwitchDaemon second = SwitchDaemon.open(topology, "s2", SwitchDaemon.Overrides.NONE,
                    new SystemNanoClock()))
                {
                    s1.set(first);
                    started.countDown();
                    final BackoffIdleStrategy idle = new BackoffIdleStrategy(10, 20, 1_000, 50_000);
                    while (running.get())
                    {
                        idle.idle(first.forwarder().doWork() + second.forwarder().doWork());
                    }
                }
            }
            catch (final Exception ex)
            {
                throw new IllegalStateException(ex);
            }
            finally
            {
                started.countDown();
            }
        }, threads);
        assertTrue(started.await(30, TimeUnit.SECONDS) && null != s1.get(), "switches started");

        final String ping = Namespaces.exec(h1, "ping", "-c", "5", "-i", "0.2", "-W", "2", "10.0.0.2");
        assertTrue(ping.contains("5 received"), ping);
        assertTrue(s1.get().port(1).counters().get(PortCounter.TRANSMITTED_FRAMES) >= 5,
            "the pings crossed s1's VXLAN port");
        assertTrue(s1.get().port(1).io().interfaceName().startsWith("vxlan 127.0.0.1:47101->127.0.0.1:47102"));
    }
}
