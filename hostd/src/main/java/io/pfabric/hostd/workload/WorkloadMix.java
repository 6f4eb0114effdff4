package io.pfabric.hostd.workload;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Several applications on one fabric, each with its own flow sizes, load and DSCP: every application's flows are
 * generated as {@link WorkloadTrace#generate} generates a workload's, on its own seed, marked with its DSCP, and the
 * traces are merged by start time and numbered again in that order. The loads add on every access link. The first
 * application draws from the mix's seed itself, so a mix of one application is the trace of its workload and load.
 */
public final class WorkloadMix
{
    private static final long APP_SEED_STRIDE = 0x9E37_79B9_7F4A_7C15L;
    private static final String DSCP_PREFIX = "dscp=";

    /**
     * One application of a mix.
     *
     * @param workload its name as given, {@code websearch}, {@code datamining} or a CDF file.
     * @param sizes    its flow sizes.
     * @param load     its offered load per access link, in (0, 1].
     * @param dscp     the DSCP of its flows' packets, 0 to 63.
     */
    public record App(String workload, FlowSizeDistribution sizes, double load, int dscp)
    {
        /**
         * An application, checked.
         *
         * @param workload its name as given.
         * @param sizes    its flow sizes.
         * @param load     its offered load per access link, in (0, 1].
         * @param dscp     the DSCP of its flows' packets, 0 to 63.
         */
        public App
        {
            if (!(load > 0 && load <= 1))
            {
                throw new IllegalArgumentException("an application's load must be in (0, 1]: " + load);
            }
            if (dscp < 0 || dscp > 63)
            {
                throw new IllegalArgumentException("a DSCP is 0 to 63: " + dscp);
            }
        }

        /**
         * Parse {@code WORKLOAD:LOAD} or {@code WORKLOAD:LOAD:dscp=D}, such as {@code websearch:0.6:dscp=0}; the
         * workload is a bundled name or a CDF file's path (which may itself hold a colon), the DSCP 0 if not given.
         *
         * @param spec the application.
         * @return it, with its distribution loaded.
         * @throws IOException              if the workload's file cannot be read.
         * @throws IllegalArgumentException if the spec does not parse or the workload does not exist.
         */
        public static App parse(final String spec) throws IOException
        {
            String rest = spec.trim();
            int dscp = 0;
            final int lastColon = rest.lastIndexOf(':');
            if (lastColon >= 0 && rest.substring(lastColon + 1).startsWith(DSCP_PREFIX))
            {
                try
                {
                    dscp = Integer.parseInt(rest.substring(lastColon + 1 + DSCP_PREFIX.length()));
                }
                catch (final NumberFormatException ex)
                {
                    throw invalid(spec);
                }
                rest = rest.substring(0, lastColon);
            }
            final int loadColon = rest.lastIndexOf(':');
            if (loadColon <= 0)
            {
                throw invalid(spec);
            }
            final double load;
            try
            {
                load = Double.parseDouble(rest.substring(loadColon + 1));
            }
            catch (final NumberFormatException ex)
            {
                throw invalid(spec);
            }
            if (!(load > 0 && load <= 1) || dscp < 0 || dscp > 63)
            {
                throw invalid(spec);
            }
            final String workload = rest.substring(0, loadColon);
            return new App(workload, FlowSizeDistribution.load(workload), load, dscp);
        }

        private static IllegalArgumentException invalid(final String spec)
        {
            return new IllegalArgumentException("application '" + spec + "' is not WORKLOAD:LOAD[:dscp=D] with a " +
                "load in (0, 1] and a DSCP of 0 to 63, as in websearch:0.6:dscp=8");
        }
    }

    private WorkloadMix()
    {
    }

    /**
     * Generate every application's flows that start within a duration (at most a number of flows each) and merge
     * them by start time; among equal starts, the earlier application's flows first, each application's in its
     * own order. Flow indexes are positions in the merged trace.
     *
     * @param hostCount          number of hosts, at least 2.
     * @param linkRateBitsPerSec access link rate.
     * @param apps               the applications, at least one.
     * @param seed               makes the trace repeatable.
     * @param maxFlowsPerApp     stop an application after this many flows; 0 for no limit.
     * @param durationNs         only flows starting before this; 0 for no limit (then give a number of flows).
     * @return the flows in order of start time, each marked with its application's DSCP.
     */
    public static List<WorkloadTrace.FlowSpec> generate(
        final int hostCount,
        final long linkRateBitsPerSec,
        final List<App> apps,
        final long seed,
        final long maxFlowsPerApp,
        final long durationNs)
    {
        if (apps.isEmpty())
        {
            throw new IllegalArgumentException("a mix needs at least one application");
        }
        final List<WorkloadTrace.FlowSpec> merged = new ArrayList<>();
        for (int i = 0; i < apps.size(); i++)
        {
            final App app = apps.get(i);
            for (final WorkloadTrace.FlowSpec flow : WorkloadTrace.generate(hostCount, app.load(),
                linkRateBitsPerSec, app.sizes(), appSeed(seed, i), maxFlowsPerApp, durationNs))
            {
                merged.add(new WorkloadTrace.FlowSpec(flow.flowIndex(), flow.sourceHost(), flow.destinationHost(),
                    flow.sizeBytes(), flow.startNs(), app.dscp()));
            }
        }
        merged.sort(Comparator.comparingLong(WorkloadTrace.FlowSpec::startNs));
        final List<WorkloadTrace.FlowSpec> numbered = new ArrayList<>(merged.size());
        for (final WorkloadTrace.FlowSpec flow : merged)
        {
            numbered.add(new WorkloadTrace.FlowSpec(numbered.size(), flow.sourceHost(), flow.destinationHost(),
                flow.sizeBytes(), flow.startNs(), flow.dscp()));
        }
        return numbered;
    }

    /**
     * The total offered load of a mix on each access link.
     *
     * @param apps the applications.
     * @return the sum of their loads, above 1 for an overloaded fabric.
     */
    public static double totalLoad(final List<App> apps)
    {
        double total = 0;
        for (final App app : apps)
        {
            total += app.load();
        }
        return total;
    }

    /**
     * The seed an application of a mix draws its flows from: the mix's own for the first.
     *
     * @param seed  the mix's seed.
     * @param index the application's position in the mix.
     * @return its seed.
     */
    public static long appSeed(final long seed, final int index)
    {
        return seed + index * APP_SEED_STRIDE;
    }
}
