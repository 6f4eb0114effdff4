package io.pfabric.cli;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.pfabric.common.control.ControlInbox;
import io.pfabric.controllerd.ControllerDaemon;
import io.pfabric.controllerd.session.ControllerCounters;

import java.util.function.ToLongFunction;

/**
 * The counters of controllerd as meters, for {@code --counters-file} (switchd's are {@code SwitchMetrics}, hostd's and
 * tcpd's {@code HostMetrics}).
 */
final class DaemonMetrics
{
    private DaemonMetrics()
    {
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

    private static <T> void counter(final MeterRegistry registry, final String name, final String description,
        final Tags tags, final T source, final ToLongFunction<T> value)
    {
        FunctionCounter.builder("pfabric." + name, source, value::applyAsLong).description(description).tags(tags)
            .register(registry);
    }
}
