package io.pfabric.dataplane.pacer;

/**
 * Makes a port a link of a given rate: a frame is released only when the previous one has left the wire, counting
 * each frame as its length (padded to the 60-byte minimum) plus 24 bytes of FCS, preamble and inter-frame gap.
 * <p>
 * The pacer keeps a departure clock that advances by each frame's exact wire time, with the fraction of a
 * nanosecond carried, so the long-run rate is the configured one. An owner that polls late may release the next
 * frame early to catch up, but never more than {@code burstFrames} frames back to back; time the port spent idle is
 * not banked beyond that. Pure: the caller supplies the time.
 */
public final class EgressPacer
{
    /**
     * Bytes on the wire besides the frame itself: 4 FCS, 8 preamble and start delimiter, 12 inter-frame gap.
     */
    public static final int WIRE_OVERHEAD_LENGTH = 24;

    /**
     * Frames shorter than this (without FCS) are padded to it on the wire.
     */
    public static final int MIN_WIRE_FRAME_LENGTH = 60;

    /**
     * Default number of frames that may leave back to back when catching up.
     */
    public static final int DEFAULT_BURST_FRAMES = 2;

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private long rateBitsPerSec;
    private final int burstFrames;
    private long nextDepartureNs;
    private long remainderBitNanos;
    private boolean started;

    /**
     * A pacer at a rate, allowing catch-up bursts of {@link #DEFAULT_BURST_FRAMES}.
     *
     * @param rateBitsPerSec line rate in bits per second.
     */
    public EgressPacer(final long rateBitsPerSec)
    {
        this(rateBitsPerSec, DEFAULT_BURST_FRAMES);
    }

    /**
     * A pacer.
     *
     * @param rateBitsPerSec line rate in bits per second.
     * @param burstFrames    most frames that may leave back to back when catching up, at least 1.
     */
    public EgressPacer(final long rateBitsPerSec, final int burstFrames)
    {
        if (burstFrames < 1)
        {
            throw new IllegalArgumentException("burstFrames must be at least 1: " + burstFrames);
        }
        this.burstFrames = burstFrames;
        rate(rateBitsPerSec);
    }

    /**
     * Change the line rate; the frame on the wire keeps its departure time.
     *
     * @param rateBitsPerSec line rate in bits per second, from 1 kb/s to 1 Tb/s.
     * @return this for a fluent API.
     */
    public EgressPacer rate(final long rateBitsPerSec)
    {
        if (rateBitsPerSec < 1_000 || rateBitsPerSec > 1_000_000_000_000L)
        {
            throw new IllegalArgumentException("rate must be between 1 kb/s and 1 Tb/s: " + rateBitsPerSec);
        }
        this.rateBitsPerSec = rateBitsPerSec;
        remainderBitNanos = 0;
        return this;
    }

    /**
     * The line rate.
     *
     * @return bits per second.
     */
    public long rateBitsPerSec()
    {
        return rateBitsPerSec;
    }

    /**
     * Whether a frame may be released now.
     *
     * @param nowNs current time.
     * @return true if the wire is free.
     */
    public boolean mayRelease(final long nowNs)
    {
        return !started || nextDepartureNs - nowNs <= 0;
    }

    /**
     * When the wire is next free; meaningful after the first release.
     *
     * @return the time in nanoseconds.
     */
    public long nextDepartureNs()
    {
        return nextDepartureNs;
    }

    /**
     * Account for a frame released now. Call only when {@link #mayRelease(long)} says so.
     *
     * @param nowNs       current time.
     * @param frameLength of the released frame, without FCS.
     */
    public void onRelease(final long nowNs, final int frameLength)
    {
        onBackloggedRelease(nowNs, frameLength, nowNs);
    }

    private void advance(final long earliestStartNs, final long wireBits)
    {
        if (!started || nextDepartureNs - earliestStartNs < 0)
        {
            started = true;
            nextDepartureNs = earliestStartNs;
            remainderBitNanos = 0;
        }
        final long bitNanos = remainderBitNanos + wireBits * NANOS_PER_SECOND;
        nextDepartureNs += bitNanos / rateBitsPerSec;
        remainderBitNanos = bitNanos % rateBitsPerSec;
    }

    /**
     * Account for a frame released now from a queue that has held frames since {@code backlogStartNs}: it starts when
     * the previous frame left the wire or when the backlog began, whichever is later. A link with frames waiting never
     * idles, so time the owner polled late while frames waited is made up by releasing frames back to back until the
     * departure clock reaches now again; time the port spent idle is still banked only as far as the burst allows.
     * Call only when {@link #mayRelease(long)} says so.
     *
     * @param nowNs          current time.
     * @param frameLength    of the released frame, without FCS.
     * @param backlogStartNs when the queue last went from empty to holding a frame, at most {@code nowNs}.
     */
    public void onBackloggedRelease(final long nowNs, final int frameLength, final long backlogStartNs)
    {
        final long wireBits = 8L * (Math.max(frameLength, MIN_WIRE_FRAME_LENGTH) + WIRE_OVERHEAD_LENGTH);
        final long burstStartNs = nowNs - (burstFrames - 1) * wireTimeNs(wireBits);
        advance(burstStartNs - backlogStartNs < 0 ? burstStartNs : backlogStartNs, wireBits);
    }

    /**
     * Wire time of a frame at the current rate, rounded down.
     *
     * @param frameLength without FCS.
     * @return nanoseconds.
     */
    public long wireTimeNs(final int frameLength)
    {
        return wireTimeNs(8L * (Math.max(frameLength, MIN_WIRE_FRAME_LENGTH) + WIRE_OVERHEAD_LENGTH));
    }

    private long wireTimeNs(final long wireBits)
    {
        return wireBits * NANOS_PER_SECOND / rateBitsPerSec;
    }
}
