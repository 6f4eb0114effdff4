package io.pfabric.experiment;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.pfabric.hostd.HostDaemon;
import io.pfabric.hostd.app.MessageInbox;
import io.pfabric.hostd.transport.TransportCounters;

import java.util.function.ToLongFunction;

/**
 * A host's transport counters as meters, tagged with the host's name: what hostd and tcpd serve ({@code --metrics},
 * {@code --counters-file}) and what an experiment's hosts serve while it runs.
 */
public final class HostMetrics
{
    private static final double NANOS_PER_SECOND = 1e9;

    private HostMetrics()
    {
    }

    /**
     * Register the host's transport counters.
     *
     * @param daemon   the host.
     * @param registry to register with.
     */
    public static void bind(final HostDaemon daemon, final MeterRegistry registry)
    {
        final Tags tags = Tags.of("host", daemon.host().name());
        final TransportCounters counters = daemon.counters();
        counter(registry, tags, counters, "flows.started", "Flows the application started",
            TransportCounters::flowsStarted);
        counter(registry, tags, counters, "flows.completed", "Flows whose every byte was acknowledged",
            TransportCounters::flowsCompleted);
        counter(registry, tags, counters, "packets.sent", "Data packets and probes sent",
            TransportCounters::packetsSent);
        counter(registry, tags, counters, "packets.received", "Packets received, of any kind",
            TransportCounters::packetsReceived);
        counter(registry, tags, counters, "acks.sent", "Acknowledgements sent", TransportCounters::acksSent);
        counter(registry, tags, counters, "acks.received", "Acknowledgements received",
            TransportCounters::acksReceived);
        counter(registry, tags, counters, "probes.received", "Probes received", TransportCounters::probesReceived);
        counter(registry, tags, counters, "timeouts", "Flow timeouts", TransportCounters::timeouts);
        counter(registry, tags, counters, "messages.delivered", "Messages delivered to the application",
            TransportCounters::messagesDelivered);
        counter(registry, tags, counters, "duplicate.packets", "Data packets received twice",
            TransportCounters::duplicatePackets);
        counter(registry, tags, counters, "malformed.packets", "Packets dropped as malformed",
            TransportCounters::malformedPackets);
        counter(registry, tags, counters, "stale.acks", "Acknowledgements of no current flow",
            TransportCounters::staleAcks);
        counter(registry, tags, counters, "send.failures", "Packets the socket refused",
            TransportCounters::sendFailures);
        counter(registry, tags, counters, "packets.held.back", "Times a packet waited for admission",
            TransportCounters::packetsHeldBack);
        counter(registry, tags, counters, "receiver.restarts",
            "Flows given up because their receiver restarted after acknowledging part of them",
            TransportCounters::receiverRestarts);
        counter(registry, tags, counters, "receivers.expired", "Incoming flows given up after the idle timeout",
            TransportCounters::receiversExpired);
        counter(registry, tags, counters, "expired.flow.packets", "Packets dropped of incoming flows given up",
            TransportCounters::expiredFlowPackets);
        counter(registry, tags, counters, "pacer.waits",
            "Times a packet was ready and waited for the host's pacer; their lag is measured",
            TransportCounters::pacerWaits);
        counter(registry, tags, counters, "late.sends",
            "Packets sent so late after the time the transport meant that the host's link sat idle meanwhile",
            TransportCounters::lateSends);
        FunctionCounter.builder("pfabric.host.send.lag", counters, c -> c.sendLagNs() / NANOS_PER_SECOND)
            .baseUnit("seconds").description("Lag of the measured sends after the time the transport meant, added up")
            .tags(tags).register(registry);
        Gauge.builder("pfabric.host.longest.send.lag", counters, c -> c.longestSendLagNs() / NANOS_PER_SECOND)
            .baseUnit("seconds").description("Longest lag of a send after the time the transport meant, since start")
            .tags(tags).register(registry);
    }

    /**
     * Register what becomes of the messages a host receives for its application socket's subscribers: those dropped
     * beyond the bounds while no client was subscribed, those a subscriber lost by falling behind, and those kept now.
     *
     * @param host     the host's name.
     * @param inbox    the host's inbox.
     * @param registry to register with.
     */
    public static void bindInbox(final String host, final MessageInbox inbox, final MeterRegistry registry)
    {
        final Tags tags = Tags.of("host", host);
        FunctionCounter.builder("pfabric.host.app.kept.dropped", inbox, MessageInbox::keptDropped)
            .description("Messages received while no client was subscribed and dropped, the oldest first, beyond " +
                "the bounds of those kept for the next subscriber").tags(tags).register(registry);
        FunctionCounter.builder("pfabric.host.app.subscriber.dropped", inbox, MessageInbox::subscriberDropped)
            .description("Messages a subscriber lost because it fell behind").tags(tags).register(registry);
        Gauge.builder("pfabric.host.app.kept.messages", inbox, MessageInbox::keptMessages)
            .description("Messages kept for the next subscriber").tags(tags).register(registry);
    }

    /**
     * Register a kernel-TCP replay's counters, and its flows active (started and not completed).
     *
     * @param host     the replaying host's name.
     * @param replay   the replay.
     * @param registry to register with.
     */
    public static void bindTcp(final String host, final TcpReplay replay, final MeterRegistry registry)
    {
        final Tags tags = Tags.of("host", host);
        FunctionCounter.builder("pfabric.tcp.flows.started", replay, r -> r.startedFlows())
            .description("Flows started").tags(tags).register(registry);
        FunctionCounter.builder("pfabric.tcp.flows.completed", replay, r -> r.completedFlows())
            .description("Flows completed").tags(tags).register(registry);
        FunctionCounter.builder("pfabric.tcp.extra.connections", replay, r -> r.extraConnections())
            .description("Connections opened beyond the pool").tags(tags).register(registry);
        Gauge.builder("pfabric.tcp.flows.active", replay,
            r -> Math.max(0, r.startedFlows() - r.completedFlows()))
            .description("Flows started and not completed").tags(tags).register(registry);
    }

    private static void counter(final MeterRegistry registry, final Tags tags, final TransportCounters counters,
        final String name, final String description, final ToLongFunction<TransportCounters> value)
    {
        FunctionCounter.builder("pfabric.host." + name, counters, value::applyAsLong).description(description)
            .tags(tags).register(registry);
    }
}
