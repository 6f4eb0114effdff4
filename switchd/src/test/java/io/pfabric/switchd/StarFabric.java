package io.pfabric.switchd;

import io.pfabric.common.packet.NetworkNamespace;
import io.pfabric.common.topology.HostSpec;
import io.pfabric.common.topology.PortIo;
import io.pfabric.common.topology.PortSpec;
import io.pfabric.common.topology.SwitchSpec;
import io.pfabric.common.topology.Topologies;
import io.pfabric.common.topology.Topology;
import io.pfabric.dataplane.queue.DisciplineKind;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.SystemNanoClock;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
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
 * The fabric of {@code Topologies.star(N)}, each host in a namespace of its own created for the test: host i has
 * address 10.0.0.i and MAC 02:00:0a:00:00:0i on {@code eth0}, the peer of the switch's interface {@code s1-p<i>}.
 * The switch is a {@link SwitchDaemon} built from the topology, its forwarder run on a thread of its own in a third
 * namespace. Closing stops the forwarder and deletes every namespace.
 */
final class StarFabric implements AutoCloseable
{
    private final Namespaces namespaces = new Namespaces();
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicReference<SwitchDaemon> daemon = new AtomicReference<>();
    private final Topology topology;
    private final boolean learning;
    private final PortIo portIo;
    private final long bufferLength;
    private final String[] hosts;
    private final String switchNamespace;
    private CompletableFuture<Void> switchThread;
    private volatile long forwarderThreadId;

    StarFabric(final int hostCount, final long rateBitsPerSec, final DisciplineKind discipline) throws Exception
    {
        this(hostCount, rateBitsPerSec, discipline, false, -1);
    }

    /**
     * The same fabric, with the switch in the topology-free learning mode when {@code learning} is true.
     */
    StarFabric(final int hostCount, final long rateBitsPerSec, final DisciplineKind discipline, final boolean learning)
        throws Exception
    {
        this(hostCount, rateBitsPerSec, discipline, learning, -1);
    }

    /**
     * The same fabric with every egress buffer {@code bufferLength} bytes long, or as the topology says when -1.
     */
    StarFabric(
        final int hostCount,
        final long rateBitsPerSec,
        final DisciplineKind discipline,
        final boolean learning,
        final long bufferLength)
        throws Exception
    {
        this(hostCount, rateBitsPerSec, discipline.cliName(), learning, bufferLength);
    }

    /**
     * The same fabric with every port's discipline given with its parameters, {@code NAME[:PARAMS]}.
     */
    StarFabric(
        final int hostCount,
        final long rateBitsPerSec,
        final String discipline,
        final boolean learning,
        final long bufferLength)
        throws Exception
    {
        this(hostCount, rateBitsPerSec, discipline, learning, bufferLength, (PortIo)null);
    }

    /**
     * The same fabric with every switch port on the given I/O ({@code AF_PACKET} when null).
     */
    StarFabric(
        final int hostCount,
        final long rateBitsPerSec,
        final String discipline,
        final boolean learning,
        final long bufferLength,
        final PortIo portIo)
        throws Exception
    {
        this(hostCount, rateBitsPerSec, discipline, learning, bufferLength,
            null == portIo ? null : Collections.nCopies(hostCount, portIo), Set.of());
    }

    /**
     * The same fabric with switch port i on the I/O at index i - 1, as the topology gives it ({@code AF_PACKET} for
     * all when null); a learning switch puts every port on the first one's. The switch ports of the hosts in
     * {@code onMacvlan} are on a macvlan device (passthru mode) over the switch's end of the veth, named as the
     * topology names the port: a device without native XDP, whose AF_XDP port runs in generic mode.
     */
    StarFabric(
        final int hostCount,
        final long rateBitsPerSec,
        final String discipline,
        final boolean learning,
        final long bufferLength,
        final List<PortIo> portIos,
        final Set<Integer> onMacvlan)
        throws Exception
    {
        this.portIo = learning && null != portIos ? portIos.get(0) : null;
        this.learning = learning;
        this.bufferLength = bufferLength;
        topology = withIo(Topologies.star(hostCount, "", rateBitsPerSec, discipline), portIos);
        try
        {
            switchNamespace = namespaces.create("sw");
            hosts = new String[hostCount];
            for (int i = 1; i <= hostCount; i++)
            {
                final HostSpec host = topology.host("h" + i);
                hosts[i - 1] = namespaces.create(host.name());
                attach(hosts[i - 1], topology.switchNamed("s1").port(host.portName()).interfaceName(),
                    host.macText(), host.ipText() + "/24", onMacvlan.contains(i));
            }
            start();
        }
        catch (final Exception ex)
        {
            close();
            throw ex;
        }
    }

    private static Topology withIo(final Topology star, final List<PortIo> portIos)
    {
        if (null == portIos)
        {
            return star;
        }
        final SwitchSpec s1 = star.switches().get(0);
        final List<PortSpec> ports = new ArrayList<>();
        for (int i = 0; i < s1.ports().size(); i++)
        {
            ports.add(s1.ports().get(i).withIo(portIos.get(i)));
        }
        return new Topology(star.hosts(), List.of(new SwitchSpec(s1.name(), s1.multipath(), ports)), star.links());
    }

    private List<String> interfaces()
    {
        final List<String> names = new ArrayList<>();
        for (final PortSpec port : topology.switchNamed("s1").ports())
        {
            names.add(port.interfaceName());
        }
        return names;
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
        return daemon.get().port(host - 1);
    }

    SwitchDaemon daemon()
    {
        return daemon.get();
    }

    Forwarder forwarder()
    {
        return daemon.get().forwarder();
    }

    String switchNamespace()
    {
        return switchNamespace;
    }

    ExecutorService threads()
    {
        return threads;
    }

    private void attach(
        final String host, final String switchPort, final String mac, final String address, final boolean macvlan)
        throws Exception
    {
        final String switchEnd = macvlan ? switchPort + "v" : switchPort;
        Namespaces.exec(switchNamespace, "ip", "link", "add", switchEnd, "type", "veth", "peer", "name", "eth0",
            "netns", host);
        if (macvlan)
        {
            Namespaces.exec(switchNamespace, "ethtool", "-K", switchEnd, "gro", "off");
            Namespaces.exec(switchNamespace, "ip", "link", "set", switchEnd, "up");
            Namespaces.exec(switchNamespace, "ip", "link", "add", "link", switchEnd, "name", switchPort, "type",
                "macvlan", "mode", "passthru");
        }
        Namespaces.exec(host, "ip", "link", "set", "eth0", "address", mac);
        Namespaces.exec(host, "ip", "addr", "add", address, "dev", "eth0");
        Namespaces.exec(host, "ethtool", "-K", "eth0", "rx", "off", "tx", "off", "sg", "off", "tso", "off", "gso",
            "off", "gro", "off");
        Namespaces.exec(switchNamespace, "ethtool", "-K", switchPort, "gro", "off");
        Namespaces.exec(host, "ip", "link", "set", "eth0", "up");
        Namespaces.exec(switchNamespace, "ip", "link", "set", switchPort, "up");
    }

    private void start() throws InterruptedException
    {
        final CountDownLatch started = new CountDownLatch(1);
        switchThread = CompletableFuture.runAsync(() ->
        {
            try
            {
                NetworkNamespace.enterOnCurrentThread(switchNamespace);
                try (SwitchDaemon switchDaemon = learning ?
                    SwitchDaemon.openLearning("s1", interfaces(), new SwitchDaemon.Overrides(
                        topology.switchNamed("s1").ports().get(0).rateBitsPerSec(),
                        topology.switchNamed("s1").ports().get(0).discipline(), bufferLength).withIo(portIo),
                        new SystemNanoClock()) :
                    SwitchDaemon.open(topology, "s1", new SwitchDaemon.Overrides(-1, null, bufferLength).withIo(portIo),
                        new SystemNanoClock()))
                {
                    forwarderThreadId = Thread.currentThread().threadId();
                    daemon.set(switchDaemon);
                    started.countDown();
                    final Forwarder agent = switchDaemon.forwarder();
                    final BackoffIdleStrategy idle = new BackoffIdleStrategy(10, 20, 1_000, 50_000);
                    while (running.get())
                    {
                        idle.idle(agent.doWork());
                    }
                    agent.updateStatistics();
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
        if (!started.await(30, TimeUnit.SECONDS) || null == daemon.get())
        {
            throw new IllegalStateException("switch did not start", switchThread.handle((ok, ex) -> ex).join());
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
