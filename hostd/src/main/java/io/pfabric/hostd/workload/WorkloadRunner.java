package io.pfabric.hostd.workload;

import io.pfabric.hostd.HostDaemon;
import io.pfabric.hostd.transport.FlowRecord;
import io.pfabric.hostd.transport.IncompleteFlowException;

import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs one host's share of a workload trace: starts each of its flows at its time, logs every flow that finishes
 * (or is abandoned at stop) to the FCT log under the trace's flow id, so that the logs of different schemes replaying
 * one trace match flow by flow, and reports progress. Each flow's completion hands its record to this runner's
 * thread through a bounded queue, so the log is written off the transport's thread.
 */
public final class WorkloadRunner
{
    private static final long PROGRESS_INTERVAL_NS = TimeUnit.SECONDS.toNanos(5);
    private static final int RECORD_QUEUE_CAPACITY = 1 << 16;

    private record Finished(WorkloadTrace.FlowSpec flow, long startNs, FlowRecord record)
    {
        boolean isComplete()
        {
            return null != record && record.isComplete();
        }
    }

    private final BlockingQueue<Finished> finished = new ArrayBlockingQueue<>(RECORD_QUEUE_CAPACITY);
    private final AtomicLong finishedCount = new AtomicLong();
    private final String scheme;
    private final PrintStream progress;
    private volatile boolean stopping;
    private final AtomicLong lostRecords = new AtomicLong();

    /**
     * A runner.
     *
     * @param scheme   written in every row of the log, e.g. pfabric.
     * @param progress where to report.
     */
    public WorkloadRunner(final String scheme, final PrintStream progress)
    {
        this.scheme = scheme;
        this.progress = progress;
    }

    private void onFinished(final WorkloadTrace.FlowSpec flow, final long startNs, final FlowRecord record,
        final Throwable error)
    {
        final FlowRecord result = null != record ? record :
            error instanceof IncompleteFlowException incomplete ? incomplete.record() : null;
        finishedCount.incrementAndGet();
        if (!finished.offer(new Finished(flow, startNs, result)))
        {
            lostRecords.incrementAndGet();
        }
    }

    /**
     * Flows of this host finished so far, complete or not, for progress reports from another thread.
     *
     * @return the count.
     */
    public long finishedFlows()
    {
        return finishedCount.get();
    }

    /**
     * Ask {@link #run} to stop starting flows and return.
     */
    public void stop()
    {
        stopping = true;
    }

    /**
     * {@link #run(HostDaemon, List, FctLogWriter, long, long)} with the trace's time 0 now.
     *
     * @param host     the running host.
     * @param flows    the whole trace; only this host's flows are started.
     * @param log      the FCT log.
     * @param graceNs  how long to wait for flows still in flight after the last start.
     * @return flows of this host that completed.
     * @throws IOException if the log cannot be written.
     */
    public long run(final HostDaemon host, final List<WorkloadTrace.FlowSpec> flows, final FctLogWriter log,
        final long graceNs) throws IOException
    {
        return run(host, flows, log, graceNs, System.nanoTime());
    }

    /**
     * Start this host's flows of the trace at their times and log them; returns when every started flow has
     * finished (or {@link #stop()} was called, or the grace period after the last start ran out).
     *
     * @param host     the running host.
     * @param flows    the whole trace; only this host's flows are started.
     * @param log      the FCT log.
     * @param graceNs  how long to wait for flows still in flight after the last start.
     * @param originNs the {@link System#nanoTime()} at which the trace's time 0 falls (the same for every host of
     *                 one run, so that their flows start as the trace says relative to each other).
     * @return flows of this host that completed.
     * @throws IOException if the log cannot be written.
     */
    public long run(final HostDaemon host, final List<WorkloadTrace.FlowSpec> flows, final FctLogWriter log,
        final long graceNs, final long originNs) throws IOException
    {
        final int self = host.hostIndex(host.host().name());
        final List<WorkloadTrace.FlowSpec> mine = flows.stream().filter(f -> f.sourceHost() == self).toList();
        long nextProgressNs = originNs + PROGRESS_INTERVAL_NS;
        long started = 0;
        long completed = 0;
        long logged = 0;
        int index = 0;
        long lastStartNs = originNs;
        host.deadlineEpochNs(originNs);
        while (!stopping)
        {
            final long nowNs = System.nanoTime();
            while (index < mine.size() && mine.get(index).startNs() <= nowNs - originNs)
            {
                final WorkloadTrace.FlowSpec flow = mine.get(index++);
                host.send(host.hostName(flow.destinationHost()), flow.sizeBytes(), flow.dscp(), flow.deadlineNs())
                    .whenComplete((record, error) -> onFinished(flow, nowNs, record, error));
                started++;
                lastStartNs = nowNs;
            }
            Finished record;
            while (null != (record = finished.poll()))
            {
                write(host, log, record);
                logged++;
                completed += record.isComplete() ? 1 : 0;
            }
            if (nowNs - nextProgressNs >= 0)
            {
                nextProgressNs = nowNs + PROGRESS_INTERVAL_NS;
                progress.printf(Locale.ROOT, "hostd %s: %.0f s, %,d of %,d flows started, %,d completed%n",
                    host.host().name(), (nowNs - originNs) / 1e9, started, mine.size(), completed);
                log.flush();
            }
            final boolean allStarted = index == mine.size();
            if (allStarted && logged == started)
            {
                break;
            }
            if (allStarted && nowNs - lastStartNs > graceNs)
            {
                progress.printf(Locale.ROOT, "hostd %s: %,d flows still in flight after the grace period%n",
                    host.host().name(), started - logged);
                break;
            }
            final long untilNextNs = index < mine.size() ? mine.get(index).startNs() - (nowNs - originNs) : 1_000_000;
            LockSupport.parkNanos(Math.max(10_000, Math.min(untilNextNs, 1_000_000)));
        }
        return completed;
    }

    /**
     * Log whatever finished records are still queued (after the host closed, its abandoned flows).
     *
     * @param host the host.
     * @param log  the FCT log.
     * @throws IOException if the log cannot be written.
     */
    public void drain(final HostDaemon host, final FctLogWriter log) throws IOException
    {
        Finished record;
        while (null != (record = finished.poll()))
        {
            write(host, log, record);
        }
        if (lostRecords.get() > 0)
        {
            progress.printf(Locale.ROOT, "hostd %s: %,d flow records lost (queue full)%n", host.host().name(),
                lostRecords.get());
        }
        log.flush();
    }

    private void write(final HostDaemon host, final FctLogWriter log, final Finished finished) throws IOException
    {
        final WorkloadTrace.FlowSpec flow = finished.flow();
        final FlowRecord record = finished.record();
        if (null == record)
        {
            log.append(flow.flowIndex(), host.hostName(flow.sourceHost()), host.hostName(flow.destinationHost()),
                flow.sizeBytes(), finished.startNs(), -1, 0, 0, scheme, flow.dscp(), flow.deadlineNs());
            return;
        }
        log.append(flow.flowIndex(), host.hostName(record.sourceHost()), host.hostName(record.destinationHost()),
            record.sizeBytes(), record.startNs(), record.endNs(), record.timeouts(), record.retransmittedBytes(),
            scheme, flow.dscp(), flow.deadlineNs());
    }
}
