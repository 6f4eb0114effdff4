package io.pfabric.cli;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.pfabric.common.control.ControlInbox;
import io.pfabric.controllerd.ControllerDaemon;
import io.pfabric.controllerd.session.ControllerCounters;
import io.pfabric.experiment.TcpReplay;
import io.pfabric.hostd.HostDaemon;
import io.pfabric.hostd.transport.TransportCounters;

import java.util.function.ToLongFunction;

/**
 * The counters of hostd, controllerd and tcpd as meters, for {@code --counters-file} (switchd's are
 * {@code SwitchMetrics}).
 */
final class DaemonMetrics
{
    private static final double NANOS_PER_SECOND = 1e9;

    private DaemonMetrics()
    {
    }

    /**
     * Register the host's transport counters.
     *
     * @param daemon   the host.
     * @param registry to register with.
     */
    static void bindHost(final HostDaemon daemon, final MeterRegistry registry)
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
     * Register the controller's counters and its inbox's.
     *
     * @param daemon   the controller.
     * @param registry to register with.
     */
    static void bindController(final ControllerDaemon daemon, final MeterRegistry registry)
    {
        final Tags tags = Tags.empty();
        final ControllerCounters counters = daemon.counters();
        final ControlInbox inbox = daemon.inbox();
        counter(registry, "controller.messages.accepted", "Messages accepted", tags, inbox, ControlInbox::accepted);
        counter(registry, "controller.messages.malformed", "Messages refused as malformed", tags, inbox,
            ControlInbox::malformed);
        counter(registry, "controller.messages.unauthenticated", "Messages refused as unauthenticated", tags, inbox,
            ControlInbox::unauthenticated);
        counter(registry, "controller.messages.duplicate", "Messages refused as duplicates", tags, inbox,
            ControlInbox::duplicates);
        counter(registry, "controller.messages.stale", "Messages refused as stale", tags, inbox, ControlInbox::stale);
        counter(registry, "controller.demand.entries", "Demand entries received", tags, counters,
            ControllerCounters::demandEntries);
        counter(registry, "controller.offer.entries", "Offer entries received", tags, counters,
            ControllerCounters::offerEntries);
        counter(registry, "controller.invalid.entries", "Entries refused as invalid", tags, counters,
            ControllerCounters::invalidEntries);
        counter(registry, "controller.batches.allocated", "Timeslot batches allocated", tags, counters,
            ControllerCounters::batchesAllocated);
        counter(registry, "controller.grants.allocated", "Timeslots granted", tags, counters,
            ControllerCounters::grantsAllocated);
        counter(registry, "controller.grants.sent", "Grants sent", tags, counters, ControllerCounters::grantsSent);
        counter(registry, "controller.grants.dropped.late", "Grants dropped as too late", tags, counters,
            ControllerCounters::grantsDroppedLate);
        counter(registry, "controller.heartbeats.sent", "Heartbeats sent", tags, counters,
            ControllerCounters::heartbeatsSent);
        counter(registry, "controller.normalizations", "Rate normalizations", tags, counters,
            ControllerCounters::normalizations);
        counter(registry, "controller.rate.messages.sent", "Rate messages sent", tags, counters,
            ControllerCounters::rateMessagesSent);
    }

    /**
     * Register a kernel-TCP replay's counters.
     *
     * @param host     the replaying host's name.
     * @param replay   the replay.
     * @param registry to register with.
     */
    static void bindTcp(final String host, final TcpReplay replay, final MeterRegistry registry)
    {
        final Tags tags = Tags.of("host", host);
        counter(registry, "tcp.flows.completed", "Flows completed", tags, replay, TcpReplay::completedFlows);
        counter(registry, "tcp.extra.connections", "Connections opened beyond the pool", tags, replay,
            TcpReplay::extraConnections);
    }

    private static void counter(final MeterRegistry registry, final Tags tags, final TransportCounters counters,
        final String name, final String description, final ToLongFunction<TransportCounters> value)
    {
        counter(registry, "host." + name, description, tags, counters, value);
    }

    private static <T> void counter(final MeterRegistry registry, final String name, final String description,
        final Tags tags, final T source, final ToLongFunction<T> value)
    {
        FunctionCounter.builder("pfabric." + name, source, value::applyAsLong).description(description).tags(tags)
            .register(registry);
    }
}
