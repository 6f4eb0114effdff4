package io.pfabric.sim;

/**
 * Tells a run's {@link Progress} how it is going once the wall clock has passed the next five seconds since it last
 * did, or since the run began.
 */
final class ProgressReporter
{
    private static final long INTERVAL_NS = 5_000_000_000L;

    private final Progress progress;
    private long nextReportNs = System.nanoTime() + INTERVAL_NS;

    ProgressReporter(final Progress progress)
    {
        this.progress = progress;
    }

    /**
     * Report if it is time to: as {@link Progress#onProgress}.
     */
    void check(final int completed, final int total, final long virtualNs, final long eventCount,
        final long deliveredBytes, final long totalBytes)
    {
        if (System.nanoTime() - nextReportNs >= 0)
        {
            nextReportNs = System.nanoTime() + INTERVAL_NS;
            progress.onProgress(completed, total, virtualNs, eventCount, deliveredBytes, totalBytes);
        }
    }
}
