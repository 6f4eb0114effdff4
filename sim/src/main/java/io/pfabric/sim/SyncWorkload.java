package io.pfabric.sim;

import io.pfabric.hostd.transport.TransportConfiguration;
import io.pfabric.hostd.workload.WorkloadTrace;
import io.pfabric.dataplane.pacer.EgressPacer;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The sync-versus-async scenario's traffic: Poisson flow arrivals at a given load on the host links, flow sizes
 * exponential with a mean of {@value #MEAN_FLOW_BYTES} bytes, cut into packets of a {@link PacketSizeMix}.
 * <p>
 * A flow of S bytes (drawn exponential) has ceil(S / mean packet length) packets, so its bytes on the wire average
 * S whatever the mix; it is sent as that many 1460-byte transport segments, each accounted at its mix length. Load
 * counts FCS, preamble and gap: flows per second per host = load x rate / (mean packets x (mean length + 24) x 8).
 * <ul>
 * <li>uniform: each host starts flows to uniformly random other hosts.</li>
 * <li>incast: the same number of flows arrive as incast events, each a destination chosen uniformly and
 * {@code fanIn} distinct other hosts sending it one flow each at the same instant; every host link sees the load on
 * average, in bursts.</li>
 * </ul>
 * Deterministic per seed.
 */
public final class SyncWorkload
{
    /**
     * Mean flow size of the scenario.
     */
    public static final double MEAN_FLOW_BYTES = 46_000;


    /**
     * The traffic matrix.
     */
    public enum Traffic
    {
        /**
         * Uniformly random destinations.
         */
        UNIFORM,
        /**
         * Many sources to one destination at once.
         */
        INCAST;

        /**
         * @param name uniform or incast.
         * @return the pattern.
         */
        public static Traffic byName(final String name)
        {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        }

        /**
         * @return the command-line name.
         */
        public String label()
        {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private SyncWorkload()
    {
    }

    /**
     * Mean packets per flow: E[ceil(S / m)] for S exponential of mean {@value #MEAN_FLOW_BYTES} and m the mean
     * packet length.
     *
     * @param mix the packet sizes.
     * @return packets.
     */
    public static double meanPackets(final PacketSizeMix mix)
    {
        return 1.0 / (1.0 - Math.exp(-mix.meanFrameLength() / MEAN_FLOW_BYTES));
    }

    /**
     * Generate flows.
     *
     * @param hostCount          hosts.
     * @param load               offered load per host link, 0 to 1.
     * @param linkRateBitsPerSec host link rate.
     * @param mix                packet sizes.
     * @param traffic            the pattern.
     * @param fanIn              sources per incast event.
     * @param seed               the seed.
     * @param flowCount          flows to generate.
     * @return the flows in order of start time, indexed in that order; sizes are segments x 1460 bytes.
     */
    public static List<WorkloadTrace.FlowSpec> generate(final int hostCount, final double load,
        final long linkRateBitsPerSec, final PacketSizeMix mix, final Traffic traffic, final int fanIn,
        final long seed, final int flowCount)
    {
        if (hostCount < 2 || (Traffic.INCAST == traffic && (fanIn < 1 || fanIn >= hostCount)))
        {
            throw new IllegalArgumentException("need 2 hosts, and a fan-in of 1 to hosts - 1");
        }
        final double flowsPerSecPerHost = load * linkRateBitsPerSec /
            (meanPackets(mix) * (mix.meanFrameLength() + EgressPacer.WIRE_OVERHEAD_LENGTH) * 8);
        final SplittableRandom random = new SplittableRandom(seed);
        final List<long[]> raw = new ArrayList<>(flowCount);
        double nowNs = 0;
        if (Traffic.UNIFORM == traffic)
        {
            final double meanGapNs = 1e9 / (flowsPerSecPerHost * hostCount);
            while (raw.size() < flowCount)
            {
                nowNs += -Math.log(1 - random.nextDouble()) * meanGapNs;
                final int source = random.nextInt(hostCount);
                int destination = random.nextInt(hostCount - 1);
                destination += destination >= source ? 1 : 0;
                raw.add(new long[]{ (long)nowNs, source, destination, segments(random, mix) });
            }
        }
        else
        {
            final double meanGapNs = 1e9 * fanIn / (flowsPerSecPerHost * hostCount);
            final int[] others = new int[hostCount - 1];
            while (raw.size() < flowCount)
            {
                nowNs += -Math.log(1 - random.nextDouble()) * meanGapNs;
                final int destination = random.nextInt(hostCount);
                for (int h = 0, n = 0; h < hostCount; h++)
                {
                    if (h != destination)
                    {
                        others[n++] = h;
                    }
                }
                for (int i = 0; i < fanIn && raw.size() < flowCount; i++)
                {
                    final int pick = i + random.nextInt(others.length - i);
                    final int source = others[pick];
                    others[pick] = others[i];
                    others[i] = source;
                    raw.add(new long[]{ (long)nowNs, source, destination, segments(random, mix) });
                }
            }
        }
        raw.sort(Comparator.comparingLong(f -> f[0]));
        final List<WorkloadTrace.FlowSpec> flows = new ArrayList<>(raw.size());
        for (int i = 0; i < raw.size(); i++)
        {
            final long[] f = raw.get(i);
            flows.add(new WorkloadTrace.FlowSpec(i, (int)f[1], (int)f[2],
                f[3] * TransportConfiguration.DEFAULT_SEGMENT_LENGTH, f[0]));
        }
        return flows;
    }

    private static long segments(final SplittableRandom random, final PacketSizeMix mix)
    {
        final double bytes = -Math.log(1 - random.nextDouble()) * MEAN_FLOW_BYTES;
        return Math.max(1, (long)Math.ceil(bytes / mix.meanFrameLength()));
    }
}
