package io.pfabric.sim;

/**
 * Told how a run is going, every few seconds of wall time.
 */
@FunctionalInterface
public interface Progress
{
    /**
     * How far the run is.
     *
     * @param completed      flows completed.
     * @param total          flows in the trace.
     * @param virtualNs      virtual time.
     * @param eventCount     events processed.
     * @param deliveredBytes payload bytes that reached their receivers so far, retransmissions included: wall
     *                       time grows with bytes carried, so this against the total tells how far the run is
     *                       better than flows completed (the last flows to complete are the large ones).
     * @param totalBytes     bytes of all flows in the trace.
     */
    void onProgress(int completed, int total, long virtualNs, long eventCount, long deliveredBytes,
        long totalBytes);
}
