package io.pfabric.testbed;

import io.pfabric.common.packet.NetworkNamespace;
import io.pfabric.common.packet.PacketSocketException;
import io.pfabric.common.topology.SwitchSpec;
import io.pfabric.common.topology.Topology;
import io.pfabric.switchd.Forwarder;
import io.pfabric.switchd.ForwarderIdleStrategy;
import io.pfabric.switchd.SwitchDaemon;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.CompositeAgent;
import org.agrona.concurrent.SystemNanoClock;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

/**
 * Every switch of a {@link NetnsFabric} in this process: each {@link SwitchDaemon} opens its ports in its own
 * namespace, and all their forwarders share one thread, which on a small machine keeps them from starving each other.
 * Between duty cycles the thread sleeps in all their ports at once until a frame arrives or a paced port's next
 * departure ({@link ForwarderIdleStrategy}), so an idle fabric, or one whose links are slow enough to sleep between
 * frames, leaves the cores to the hosts.
 */
public final class FabricRunner implements AutoCloseable
{
    private final Map<String, SwitchDaemon> daemons;
    private AgentRunner runner;
    private ForwarderIdleStrategy idle;

    private FabricRunner(final Map<String, SwitchDaemon> daemons)
    {
        this.daemons = daemons;
    }

    /**
     * Open every switch and start forwarding.
     *
     * @param fabric    the namespaces and links.
     * @param overrides applied to every port of every switch.
     * @return the running switches.
     * @throws PacketSocketException if a port cannot be opened.
     */
    public static FabricRunner start(final NetnsFabric fabric, final SwitchDaemon.Overrides overrides)
        throws PacketSocketException
    {
        return start(fabric.topology(), fabric::namespace, overrides);
    }

    /**
     * Open every switch of a {@link NetnsFabric} without forwarding: {@link #startForwarding()} starts it. Work a
     * process does once at start (binding meters, a first scrape) is best done between the two: once the
     * forwarding thread runs, real-time on a core of its own ({@code DataPathPlacement}), the rest of the process
     * shares what the hosts' threads leave of the other cores, and a process started into a busy fabric took more
     * than a minute to get through it.
     *
     * @param fabric    the namespaces and links.
     * @param overrides applied to every port of every switch.
     * @return the open switches, not forwarding.
     * @throws PacketSocketException if a port cannot be opened.
     */
    public static FabricRunner open(final NetnsFabric fabric, final SwitchDaemon.Overrides overrides)
        throws PacketSocketException
    {
        return open(fabric.topology(), fabric::namespace, overrides);
    }

    /**
     * Open every switch of a topology, each in its namespace or, where {@code namespaceOf} gives null, in the
     * namespace the call is made in (VXLAN-over-UDP ports on loopback need none), and start forwarding; return once
     * every port receives.
     *
     * @param topology    the fabric.
     * @param namespaceOf the namespace of a switch by name, or null.
     * @param overrides   applied to every port of every switch.
     * @return the running switches.
     * @throws PacketSocketException if a port cannot be opened.
     */
    public static FabricRunner start(
        final Topology topology, final Function<String, String> namespaceOf, final SwitchDaemon.Overrides overrides)
        throws PacketSocketException
    {
        final FabricRunner opened = open(topology, namespaceOf, overrides);
        try
        {
            opened.startForwarding();
        }
        catch (final RuntimeException ex)
        {
            opened.close();
            throw ex;
        }
        return opened;
    }

    private static FabricRunner open(
        final Topology topology, final Function<String, String> namespaceOf, final SwitchDaemon.Overrides overrides)
        throws PacketSocketException
    {
        final Map<String, SwitchDaemon> daemons = new LinkedHashMap<>();
        try
        {
            CompletableFuture.runAsync(() ->
            {
                for (final SwitchSpec sw : topology.switches())
                {
                    try
                    {
                        final String namespace = namespaceOf.apply(sw.name());
                        if (null != namespace)
                        {
                            NetworkNamespace.enterOnCurrentThread(namespace);
                        }
                        daemons.put(sw.name(),
                            SwitchDaemon.open(topology, sw.name(), overrides, new SystemNanoClock()));
                    }
                    catch (final PacketSocketException ex)
                    {
                        throw new CompletionException(ex);
                    }
                }
            }, runnable -> new Thread(runnable, "pfabric-open").start()).join();
        }
        catch (final CompletionException ex)
        {
            daemons.values().forEach(SwitchDaemon::close);
            if (ex.getCause() instanceof PacketSocketException cause)
            {
                throw cause;
            }
            throw ex;
        }
        return new FabricRunner(daemons);
    }

    /**
     * Start forwarding on the switches {@link #open(NetnsFabric, SwitchDaemon.Overrides)} opened; return once every
     * port receives. If it fails, the ports stay open until {@link #close()}.
     *
     * @throws IllegalStateException if forwarding has started already.
     * @throws RuntimeException      if a forwarder fails to start.
     */
    public void startForwarding()
    {
        if (null != runner)
        {
            throw new IllegalStateException("forwarding has started already");
        }
        final Forwarder[] forwarders = daemons.values().stream().map(SwitchDaemon::forwarder).toArray(Forwarder[]::new);
        final CompletableFuture<Void> receiving = new CompletableFuture<>();
        idle = new ForwarderIdleStrategy(forwarders);
        runner = new AgentRunner(idle,
            error -> System.err.println("pfabric: forwarder error: " + error), null,
            new CompositeAgent(forwarders)
            {
                public void onStart()
                {
                    try
                    {
                        super.onStart();
                        receiving.complete(null);
                    }
                    catch (final RuntimeException ex)
                    {
                        receiving.completeExceptionally(ex);
                        throw ex;
                    }
                }
            });
        AgentRunner.startOnThread(runner);
        try
        {
            receiving.join();
        }
        catch (final CompletionException ex)
        {
            runner.close();
            idle.close();
            runner = null;
            idle = null;
            throw ex.getCause() instanceof RuntimeException cause ? cause : ex;
        }
    }

    /**
     * A running switch.
     *
     * @param name of the switch in the topology.
     * @return the switch.
     */
    public SwitchDaemon daemon(final String name)
    {
        return daemons.get(name);
    }

    /**
     * Stop forwarding, leaving the ports and their counters open until {@link #close()}.
     */
    public void stopForwarding()
    {
        if (null != runner)
        {
            runner.close();
        }
    }

    /**
     * Stop forwarding and close every port.
     */
    public void close()
    {
        stopForwarding();
        if (null != idle)
        {
            idle.close();
        }
        daemons.values().forEach(SwitchDaemon::close);
    }
}
