package io.pfabric.hostd.workload;

import io.pfabric.common.config.Quantities;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Deadlines as the pFabric paper gives them (§5.4.2), {@code exp:MEAN[,below=SIZE]}: every flow smaller than SIZE
 * (200 KB unless given) gets a deadline drawn from an exponential distribution of mean MEAN, but at least 1.25 times
 * the flow's minimum FCT on the idle fabric (its path's base RTT and its further segments at the access rate, what
 * normalized FCT divides by); the larger flows have none. The draws come from the seed and the flows' order alone, so
 * every host that generated the same trace gives its flows the same deadlines.
 *
 * @param meanNs     mean of the exponential distribution, positive.
 * @param belowBytes flows of fewer bytes get a deadline, positive.
 */
public record DeadlineSpec(long meanNs, long belowBytes)
{
    /**
     * The option that takes a spec, which every error names.
     */
    public static final String OPTION = "--deadlines";

    /**
     * The size below which flows get a deadline unless the spec says otherwise: the paper's 200 KB.
     */
    public static final long DEFAULT_BELOW_BYTES = 200_000;

    /**
     * How much longer than the flow's minimum FCT a deadline is at least.
     */
    public static final double MIN_SLACK = 1.25;

    private static final long DEADLINE_SEED_MIX = 0x5EED_DEAD_0000_0001L;

    /**
     * The base RTT of a path, which the minimum FCT starts from.
     */
    @FunctionalInterface
    public interface PathRtt
    {
        /**
         * The idle fabric's round trip of one full segment and its ACK.
         *
         * @param sourceHost      sending host index.
         * @param destinationHost receiving host index.
         * @return nanoseconds.
         */
        long baseRttNs(int sourceHost, int destinationHost);
    }

    /**
     * A spec's values must be positive.
     */
    public DeadlineSpec
    {
        if (meanNs <= 0)
        {
            throw new IllegalArgumentException(OPTION + ": the mean deadline must be positive, not " + meanNs + " ns");
        }
        if (belowBytes <= 0)
        {
            throw new IllegalArgumentException(OPTION + ": below= must be a positive size, not " + belowBytes);
        }
    }

    /**
     * Parse {@code exp:MEAN[,below=SIZE]}, e.g. {@code exp:1ms} or {@code exp:500us,below=100KB}.
     *
     * @param text the spec.
     * @return it.
     * @throws IllegalArgumentException naming {@link #OPTION} if it does not parse or a value is not positive.
     */
    public static DeadlineSpec parse(final String text)
    {
        final String trimmed = null == text ? "" : text.trim();
        if (!trimmed.startsWith("exp:"))
        {
            throw new IllegalArgumentException(OPTION + " takes exp:MEAN[,below=SIZE], e.g. exp:1ms, not '" + text +
                "'");
        }
        final String[] parts = trimmed.substring("exp:".length()).split(",", -1);
        final long meanNs = quantity(parts[0], true, text);
        long belowBytes = DEFAULT_BELOW_BYTES;
        for (int i = 1; i < parts.length; i++)
        {
            final String part = parts[i].trim();
            if (!part.startsWith("below="))
            {
                throw new IllegalArgumentException(OPTION + " takes exp:MEAN[,below=SIZE]: '" + part + "' in '" +
                    text + "' is not below=SIZE");
            }
            belowBytes = quantity(part.substring("below=".length()), false, text);
        }
        return new DeadlineSpec(meanNs, belowBytes);
    }

    private static long quantity(final String part, final boolean duration, final String text)
    {
        final String what = duration ? "the mean deadline must be a positive duration such as 1ms" :
            "below= must be a positive size such as 200KB";
        final long value;
        try
        {
            value = duration ? Quantities.parseNanos(part) : Quantities.parseBytes(part);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(OPTION + ": " + what + ", not '" + part.trim() + "' in '" + text +
                "'", ex);
        }
        if (value <= 0)
        {
            throw new IllegalArgumentException(OPTION + ": " + what + ", not '" + part.trim() + "' in '" + text +
                "'");
        }
        return value;
    }

    /**
     * The spec as it is written.
     *
     * @return such as {@code exp:1000000ns,below=200000B}.
     */
    @Override
    public String toString()
    {
        return "exp:" + meanNs + "ns,below=" + belowBytes + "B";
    }

    /**
     * Whether a flow gets a deadline.
     *
     * @param sizeBytes its size.
     * @return true if it is smaller than {@link #belowBytes()}.
     */
    public boolean selects(final long sizeBytes)
    {
        return sizeBytes < belowBytes;
    }

    /**
     * Check that a distribution draws flows the spec gives deadlines: that its smallest size is below the limit.
     *
     * @param distribution the flow sizes.
     * @return this spec.
     * @throws IllegalArgumentException naming {@link #OPTION} if no flow it draws would get a deadline.
     */
    public DeadlineSpec requireSelectsFrom(final FlowSizeDistribution distribution)
    {
        final long smallestBytes = distribution.samplePackets(0.0) * FlowSizeDistribution.SEGMENT_PAYLOAD_BYTES;
        if (!selects(smallestBytes))
        {
            throw new IllegalArgumentException(OPTION + ": below=" + belowBytes + " bytes selects no flow of " +
                distribution.name() + ", whose smallest is " + smallestBytes + " bytes");
        }
        return this;
    }

    /**
     * A flow's minimum FCT on the idle fabric: its path's base RTT, then each further full segment at the access
     * rate.
     *
     * @param baseRttNs          the path's base RTT.
     * @param sizeBytes          the flow's size.
     * @param linkRateBitsPerSec the access link's rate.
     * @param segmentWireLength  bytes of wire time a full segment takes, 1,500 in the paper.
     * @return nanoseconds.
     */
    public static double minimumFctNs(final long baseRttNs, final long sizeBytes, final long linkRateBitsPerSec,
        final int segmentWireLength)
    {
        final long segments = Math.max(1, (sizeBytes + FlowSizeDistribution.SEGMENT_PAYLOAD_BYTES - 1) /
            FlowSizeDistribution.SEGMENT_PAYLOAD_BYTES);
        return baseRttNs + (segments - 1) * (segmentWireLength * 8e9 / linkRateBitsPerSec);
    }

    /**
     * Give a trace's flows their deadlines.
     *
     * @param flows              the trace, in order of start.
     * @param pathRtt            each path's base RTT.
     * @param linkRateBitsPerSec the access link's rate.
     * @param segmentWireLength  bytes of wire time a full segment takes, 1,500 in the paper.
     * @param seed               makes the draws repeatable.
     * @return the flows, in the same order, the selected ones with a deadline.
     * @throws IllegalArgumentException naming {@link #OPTION} if no flow of the trace is selected.
     */
    public List<WorkloadTrace.FlowSpec> apply(final List<WorkloadTrace.FlowSpec> flows, final PathRtt pathRtt,
        final long linkRateBitsPerSec, final int segmentWireLength, final long seed)
    {
        if (linkRateBitsPerSec <= 0 || segmentWireLength <= 0)
        {
            throw new IllegalArgumentException("the link rate and the segment length must be positive");
        }
        final SplittableRandom random = new SplittableRandom(seed ^ DEADLINE_SEED_MIX);
        final List<WorkloadTrace.FlowSpec> result = new ArrayList<>(flows.size());
        int selected = 0;
        for (final WorkloadTrace.FlowSpec flow : flows)
        {
            if (!selects(flow.sizeBytes()))
            {
                result.add(flow.withDeadline(0));
                continue;
            }
            selected++;
            final double drawnNs = -meanNs * Math.log(1 - random.nextDouble());
            final double floorNs = MIN_SLACK * minimumFctNs(pathRtt.baseRttNs(flow.sourceHost(),
                flow.destinationHost()), flow.sizeBytes(), linkRateBitsPerSec, segmentWireLength);
            result.add(flow.withDeadline(Math.max(1, (long)Math.ceil(Math.max(drawnNs, floorNs)))));
        }
        if (0 == selected && !flows.isEmpty())
        {
            throw new IllegalArgumentException(OPTION + ": no flow of the workload is smaller than below=" +
                belowBytes + " bytes, so none would have a deadline");
        }
        return result;
    }
}
