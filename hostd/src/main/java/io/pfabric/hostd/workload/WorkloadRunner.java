package io.pfabric.hostd.workload;

import io.pfabric.hostd.HostDaemon;
import io.pfabric.hostd.transport.FlowRecord;
import io.pfabric.hostd.transport.TransportListener;

import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs one host's share of a workload trace: starts each of its flows at its time, logs every flow that finishes
 * (or is abandoned at stop) to the FCT log, and reports progress. The transport's listener hands finished flows to
 * this runner's thread through a bounded queue, so the log is written off the transport's thread.
 */
public final class WorkloadRunner implements TransportListener
{
    private static final long PROGRESS_INTERVAL_NS = TimeUnit.SECONDS.toNanos(5);
    private static final int RECORD_QUEUE_CAPACITY = 1 << 16;

    private final BlockingQueue<FlowRecord> finished = new ArrayBlockingQueue<>(RECORD_QUEUE_CAPACITY);
    private final String scheme;
    private final PrintStream progress;
    private volatile boolean stopping;
    private long lostRecords;

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

    /**
     * {@inheritDoc}
     */
    public void onFlowFinished(final FlowRecord record)
    {
        if (!finished.offer(record))
        {
            lostRecords++;
        }
    }

    /**
     * Ask {@link #run} to stop starting flows and return.
     */
    public void stop()
    {
        stopping = true;
    }

    /**
     * Start this host's flows of the trace at their times and log them; returns when every started flow has
     * finished (or {@link #stop()} was called, or the grace period after the last start ran out).
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
        final int self = host.hostIndex(host.host().name());
        final List<WorkloadTrace.FlowSpec> mine = flows.stream().filter(f -> f.sourceHost() == self).toList();
        final long originNs = System.nanoTime();
        long nextProgressNs = originNs + PROGRESS_INTERVAL_NS;
        long started = 0;
        long completed = 0;
        long logged = 0;
        int index = 0;
        long lastStartNs = originNs;
        while (!stopping)
        {
            final long nowNs = System.nanoTime();
            while (index < mine.size() && mine.get(index).startNs() <= nowNs - originNs)
            {
                final WorkloadTrace.FlowSpec flow = mine.get(index++);
                host.send(host.hostName(flow.destinationHost()), flow.sizeBytes());
                started++;
                lastStartNs = nowNs;
            }
            FlowRecord record;
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
        FlowRecord record;
        while (null != (record = finished.poll()))
        {
            write(host, log, record);
        }
        if (lostRecords > 0)
        {
            progress.printf(Locale.ROOT, "hostd %s: %,d flow records lost (queue full)%n", host.host().name(),
                lostRecords);
        }
        log.flush();
    }

    private void write(final HostDaemon host, final FctLogWriter log, final FlowRecord record) throws IOException
    {
        log.append(record.flowId(), host.hostName(record.sourceHost()), host.hostName(record.destinationHost()),
            record.sizeBytes(), record.startNs(), record.endNs(), record.timeouts(), record.retransmittedBytes(),
            scheme);
    }
}
