package io.pfabric.testbed;

import io.pfabric.common.topology.Topology;
import io.pfabric.hostd.HostDaemon;
import io.pfabric.hostd.io.PacketIos;
import io.pfabric.hostd.transport.FlowRecord;
import io.pfabric.hostd.transport.TransportConfiguration;
import io.pfabric.hostd.transport.TransportListener;
import io.pfabric.switchd.SwitchDaemon;
import io.pfabric.switchd.SwitchPort;
import org.agrona.DirectBuffer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A namespace fabric for fault tests: the topology's switches (in-process, restartable) and a hostd per host on one
 * shared thread (over UDP unless told otherwise), every message each host receives recorded with the number of times
 * it was delivered.
 */
final class HostFabric implements AutoCloseable
{
    /**
     * A message sent and where to.
     *
     * @param record      completed when its last byte is acknowledged.
     * @param payload     what was sent.
     * @param destination the receiving host.
     */
    record Sent(CompletableFuture<FlowRecord> record, byte[] payload, String destination)
    {
    }

    private final NetnsFabric fabric;
    private final SwitchDaemon.Overrides overrides;
    private final List<HostDaemon> hosts = new ArrayList<>();
    private final Map<String, Map<Long, byte[]>> received = new ConcurrentHashMap<>();
    private final Map<Long, AtomicInteger> deliveries = new ConcurrentHashMap<>();
    private FabricRunner switches;

    private HostFabric(final NetnsFabric fabric, final SwitchDaemon.Overrides overrides)
    {
        this.fabric = fabric;
        this.overrides = overrides;
    }

    /**
     * Build the fabric in namespaces named with a random prefix, start its switches and its hosts.
     *
     * @param topology     the fabric; every host gets a hostd.
     * @param prefix       three letters that start the namespaces' names.
     * @param rateBps      the links' rate.
     * @param baseRttNs    the base round trip the transport's settings follow from.
     * @return the running fabric.
     * @throws Exception if it cannot be built.
     */
    static HostFabric start(final Topology topology, final String prefix, final long rateBps, final long baseRttNs)
        throws Exception
    {
        return start(topology, prefix, rateBps, baseRttNs, PacketIos.UDP, SwitchDaemon.Overrides.NONE);
    }

    /**
     * Build the fabric in namespaces named with a random prefix, start its switches and its hosts.
     *
     * @param topology  the fabric; every host gets a hostd.
     * @param prefix    three letters that start the namespaces' names.
     * @param rateBps   the links' rate.
     * @param baseRttNs the base round trip the transport's settings follow from.
     * @param io        the hosts' I/O, one of {@link PacketIos}'s names.
     * @param overrides applied to every port of every switch.
     * @return the running fabric.
     * @throws Exception if it cannot be built.
     */
    static HostFabric start(
        final Topology topology,
        final String prefix,
        final long rateBps,
        final long baseRttNs,
        final String io,
        final SwitchDaemon.Overrides overrides)
        throws Exception
    {
        final HostFabric hostFabric = new HostFabric(NetnsFabric.build(topology,
            prefix + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0x10000))), overrides);
        try
        {
            hostFabric.startSwitches();
            final TransportConfiguration configuration = TransportConfiguration.forFabric(rateBps, baseRttNs, 36_000);
            final List<String> names = topology.hosts().stream().map(host -> host.name()).toList();
            hostFabric.hosts.addAll(HostDaemon.startAll(topology, names, name -> new HostDaemon.Options(configuration,
                rateBps, PacketIos.wireOverheadLength(io), hostFabric.fabric.namespace(name), true),
                io, hostFabric::recorder, true));
        }
        catch (final Exception | Error ex)
        {
            hostFabric.close();
            throw ex;
        }
        return hostFabric;
    }

    private TransportListener recorder(final String host)
    {
        final Map<Long, byte[]> messages = received.computeIfAbsent(host, name -> new ConcurrentHashMap<>());
        return new TransportListener()
        {
            public void onMessage(final int sourceHost, final long flowId, final DirectBuffer message,
                final int length)
            {
                final byte[] bytes = new byte[length];
                message.getBytes(0, bytes);
                messages.put(flowId, bytes);
                deliveries.computeIfAbsent(flowId, id -> new AtomicInteger()).incrementAndGet();
            }
        };
    }

    NetnsFabric fabric()
    {
        return fabric;
    }

    List<HostDaemon> hosts()
    {
        return hosts;
    }

    HostDaemon host(final String name)
    {
        return hosts.stream().filter(host -> host.host().name().equals(name)).findFirst().orElseThrow();
    }

    /**
     * Open the switches' ports and start forwarding.
     *
     * @throws Exception if a port cannot be opened.
     */
    void startSwitches() throws Exception
    {
        switches = FabricRunner.start(fabric, overrides);
    }

    /**
     * Stop every switch dead: its forwarder stops and its ports close, losing every frame it held.
     */
    void stopSwitches()
    {
        switches.close();
        switches = null;
    }

    SwitchPort port(final String switchName, final String portName)
    {
        final SwitchDaemon daemon = switches.daemon(switchName);
        for (int i = 0; i < daemon.portCount(); i++)
        {
            if (daemon.port(i).name().equals(portName))
            {
                return daemon.port(i);
            }
        }
        throw new IllegalArgumentException(switchName + ":" + portName);
    }

    Sent send(final String from, final String to, final byte[] payload)
    {
        return new Sent(host(from).send(to, payload), payload, to);
    }

    /**
     * Wait for every message, then check each arrived once and intact, and that nothing else was delivered.
     *
     * @param sends          the messages.
     * @param timeoutSeconds longest wait for them all.
     * @throws Exception if one failed or the wait timed out.
     */
    void assertDeliveredOnceIntact(final List<Sent> sends, final long timeoutSeconds) throws Exception
    {
        CompletableFuture.allOf(sends.stream().map(Sent::record).toArray(CompletableFuture<?>[]::new))
            .get(timeoutSeconds, TimeUnit.SECONDS);
        for (int i = 0; i < sends.size(); i++)
        {
            final long flowId = sends.get(i).record().join().flowId();
            assertArrayEquals(sends.get(i).payload(), received.get(sends.get(i).destination()).get(flowId),
                "message " + i + " intact");
            assertEquals(1, deliveries.get(flowId).get(), "message " + i + " delivered once");
        }
    }

    /**
     * Messages delivered so far, each counted once.
     *
     * @return the count.
     */
    long messagesDelivered()
    {
        return deliveries.size();
    }

    /**
     * Stop the hosts and switches and remove the namespaces.
     *
     * @throws IOException if the namespaces cannot be removed.
     */
    public void close() throws IOException
    {
        try
        {
            hosts.forEach(HostDaemon::close);
            if (null != switches)
            {
                switches.close();
            }
        }
        finally
        {
            fabric.close();
        }
    }
}
