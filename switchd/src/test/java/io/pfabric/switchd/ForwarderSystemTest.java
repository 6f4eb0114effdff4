package io.pfabric.switchd;

import io.pfabric.switchd.queue.DisciplineKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Kernel traffic between two hosts in their own namespaces through a forwarder on raw-socket ports in a third.
 */
@Timeout(120)
class ForwarderSystemTest
{
    private StarFabric fabric;
    private String h1;
    private String h2;

    @BeforeEach
    void buildStarOfTwo() throws Exception
    {
        assumeTrue(Namespaces.privileged(), "namespaces and packet sockets need root");
        fabric = new StarFabric(2, 100_000_000L, DisciplineKind.PFABRIC);
        h1 = fabric.host(1);
        h2 = fabric.host(2);
    }

    @AfterEach
    void tearDown() throws Exception
    {
        if (null != fabric)
        {
            fabric.close();
        }
    }

    @Test
    void kernelPingCrossesTheSwitchWhichAnswersArp() throws Exception
    {
        final String output = Namespaces.exec(h1, "ping", "-c", "5", "-i", "0.2", "-W", "2", "10.0.0.2");
        assertTrue(output.contains("5 received"), output);
        final String neighbours = Namespaces.exec(h1, "ip", "neigh", "show", "10.0.0.2");
        assertTrue(neighbours.contains(StarFabric.mac(2)), neighbours);
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
        }, fabric.threads());
        final String sent = Namespaces.exec(h1, "/usr/bin/python3", "-c", client).trim();
        assertEquals(sent, received.get(60, TimeUnit.SECONDS));
        assertTrue(sent.startsWith("2000000 "), sent);
    }
}
