package io.pfabric.cli;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.pfabric.hostd.transport.FlowRecord;
import io.pfabric.hostd.transport.TransportCounters;
import org.agrona.concurrent.OneToOneConcurrentArrayQueue;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A host's flow completion times as a Prometheus histogram, {@code pfabric_host_flow_completion_seconds}, fed from
 * the FCT records the transport already makes: the host's thread only hands each finished flow's record to a
 * bounded queue ({@link #onFlowFinished}); a thread of this meter takes them every 100 ms and records the complete
 * ones. Also counts the flows that finished incomplete and the flows in flight (started, not yet finished).
 */
final class FlowCompletionMeter implements AutoCloseable
{
    private static final int QUEUE_CAPACITY = 4096;
    private static final long DRAIN_INTERVAL_MS = 100;

    private final OneToOneConcurrentArrayQueue<FlowRecord> records =
        new OneToOneConcurrentArrayQueue<>(QUEUE_CAPACITY);
    private final AtomicLong finishedFlows = new AtomicLong();
    private final AtomicLong unrecordedFlows = new AtomicLong();
    private final AtomicLong incompleteFlows = new AtomicLong();
    private final Timer completionTimes;
    private final ScheduledExecutorService drainer = Executors.newSingleThreadScheduledExecutor(runnable ->
    {
        final Thread thread = new Thread(runnable, "pfabric-fct-meter");
        thread.setDaemon(true);
        return thread;
    });

    /**
     * Register the meters and start taking records.
     *
     * @param host     the host's name, the {@code host} tag.
     * @param counters the host's transport counters, for the flows started.
     * @param registry to register with.
     */
    FlowCompletionMeter(final String host, final TransportCounters counters, final MeterRegistry registry)
    {
        final Tags tags = Tags.of("host", host);
        completionTimes = Timer.builder("pfabric.host.flow.completion")
            .description("Flow completion times of the flows this host sent, from its first packet to its last " +
                "byte acknowledged; complete flows only")
            .tags(tags)
            .publishPercentileHistogram()
            .minimumExpectedValue(Duration.ofNanos(10_000))
            .maximumExpectedValue(Duration.ofSeconds(30))
            .register(registry);
        FunctionCounter.builder("pfabric.host.flows.incomplete", incompleteFlows, AtomicLong::get)
            .description("Flows this host sent that finished without every byte acknowledged (given up or stopped)")
            .tags(tags).register(registry);
        FunctionCounter.builder("pfabric.host.flows.unmeasured", unrecordedFlows, AtomicLong::get)
            .description("Finished flows left out of the completion-time histogram because its queue was full")
            .tags(tags).register(registry);
        Gauge.builder("pfabric.host.flows.active", this, meter -> activeFlows(counters))
            .description("Flows this host is sending now: started and not yet finished")
            .tags(tags).register(registry);
        drainer.scheduleWithFixedDelay(this::drain, DRAIN_INTERVAL_MS, DRAIN_INTERVAL_MS, TimeUnit.MILLISECONDS);
    }

    /**
     * A flow finished; on the host's thread. Allocates nothing.
     *
     * @param record the flow's record.
     */
    void onFlowFinished(final FlowRecord record)
    {
        finishedFlows.lazySet(finishedFlows.get() + 1);
        if (!records.offer(record))
        {
            unrecordedFlows.lazySet(unrecordedFlows.get() + 1);
        }
    }

    private double activeFlows(final TransportCounters counters)
    {
        return Math.max(0, counters.flowsStarted() - finishedFlows.get());
    }

    private void drain()
    {
        FlowRecord record;
        while (null != (record = records.poll()))
        {
            if (record.isComplete())
            {
                completionTimes.record(record.fctNs(), TimeUnit.NANOSECONDS);
            }
            else
            {
                incompleteFlows.incrementAndGet();
            }
        }
    }

    /**
     * Stop taking records, after recording those still queued.
     */
    public void close()
    {
        drainer.shutdownNow();
        try
        {
            drainer.awaitTermination(1, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        drain();
    }
}
