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
 * A Linux host attached to the switch with a kernel {@code vxlan} device over an IP link, another on a raw-socket
 * port: kernel ping between them, so the switch's VXLAN encapsulation is the kernel's.
 */
@Timeout(120)
@RequiresNetns
class KernelVxlanSystemTest
{
    private static final String TOPOLOGY = String.join("\n",
        "hosts:",
        "  - {name: h1, ip: 10.0.0.1, mac: \"02:00:0a:00:00:01\", switch: s1, port: p1}",
        "  - {name: h2, ip: 10.0.0.2, mac: \"02:00:0a:00:00:02\", switch: s1, port: p2}",
        "switches:",
        "  - name: s1",
        "    ports:",
        "      - {name: p1, interface: s1-p1, rate: 100m}",
        "      - name: p2",
        "        udp: {local: \"192.168.77.1:4789\", remote: \"192.168.77.2:4789\", vni: 7}",
        "");

    private final Namespaces namespaces = new Namespaces();
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private CompletableFuture<Void> switchThread;

    @AfterEach
    void tearDown() throws Exception
    {
        running.set(false);
        try
        {
            if (null != switchThread)
            {
                switchThread.get(30, TimeUnit.SECONDS);
            }
        }
        finally
        {
            threads.shutdownNow();
            namespaces.close();
        }
    }

    @Test
    void pingCrossesFromARawPortToAKernelVxlanDevice() throws Exception
    {
        final Topology topology = TopologyParser.parse("kernel-vxlan", new StringReader(TOPOLOGY));
        final String sw = namespaces.create("sw");
        final String h1 = namespaces.create("h1");
        final String h2 = namespaces.create("h2");
        Namespaces.exec(sw, "ip", "link", "add", "s1-p1", "type", "veth", "peer", "name", "eth0", "netns", h1);
        Namespaces.exec(h1, "ip", "link", "set", "eth0", "address", "02:00:0a:00:00:01");
        Namespaces.exec(h1, "ip", "addr", "add", "10.0.0.1/24", "dev", "eth0");
        Namespaces.exec(h1, "ip", "link", "set", "eth0", "up");
        Namespaces.exec(sw, "ip", "link", "set", "s1-p1", "up");

        Namespaces.exec(sw, "ip", "link", "add", "underlay", "type", "veth", "peer", "name", "underlay", "netns", h2);
        Namespaces.exec(sw, "ip", "addr", "add", "192.168.77.1/24", "dev", "underlay");
        Namespaces.exec(h2, "ip", "addr", "add", "192.168.77.2/24", "dev", "underlay");
        Namespaces.exec(sw, "ip", "link", "set", "underlay", "up");
        Namespaces.exec(h2, "ip", "link", "set", "underlay", "up");
        Namespaces.exec(h2, "ip", "link", "add", "vx0", "type", "vxlan", "id", "7", "local", "192.168.77.2",
            "remote", "192.168.77.1", "dstport", "4789", "dev", "underlay");
        Namespaces.exec(h2, "ip", "link", "set", "vx0", "address", "02:00:0a:00:00:02", "mtu", "1450");
        Namespaces.exec(h2, "ip", "addr", "add", "10.0.0.2/24", "dev", "vx0");
        Namespaces.exec(h2, "ip", "link", "set", "vx0", "up");

        final CountDownLatch started = new CountDownLatch(1);
        final AtomicReference<SwitchDaemon> daemon = new AtomicReference<>();
        switchThread = CompletableFuture.runAsync(() ->
        {
            try
            {
                NetworkNamespace.enterOnCurrentThread(sw);
                try (SwitchDaemon s1 = SwitchDaemon.open(topology, "s1", SwitchDaemon.Overrides.NONE,
                    new SystemNanoClock()))
                {
                    daemon.set(s1);
                    started.countDown();
                    final BackoffIdleStrategy idle = new BackoffIdleStrategy(10, 20, 1_000, 50_000);
                    while (running.get())
                    {
                        idle.idle(s1.forwarder().doWork());
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
        assertTrue(started.await(30, TimeUnit.SECONDS) && null != daemon.get(), "switch started");

        final String ping = Namespaces.exec(h1, "ping", "-c", "5", "-i", "0.2", "-W", "2", "10.0.0.2");
        assertTrue(ping.contains("5 received"), ping);
        final String back = Namespaces.exec(h2, "ping", "-c", "3", "-i", "0.2", "-W", "2", "10.0.0.1");
        assertTrue(back.contains("3 received"), back);
    }
}
