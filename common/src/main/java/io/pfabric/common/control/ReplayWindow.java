package io.pfabric.common.control;

/**
 * Accepts each (epoch, sequence) of one sender at most once: a newer epoch (the sender restarted) starts the window
 * afresh; within an epoch a sequence number is accepted if it is newer than any seen, or one of the 64 before the
 * newest that has not been seen yet (so reordering within that span is tolerated).
 */
public final class ReplayWindow
{
    /**
     * What became of a message.
     */
    public enum Verdict
    {
        /**
         * First sight of this sequence number: accept.
         */
        ACCEPTED,

        /**
         * Seen already.
         */
        DUPLICATE,

        /**
         * From an earlier epoch, or older than the window.
         */
        STALE
    }

    /**
     * Sequence numbers behind the newest that are still accepted.
     */
    public static final int WINDOW = 64;

    private boolean started;
    private boolean newestAccepted;
    private long epochNs;
    private long newest;
    private long seen;

    /**
     * Judge a message and remember it if accepted.
     *
     * @param messageEpochNs the sender's epoch.
     * @param sequence       the message's sequence number.
     * @return the verdict.
     */
    public Verdict accept(final long messageEpochNs, final long sequence)
    {
        newestAccepted = false;
        if (!started || messageEpochNs > epochNs)
        {
            started = true;
            newestAccepted = true;
            epochNs = messageEpochNs;
            newest = sequence;
            seen = 1;
            return Verdict.ACCEPTED;
        }
        if (messageEpochNs < epochNs)
        {
            return Verdict.STALE;
        }
        if (sequence > newest)
        {
            final long shift = sequence - newest;
            seen = shift >= WINDOW ? 1 : (seen << shift) | 1;
            newest = sequence;
            newestAccepted = true;
            return Verdict.ACCEPTED;
        }
        final long behind = newest - sequence;
        if (behind >= WINDOW)
        {
            return Verdict.STALE;
        }
        final long bit = 1L << behind;
        if (0 != (seen & bit))
        {
            return Verdict.DUPLICATE;
        }
        seen |= bit;
        return Verdict.ACCEPTED;
    }

    /**
     * Whether the message last judged was accepted as the newest of its sender so far, rather than a late one
     * that overtook it. Absolute values (rates) are applied only from the newest.
     *
     * @return true if it was the newest.
     */
    public boolean newestAccepted()
    {
        return newestAccepted;
    }

    /**
     * The epoch of the newest accepted message.
     *
     * @return ns since the Unix epoch, or 0 before any.
     */
    public long epochNs()
    {
        return epochNs;
    }
}
