package io.pfabric.switchd;

import io.pfabric.common.packet.NetworkNamespace;
import io.pfabric.common.packet.PacketPort;
import io.pfabric.switchd.egress.EgressPacer;
import io.pfabric.switchd.queue.DisciplineKind;
import io.pfabric.switchd.table.ForwardingTable;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.SystemNanoClock;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A switch with N hosts, each in a namespace of its own created for the test: host i has address 10.0.0.i and MAC
 * 02:00:0a:00:00:0i on {@code eth0}, attached to switch port {@code p<i>}. The switch runs a {@link Forwarder} on a
 * thread of its own in a third namespace. Closing stops the forwarder and deletes every namespace.
 */
final class StarFabric implements AutoCloseable
{
    private final Namespaces namespaces = new Namespaces();
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicReference<SwitchPort[]> ports = new AtomicReference<>();
    private final AtomicReference<Forwarder> forwarder = new AtomicReference<>();
    private final String[] hosts;
    private final String switchNamespace;
    private CompletableFuture<Void> switchThread;
    private volatile long forwarderThreadId;

    StarFabric(final int hostCount, final long rateBitsPerSec, final DisciplineKind discipline) throws Exception
    {
        try
        {
            switchNamespace = namespaces.create("sw");
            hosts = new String[hostCount];
            for (int i = 1; i <= hostCount; i++)
            {
                hosts[i - 1] = namespaces.create("h" + i);
                attach(hosts[i - 1], "p" + i, mac(i), "10.0.0." + i + "/24");
            }
            start(hostCount, rateBitsPerSec, discipline);
        }
        catch (final Exception ex)
        {
            close();
            throw ex;
        }
    }

    static String mac(final int host)
    {
        return String.format("02:00:0a:00:00:%02x", host);
    }

    static long macValue(final int host)
    {
        return 0x0200_0A00_0000L + host;
    }

    static int address(final int host)
    {
        return 0x0A00_0000 + host;
    }

    String host(final int host)
    {
        return hosts[host - 1];
    }

    SwitchPort port(final int host)
    {
        return ports.get()[host - 1];
    }

    Forwarder forwarder()
    {
        return forwarder.get();
    }

    ExecutorService threads()
    {
        return threads;
    }

    private void attach(final String host, final String switchPort, final String mac, final String address)
        throws Exception
    {
        Namespaces.exec(switchNamespace, "ip", "link", "add", switchPort, "type", "veth", "peer", "name", "eth0",
            "netns", host);
        Namespaces.exec(host, "ip", "link", "set", "eth0", "address", mac);
        Namespaces.exec(host, "ip", "addr", "add", address, "dev", "eth0");
        Namespaces.exec(host, "ethtool", "-K", "eth0", "rx", "off", "tx", "off", "sg", "off", "tso", "off", "gso",
            "off", "gro", "off");
        Namespaces.exec(switchNamespace, "ethtool", "-K", switchPort, "gro", "off");
        Namespaces.exec(host, "ip", "link", "set", "eth0", "up");
        Namespaces.exec(switchNamespace, "ip", "link", "set", switchPort, "up");
    }

    private void start(final int hostCount, final long rateBitsPerSec, final DisciplineKind discipline)
        throws InterruptedException
    {
        final CountDownLatch started = new CountDownLatch(1);
        switchThread = CompletableFuture.runAsync(() ->
        {
            SwitchPort[] switchPorts = new SwitchPort[0];
            try
            {
                NetworkNamespace.enterOnCurrentThread(switchNamespace);
                switchPorts = new SwitchPort[hostCount];
                final ForwardingTable table = new ForwardingTable();
                for (int i = 1; i <= hostCount; i++)
                {
                    switchPorts[i - 1] = new SwitchPort("p" + i, PacketPort.open("p" + i),
                        discipline.newQueue(discipline.defaultCapacityLength(), 1514),
                        0 == rateBitsPerSec ? null : new EgressPacer(rateBitsPerSec));
                    table.addHost(address(i), macValue(i), i - 1);
                }
                final Forwarder agent = new Forwarder(switchPorts, table, true, new SystemNanoClock());
                forwarderThreadId = Thread.currentThread().threadId();
                ports.set(switchPorts);
                forwarder.set(agent);
                started.countDown();
                final BackoffIdleStrategy idle = new BackoffIdleStrategy(10, 20, 1_000, 50_000);
                while (running.get())
                {
                    idle.idle(agent.doWork());
                }
                agent.updateStatistics();
            }
            catch (final Exception ex)
            {
                throw new IllegalStateException(ex);
            }
            finally
            {
                started.countDown();
                for (final SwitchPort port : switchPorts)
                {
                    if (null != port)
                    {
                        port.io().close();
                    }
                }
            }
        }, threads);
        if (!started.await(30, TimeUnit.SECONDS) || null == forwarder.get())
        {
            throw new IllegalStateException("forwarder did not start", switchThread.handle((ok, ex) -> ex).join());
        }
    }

    /**
     * Stop the forwarder and wait for its thread; its counters may then be read from this thread.
     */
    void stop() throws IOException
    {
        running.set(false);
        try
        {
            if (null != switchThread)
            {
                switchThread.get(30, TimeUnit.SECONDS);
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while stopping the forwarder", ex);
        }
        catch (final ExecutionException | TimeoutException ex)
        {
            throw new IOException("the forwarder failed or did not stop", ex);
        }
    }

    long forwarderAllocatedBytes()
    {
        return ((com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean())
            .getThreadAllocatedBytes(forwarderThreadId);
    }

    public void close() throws IOException
    {
        try
        {
            stop();
        }
        finally
        {
            threads.shutdownNow();
            namespaces.close();
        }
    }
}
