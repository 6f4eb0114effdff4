package io.pfabric.switchd;

import io.pfabric.common.packet.NetworkNamespace;
import io.pfabric.common.packet.PacketPort;
import io.pfabric.switchd.egress.EgressPacer;
import io.pfabric.switchd.queue.PfabricQueue;
import io.pfabric.switchd.table.ForwardingTable;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.SystemNanoClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Kernel traffic between two hosts in their own namespaces through a forwarder on raw-socket ports in a third.
 */
@Timeout(120)
class ForwarderSystemTest
{
    private static final String H1_MAC = "02:00:0a:00:00:01";
    private static final String H2_MAC = "02:00:0a:00:00:02";

    private final Namespaces namespaces = new Namespaces();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final CountDownLatch started = new CountDownLatch(1);
    private String sw;
    private String h1;
    private String h2;
    private CompletableFuture<SwitchPort[]> switchThread;

    @BeforeEach
    void buildStarOfTwo() throws Exception
    {
        assumeTrue(Namespaces.privileged(), "namespaces and packet sockets need root");
        sw = namespaces.create("sw");
        h1 = namespaces.create("h1");
        h2 = namespaces.create("h2");
        attach(h1, "p1", H1_MAC, "10.0.0.1/24");
        attach(h2, "p2", H2_MAC, "10.0.0.2/24");

        switchThread = CompletableFuture.supplyAsync(() ->
        {
            try
            {
                NetworkNamespace.enterOnCurrentThread(sw);
                final SwitchPort[] ports = {
                    new SwitchPort("p1", PacketPort.open("p1"), new PfabricQueue(36_000), new EgressPacer(100_000_000L)),
                    new SwitchPort("p2", PacketPort.open("p2"), new PfabricQueue(36_000), new EgressPacer(100_000_000L))
                };
                final ForwardingTable table = new ForwardingTable()
                    .addHost(0x0A00_0001, 0x0200_0A00_0001L, 0)
                    .addHost(0x0A00_0002, 0x0200_0A00_0002L, 1);
                final Forwarder forwarder = new Forwarder(ports, table, true, new SystemNanoClock());
                final BackoffIdleStrategy idle = new BackoffIdleStrategy(10, 20, 1_000, 50_000);
                started.countDown();
                while (running.get())
                {
                    idle.idle(forwarder.doWork());
                }
                for (final SwitchPort port : ports)
                {
                    port.io().close();
                }
                return ports;
            }
            catch (final Exception ex)
            {
                started.countDown();
                throw new IllegalStateException(ex);
            }
        }, threads);
        assertTrue(started.await(30, TimeUnit.SECONDS));
    }

    private void attach(final String host, final String switchPort, final String mac, final String address)
        throws Exception
    {
        Namespaces.exec(sw, "ip", "link", "add", switchPort, "type", "veth", "peer", "name", "eth0", "netns", host);
        Namespaces.exec(host, "ip", "link", "set", "eth0", "address", mac);
        Namespaces.exec(host, "ip", "addr", "add", address, "dev", "eth0");
        Namespaces.exec(host, "ethtool", "-K", "eth0", "rx", "off", "tx", "off", "sg", "off", "tso", "off", "gso",
            "off", "gro", "off");
        Namespaces.exec(sw, "ethtool", "-K", switchPort, "gro", "off");
        Namespaces.exec(host, "ip", "link", "set", "eth0", "up");
        Namespaces.exec(sw, "ip", "link", "set", switchPort, "up");
    }

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
    void kernelPingCrossesTheSwitchWhichAnswersArp() throws Exception
    {
        final String output = Namespaces.exec(h1, "ping", "-c", "5", "-i", "0.2", "-W", "2", "10.0.0.2");
        assertTrue(output.contains("5 received"), output);
        final String neighbours = Namespaces.exec(h1, "ip", "neigh", "show", "10.0.0.2");
        assertTrue(neighbours.contains(H2_MAC), neighbours);
    }

    @Test
    void kernelTcpCarriesAFileByteForByte() throws Exception
    {
        final String server = "import socket,hashlib\n" +
            "s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)\n" +
            "s.bind(('10.0.0.2', 5001)); s.listen(1); s.settimeout(30)\n" +
            "c,_=s.accept(); h=hashlib.sha256(); n=0\n" +
            "while True:\n" +
            "  b=c.recv(65536)\n" +
            "  if not b: break\n" +
            "  h.update(b); n+=len(b)\n" +
            "print(n, h.hexdigest())\n";
        final String client = "import socket,hashlib,random,time\n" +
            "random.seed(7); data=bytes(random.getrandbits(8) for _ in range(2000000))\n" +
            "c=None\n" +
            "for i in range(100):\n" +
            "  try:\n" +
            "    c=socket.create_connection(('10.0.0.2', 5001), timeout=30); break\n" +
            "  except OSError as e: error=e; time.sleep(0.1)\n" +
            "if c is None: raise SystemExit('could not connect: %s' % error)\n" +
            "c.sendall(data); c.close()\n" +
            "print(len(data), hashlib.sha256(data).hexdigest())\n";
        final CompletableFuture<String> received = CompletableFuture.supplyAsync(() ->
        {
            try
            {
                return Namespaces.exec(h2, "/usr/bin/python3", "-c", server).trim();
            }
            catch (final Exception ex)
            {
                throw new IllegalStateException(ex);
            }
        }, threads);
        final String sent = Namespaces.exec(h1, "/usr/bin/python3", "-c", client).trim();
        assertEquals(sent, received.get(60, TimeUnit.SECONDS));
        assertTrue(sent.startsWith("2000000 "), sent);
    }
}
