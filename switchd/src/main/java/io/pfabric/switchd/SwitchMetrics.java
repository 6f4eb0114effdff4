package io.pfabric.switchd;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.pfabric.dataplane.queue.PfabricClassQueue;
import io.pfabric.dataplane.queue.QueueCounter;
import io.pfabric.dataplane.queue.QueueDiscipline;

import java.util.Locale;
import java.util.function.ToLongBiFunction;

/**
 * Mirrors a switch's counters into Micrometer on the cold side: every meter reads the data path's counters when it is
 * scraped; the data path never calls Micrometer. Queue meters follow the port's current queue, so their counts start
 * again from zero when the port's discipline is changed. A port whose queue has traffic classes
 * ({@link PfabricClassQueue}) when the meters are bound also has per-class meters, tagged {@code class} with the
 * class's index: {@code pfabric.queue.class.departed.frames}, {@code pfabric.queue.class.departed.bytes} and
 * {@code pfabric.queue.class.backlogged.bytes} (bytes sent while every class was backlogged), and
 * {@code pfabric.queue.backlogged.stretches}; they read 0 while the port's queue has no such class.
 */
public final class SwitchMetrics
{
    private SwitchMetrics()
    {
    }

    /**
     * Register the forwarder's counters, tagged with the switch, and every port's counters, queue counters and queue
     * occupancy, tagged with switch and port.
     *
     * @param daemon   the switch.
     * @param registry to register with.
     */
    public static void bind(final SwitchDaemon daemon, final MeterRegistry registry)
    {
        final SwitchPort[] ports = new SwitchPort[daemon.portCount()];
        for (int i = 0; i < ports.length; i++)
        {
            ports[i] = daemon.port(i);
        }
        bind(daemon.name(), daemon.forwarder(), ports, registry);
    }

    /**
     * Register a switch's counters from its parts, as {@link #bind(SwitchDaemon, MeterRegistry)} does.
     *
     * @param switchName the switch's name, the {@code switch} tag.
     * @param forwarder  the switch's forwarder.
     * @param ports      the switch's ports.
     * @param registry   to register with.
     */
    static void bind(
        final String switchName, final Forwarder forwarder, final SwitchPort[] ports, final MeterRegistry registry)
    {
        final Tags switchTags = Tags.of("switch", switchName);
        FunctionCounter.builder("pfabric.forwarder.duty.cycles", forwarder,
            f -> f.counters().get(ForwarderCounter.DUTY_CYCLES)).tags(switchTags).register(registry);
        Gauge.builder("pfabric.forwarder.longest.duty.cycle.gap.ns", forwarder,
            f -> f.counters().get(ForwarderCounter.LONGEST_DUTY_CYCLE_GAP_NS)).tags(switchTags).register(registry);
        for (final SwitchPort port : ports)
        {
            final Tags tags = Tags.of("switch", switchName, "port", port.name());
            for (final PortCounter counter : PortCounter.values())
            {
                FunctionCounter.builder("pfabric.port." + meterName(counter), port, p -> p.counters().get(counter))
                    .tags(tags).register(registry);
            }
            for (final QueueCounter counter : QueueCounter.values())
            {
                final String name = "pfabric.queue." + meterName(counter);
                if (QueueCounter.HIGH_WATER_BYTES == counter || QueueCounter.HIGH_WATER_PACKETS == counter)
                {
                    Gauge.builder(name, port, p -> p.queue().counters().get(counter)).tags(tags).register(registry);
                }
                else
                {
                    FunctionCounter.builder(name, port, p -> p.queue().counters().get(counter))
                        .tags(tags).register(registry);
                }
            }
            Gauge.builder("pfabric.queue.occupancy.bytes", port, p -> p.queue().byteCount())
                .tags(tags).register(registry);
            Gauge.builder("pfabric.queue.occupancy.frames", port, p -> p.queue().packetCount())
                .tags(tags).register(registry);
            if (port.queue() instanceof final PfabricClassQueue classQueue)
            {
                bindClasses(port, tags, classQueue.classes().classCount(), registry);
            }
        }
    }

    private static void bindClasses(final SwitchPort port, final Tags tags, final int classCount,
        final MeterRegistry registry)
    {
        for (int k = 0; k < classCount; k++)
        {
            final Tags classTags = tags.and("class", Integer.toString(k));
            classCounter(registry, "pfabric.queue.class.departed.frames", port, classTags, k,
                PfabricClassQueue::departedFrames);
            classCounter(registry, "pfabric.queue.class.departed.bytes", port, classTags, k,
                PfabricClassQueue::departedBytes);
            classCounter(registry, "pfabric.queue.class.backlogged.bytes", port, classTags, k,
                PfabricClassQueue::backloggedBytes);
        }
        FunctionCounter.builder("pfabric.queue.backlogged.stretches", port,
            p -> p.queue() instanceof final PfabricClassQueue q ? q.backloggedStretches() : 0).tags(tags)
            .register(registry);
    }

    private static void classCounter(final MeterRegistry registry, final String name, final SwitchPort port,
        final Tags tags, final int trafficClass, final ToLongBiFunction<PfabricClassQueue, Integer> value)
    {
        FunctionCounter.builder(name, port, p -> classValue(p.queue(), trafficClass, value)).tags(tags)
            .register(registry);
    }

    private static long classValue(final QueueDiscipline queue, final int trafficClass,
        final ToLongBiFunction<PfabricClassQueue, Integer> value)
    {
        return queue instanceof final PfabricClassQueue classQueue &&
            trafficClass < classQueue.classes().classCount() ? value.applyAsLong(classQueue, trafficClass) : 0;
    }

    private static String meterName(final Enum<?> counter)
    {
        return counter.name().toLowerCase(Locale.ROOT).replace('_', '.');
    }
}
