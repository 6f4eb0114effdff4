package io.pfabric.hostd.transport;

/**
 * The transport's settings, with the pFabric paper's values as defaults (10 Gb/s hosts, 14.68 µs base RTT).
 *
 * @param segmentLength             payload bytes per data packet (the MSS), 1 to 65,000; 1460 by default.
 * @param initialWindowPackets      congestion window of a new flow, about one bandwidth-delay product; 12.
 * @param maxWindowPackets          cap of the congestion window, the switch buffer in packets less one; 23.
 * @param timeoutNs                 the fixed retransmission timeout, about 3 base RTTs; 45 µs.
 * @param probeAfterTimeouts        consecutive timeouts after which the flow only sends probes; 5.
 * @param lineRate                  no window at all (the LineRate variant): every segment goes out at once.
 * @param priorityPolicy            what a data packet's priority says.
 * @param segmentsPerAck            1, the paper's rule: every data packet is acknowledged at once. N > 1 (an option,
 *                                  not pFabric's): an in-order data packet of a flow not yet complete may wait to be
 *                                  acknowledged together with later ones, until N are unacknowledged or the packets
 *                                  the host has taken from its I/O so far are handled (the end of the receive batch);
 *                                  a packet out of order, a duplicate, a probe and a flow's last packet are
 *                                  acknowledged at once. No timer delays an ACK.
 */
public record TransportConfiguration(
    int segmentLength,
    int initialWindowPackets,
    int maxWindowPackets,
    long timeoutNs,
    int probeAfterTimeouts,
    boolean lineRate,
    PriorityPolicy priorityPolicy,
    int segmentsPerAck)
{
    /**
     * Most data packets one ACK may answer with {@link #segmentsPerAck()}.
     */
    public static final int MAX_SEGMENTS_PER_ACK = 64;

    /**
     * Payload bytes per data packet in the pFabric simulations (1500 bytes on the wire with 40 bytes of headers).
     */
    public static final int DEFAULT_SEGMENT_LENGTH = 1460;

    /**
     * Bytes on the wire that the window and the bandwidth-delay product count per full packet.
     */
    public static final int FULL_PACKET_WIRE_LENGTH = 1500;

    /**
     * The shortest timeout {@link #forEmulatedFabric} gives on a kernel of 1 ms ticks: Linux's default base slice for a
     * fair-scheduled thread on a 2-core machine (0.75 ms times one plus the base-2 logarithm of the core count), the
     * longest a runnable data-path thread waits for a core that another runnable thread holds.
     */
    public static final long EMULATED_MIN_TIMEOUT_NS = 1_500_000;

    /**
     * The shortest timeout {@link #forEmulatedFabric} gives, in scheduler ticks: the kernel ends a slice only at a tick,
     * so with long ticks a thread waits for its core for up to one tick per thread ahead of it. At HZ=250 (4 ms ticks)
     * a lone flow's sending thread was held up to 2.6-6.4 ms at a time, and with a timeout of the buffer's drain and a
     * quarter (4.1 ms at 100 Mb/s) the lone-flow test saw a timeout in 2 of 5 runs; with two ticks (8 ms) in none of 6
     * (both with the receiver's final ACK flushed first, {@code ReceiverDemux}).
     */
    public static final int EMULATED_MIN_TIMEOUT_TICKS = 2;

    /**
     * The pFabric paper's settings.
     */
    public static final TransportConfiguration PAPER =
        new TransportConfiguration(DEFAULT_SEGMENT_LENGTH, 12, 23, 45_000, 5, false, PriorityPolicy.REMAINING_SIZE);

    /**
     * Validate.
     */
    public TransportConfiguration
    {
        if (segmentLength < 1 || segmentLength > 65_000)
        {
            throw new IllegalArgumentException("segment length must be 1 to 65,000 bytes: " + segmentLength);
        }
        if (initialWindowPackets < 1 || maxWindowPackets < initialWindowPackets)
        {
            throw new IllegalArgumentException("windows must satisfy 1 <= initial <= max: " + initialWindowPackets +
                ", " + maxWindowPackets);
        }
        if (timeoutNs <= 0)
        {
            throw new IllegalArgumentException("timeout must be positive: " + timeoutNs + " ns");
        }
        if (probeAfterTimeouts < 1)
        {
            throw new IllegalArgumentException("probe mode needs at least 1 timeout: " + probeAfterTimeouts);
        }
        if (null == priorityPolicy)
        {
            throw new IllegalArgumentException("a priority policy is required");
        }
        if (segmentsPerAck < 1 || segmentsPerAck > MAX_SEGMENTS_PER_ACK)
        {
            throw new IllegalArgumentException("segments per ACK must be 1 to " + MAX_SEGMENTS_PER_ACK + ": " +
                segmentsPerAck);
        }
    }

    /**
     * Settings that acknowledge every data packet at once, as pFabric does.
     *
     * @param segmentLength        payload bytes per data packet.
     * @param initialWindowPackets congestion window of a new flow.
     * @param maxWindowPackets     cap of the congestion window.
     * @param timeoutNs            the fixed retransmission timeout.
     * @param probeAfterTimeouts   consecutive timeouts after which the flow only sends probes.
     * @param lineRate             no window at all.
     * @param priorityPolicy       what a data packet's priority says.
     */
    public TransportConfiguration(
        final int segmentLength,
        final int initialWindowPackets,
        final int maxWindowPackets,
        final long timeoutNs,
        final int probeAfterTimeouts,
        final boolean lineRate,
        final PriorityPolicy priorityPolicy)
    {
        this(segmentLength, initialWindowPackets, maxWindowPackets, timeoutNs, probeAfterTimeouts, lineRate,
            priorityPolicy, 1);
    }

    /**
     * Settings for a fabric of a given host rate and base RTT, as the paper derives them: the initial window is the
     * bandwidth-delay product in full packets (rounded up), the cap is the switch buffer in full packets less one,
     * and the timeout is three base RTTs. Where the bandwidth-delay product exceeds the buffer (an emulated fabric
     * whose round trip is mostly the hosts' wake-ups) the cap is raised to it, so that a lone flow can fill its link;
     * on the paper's fabric (12 packets, 36 KB buffers) the cap is the paper's 23.
     *
     * @param rateBitsPerSec      host link rate.
     * @param baseRttNs           round trip of a full packet and its ACK on the idle fabric.
     * @param switchBufferLength  bytes of buffer per switch port (36,000 for pFabric).
     * @return the settings, remaining-size priorities, windowed.
     */
    public static TransportConfiguration forFabric(
        final long rateBitsPerSec, final long baseRttNs, final long switchBufferLength)
    {
        if (rateBitsPerSec <= 0 || baseRttNs <= 0 || switchBufferLength < 2L * FULL_PACKET_WIRE_LENGTH)
        {
            throw new IllegalArgumentException("need a positive rate and RTT and a buffer of at least two packets");
        }
        final double bdpBytes = rateBitsPerSec / 8.0 * baseRttNs / 1e9;
        final long bdpPackets = (long)Math.ceil(bdpBytes / FULL_PACKET_WIRE_LENGTH);
        final int maxWindow = (int)Math.min(Integer.MAX_VALUE,
            Math.max(switchBufferLength / FULL_PACKET_WIRE_LENGTH - 1, bdpPackets));
        final int initialWindow = (int)Math.max(1, Math.min(maxWindow, bdpPackets));
        return new TransportConfiguration(DEFAULT_SEGMENT_LENGTH, initialWindow, maxWindow, 3 * baseRttNs, 5, false,
            PriorityPolicy.REMAINING_SIZE);
    }

    /**
     * Settings for an emulated fabric (namespaces, Mininet, loopback) of a given host rate and measured base RTT: those
     * of {@link #forFabric}, except that the timeout also covers a full switch buffer draining at the link rate, and a
     * quarter more. On the paper's fabric three base RTTs did both: 45 us covers 14.7 us of base RTT and the 28.8 us in
     * which 36 KB drain at 10 Gb/s. On an emulated one an idle link passes a lone frame without its time on the wire,
     * so the base RTT that one-segment flows measure is mostly the time threads take to wake (79-87 us at 100 Mb/s,
     * where a full frame alone takes 122 us per hop): three of them are shorter than the round trip of a packet that
     * waits behind a few others at the switch, and a lone flow that queues a window's worth there, as a flow at line
     * rate does, timed out again and again (issue 33). Spurious timeouts cost a pFabric flow most: each resends
     * everything in flight.
     * <p>
     * The timeout is also never shorter than {@link #EMULATED_MIN_TIMEOUT_NS}, a scheduler slice: an emulated fabric's
     * hosts and switches share the machine's cores, and a thread that another runnable thread has taken the core from
     * waits out that thread's slice, ACKs and all. At 1 Gb/s the rule above gives 0.5-1.1 ms, and a lone flow timed
     * out 3 to 35 times in ten 10 MB flows with no frame lost; with this floor 0 to 6 times (hostd's README). Where the
     * kernel's tick is longer than a millisecond the floor is {@link #EMULATED_MIN_TIMEOUT_TICKS} ticks.
     *
     * @param rateBitsPerSec      host link rate.
     * @param baseRttNs           measured round trip of a full packet and its ACK on the idle fabric.
     * @param switchBufferLength  bytes of buffer per switch port (36,000 for pFabric).
     * @param schedulerTickNs     the kernel's scheduler tick ({@code SchedulerTick.periodNs()} in {@code common}).
     * @return the settings, remaining-size priorities, windowed.
     */
    public static TransportConfiguration forEmulatedFabric(
        final long rateBitsPerSec, final long baseRttNs, final long switchBufferLength, final long schedulerTickNs)
    {
        final TransportConfiguration paper = forFabric(rateBitsPerSec, baseRttNs, switchBufferLength);
        final long drainNs = switchBufferLength * 8 * 1_000_000_000L / rateBitsPerSec;
        final long floorNs = Math.max(EMULATED_MIN_TIMEOUT_NS, EMULATED_MIN_TIMEOUT_TICKS * schedulerTickNs);
        return paper.withTimeoutNs(Math.max(floorNs, Math.max(paper.timeoutNs(), baseRttNs + drainNs + drainNs / 4)));
    }

    /**
     * The same settings in the LineRate variant.
     *
     * @return a copy with no window.
     */
    public TransportConfiguration withLineRate()
    {
        return new TransportConfiguration(segmentLength, initialWindowPackets, maxWindowPackets, timeoutNs,
            probeAfterTimeouts, true, priorityPolicy, segmentsPerAck);
    }

    /**
     * The same settings with another priority policy.
     *
     * @param policy what priorities say.
     * @return a copy.
     */
    public TransportConfiguration withPriorityPolicy(final PriorityPolicy policy)
    {
        return new TransportConfiguration(segmentLength, initialWindowPackets, maxWindowPackets, timeoutNs,
            probeAfterTimeouts, lineRate, policy, segmentsPerAck);
    }

    /**
     * The same settings with another segment length, for packets that must fit an I/O's largest packet.
     *
     * @param newSegmentLength payload bytes per data packet.
     * @return a copy.
     */
    public TransportConfiguration withSegmentLength(final int newSegmentLength)
    {
        return new TransportConfiguration(newSegmentLength, initialWindowPackets, maxWindowPackets, timeoutNs,
            probeAfterTimeouts, lineRate, priorityPolicy, segmentsPerAck);
    }

    /**
     * The same settings with another timeout.
     *
     * @param newTimeoutNs the fixed retransmission timeout.
     * @return a copy.
     */
    public TransportConfiguration withTimeoutNs(final long newTimeoutNs)
    {
        return new TransportConfiguration(segmentLength, initialWindowPackets, maxWindowPackets, newTimeoutNs,
            probeAfterTimeouts, lineRate, priorityPolicy, segmentsPerAck);
    }

    /**
     * The same settings with ACKs coalesced, or with every packet acknowledged at once (1).
     *
     * @param newSegmentsPerAck most data packets one ACK answers, see {@link #segmentsPerAck()}.
     * @return a copy.
     */
    public TransportConfiguration withSegmentsPerAck(final int newSegmentsPerAck)
    {
        return new TransportConfiguration(segmentLength, initialWindowPackets, maxWindowPackets, timeoutNs,
            probeAfterTimeouts, lineRate, priorityPolicy, newSegmentsPerAck);
    }
}
