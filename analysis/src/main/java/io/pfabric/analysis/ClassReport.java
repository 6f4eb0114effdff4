package io.pfabric.analysis;

import io.pfabric.common.topology.TrafficClasses;
import io.pfabric.hostd.workload.FctLogReader;
import io.pfabric.hostd.workload.FctLogWriter;
import io.pfabric.hostd.workload.WorkloadMix;
import io.pfabric.hostd.workload.WorkloadTrace;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the traffic-class experiments report, in the simulator ({@code pfabric sim classes}) and on an emulated fabric
 * ({@code pfabric experiment classes}) alike: per scheme and application, the bytes it had delivered in a window and
 * their share beside its class's share of the weights, its small flows' normalized FCT beside Ideal within its class
 * ({@code classes.csv}); Ideal within each class itself; and the small flows' distributions for {@link ClassPlot}.
 */
public final class ClassReport
{
    /**
     * The header of {@code classes.csv}.
     */
    public static final String CLASSES_HEADER = "scheme,dscp,app,load,weight_share,window_start_ms," +
        "window_end_ms,delivered_bytes,throughput_share,small_count,small_mean,small_p99,ideal_class_small_mean," +
        "ideal_class_small_p99,backlogged_bytes,backlogged_share";

    /**
     * pFabric within traffic classes.
     */
    public static final String CLASSES_SCHEME = "pfabric-classes";

    /**
     * Plain pFabric, the contrast.
     */
    public static final String PLAIN_SCHEME = "pfabric";

    /**
     * Ideal over each class's flows alone, every link at the class's share of the weights of its rate.
     */
    public static final String IDEAL_CLASS_SCHEME = "ideal-class";

    /**
     * One line of {@code classes.csv}.
     *
     * @param scheme          the scheme.
     * @param app             the application.
     * @param weightShare     its class's weight over the total weight.
     * @param windowStartMs   start of the window.
     * @param windowEndMs     end of the window.
     * @param deliveredBytes  its bytes delivered in the window.
     * @param throughputShare those bytes over every application's.
     * @param small           its small flows' normalized FCT.
     * @param idealClass      the same flows' under Ideal within the class.
     * @param backloggedBytes bytes its class sent while every class was backlogged, or -1 where not counted.
     * @param backloggedShare those bytes over every class's.
     */
    public record Row(String scheme, WorkloadMix.App app, double weightShare, double windowStartMs, double windowEndMs,
        long deliveredBytes, double throughputShare, FctAnalysis.Summary small, FctAnalysis.Summary idealClass,
        long backloggedBytes, double backloggedShare)
    {
        /**
         * The line as {@link #CLASSES_HEADER} orders it.
         *
         * @return the CSV line.
         */
        public String csv()
        {
            final String backlogged = backloggedBytes < 0 ? "," :
                String.format(Locale.ROOT, "%d,%.4f", backloggedBytes, backloggedShare);
            return String.format(Locale.ROOT, "%s,%d,%s,%s,%.4f,%.3f,%.3f,%d,%.4f,%d,%.4f,%.4f,%.4f,%.4f,%s",
                scheme, app.dscp(), app.workload(), app.load(), weightShare, windowStartMs, windowEndMs,
                deliveredBytes, throughputShare, small.count(), small.mean(), small.p99(), idealClass.mean(),
                idealClass.p99(), backlogged);
        }
    }

    /**
     * The header of {@code throughput.csv}.
     */
    public static final String THROUGHPUT_HEADER = "scheme,bin_start_ms,dscp,payload_bytes,gbits_per_sec";

    /**
     * Bytes delivered per DSCP in bins of time.
     */
    @FunctionalInterface
    public interface Bins
    {
        /**
         * The bytes of a DSCP delivered in a bin.
         *
         * @param dscp the DSCP.
         * @param bin  the bin from 0.
         * @return the bytes.
         */
        long bytes(int dscp, int bin);
    }

    private ClassReport()
    {
    }

    /**
     * Bytes of a DSCP delivered in a range of bins.
     *
     * @param bins      the bins.
     * @param dscp      the DSCP.
     * @param fromBin   first bin.
     * @param toBin     bin after the last.
     * @return the bytes.
     */
    public static long bytes(final Bins bins, final int dscp, final int fromBin, final int toBin)
    {
        long sum = 0;
        for (int bin = fromBin; bin < toBin; bin++)
        {
            sum += bins.bytes(dscp, bin);
        }
        return sum;
    }

    /**
     * Write a scheme's lines of {@code throughput.csv} (after {@link #THROUGHPUT_HEADER}): per application, per bin
     * to the last, its bytes and rate; and return its series for {@link ClassPlot}, cut to the plotted bins.
     *
     * @param writer   {@code throughput.csv}.
     * @param scheme   the scheme.
     * @param apps     the applications.
     * @param bins     the scheme's bytes per DSCP and bin.
     * @param binNs    a bin's width.
     * @param lastBin  bins written.
     * @param plotBins bins plotted.
     * @return per application, its rate and share per bin.
     * @throws IOException if it cannot be written.
     */
    public static List<ClassPlot.Throughput> writeThroughput(final BufferedWriter writer, final String scheme,
        final List<WorkloadMix.App> apps, final Bins bins, final long binNs, final int lastBin, final int plotBins)
        throws IOException
    {
        final List<ClassPlot.Throughput> throughputs = new ArrayList<>();
        for (final WorkloadMix.App app : apps)
        {
            final double[] gbitsPerSec = new double[lastBin];
            final double[] share = new double[lastBin];
            for (int bin = 0; bin < lastBin; bin++)
            {
                final long binBytes = bins.bytes(app.dscp(), bin);
                long binTotal = 0;
                for (final WorkloadMix.App other : apps)
                {
                    binTotal += bins.bytes(other.dscp(), bin);
                }
                gbitsPerSec[bin] = binBytes * 8.0 / binNs;
                share[bin] = 0 == binTotal ? 0 : (double)binBytes / binTotal;
                writer.write(String.format(Locale.ROOT, "%s,%.3f,%d,%d,%.3f", scheme, bin * binNs / 1e6, app.dscp(),
                    binBytes, gbitsPerSec[bin]));
                writer.newLine();
            }
            throughputs.add(new ClassPlot.Throughput(scheme, label(app), Arrays.copyOf(gbitsPerSec, plotBins),
                Arrays.copyOf(share, plotBins)));
        }
        return throughputs;
    }

    /**
     * An application's line, its FCTs taken from the summary.
     *
     * @param scheme          the scheme.
     * @param classes         the classes.
     * @param app             the application.
     * @param windowStartMs   start of the window.
     * @param windowEndMs     end of the window.
     * @param deliveredBytes  its bytes delivered in the window.
     * @param windowBytes     every application's bytes delivered in the window.
     * @param lines           the summary, with {@code SCHEME:dscpN} lines for the scheme and for
     *                        {@link #IDEAL_CLASS_SCHEME}.
     * @param backloggedBytes bytes its class sent while every class was backlogged, or -1 where not counted.
     * @param backloggedTotal every class's such bytes.
     * @return the line.
     */
    public static Row row(final String scheme, final TrafficClasses classes, final WorkloadMix.App app,
        final double windowStartMs, final double windowEndMs, final long deliveredBytes, final long windowBytes,
        final List<ResultsTable.Line> lines, final long backloggedBytes, final long backloggedTotal)
    {
        return new Row(scheme, app, weightShare(classes, app.dscp()), windowStartMs, windowEndMs, deliveredBytes,
            (double)deliveredBytes / Math.max(1, windowBytes), small(lines, scheme, app.dscp()),
            small(lines, IDEAL_CLASS_SCHEME, app.dscp()), backloggedBytes,
            (double)Math.max(0, backloggedBytes) / Math.max(1, backloggedTotal));
    }

    /**
     * A DSCP's class's weight over the total weight.
     *
     * @param classes the classes.
     * @param dscp    0 to 63.
     * @return the share.
     */
    public static double weightShare(final TrafficClasses classes, final int dscp)
    {
        return (double)classes.weight(classes.classOf(dscp)) / classes.totalWeight();
    }

    /**
     * An application's name in plots: {@code dscp0 websearch}.
     *
     * @param app the application.
     * @return the label.
     */
    public static String label(final WorkloadMix.App app)
    {
        return "dscp" + app.dscp() + " " + app.workload();
    }

    /**
     * Write {@code classes.csv}.
     *
     * @param file where.
     * @param rows the lines.
     * @throws IOException if it cannot be written.
     */
    public static void writeCsv(final Path file, final List<Row> rows) throws IOException
    {
        try (BufferedWriter writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8))
        {
            writer.write(CLASSES_HEADER);
            writer.newLine();
            for (final Row row : rows)
            {
                writer.write(row.csv());
                writer.newLine();
            }
        }
    }

    /**
     * The small flows' summary of a scheme's DSCP, from the summary's {@code SCHEME:dscpN} lines.
     *
     * @param lines  the summary.
     * @param scheme the scheme.
     * @param dscp   the DSCP.
     * @return the small bin's summary; empty, with NaN FCTs, if there is none.
     */
    public static FctAnalysis.Summary small(final List<ResultsTable.Line> lines, final String scheme, final int dscp)
    {
        final String key = scheme + ResultsTable.DSCP_SUFFIX + dscp;
        for (final ResultsTable.Line line : lines)
        {
            if (line.scheme().equals(key) && FctAnalysis.Bin.SMALL == line.summary().bin())
            {
                return line.summary();
            }
        }
        return new FctAnalysis.Summary(FctAnalysis.Bin.SMALL, 0, 0, Double.NaN, Double.NaN, Double.NaN);
    }

    /**
     * Every application's small flows under every scheme, read from the FCT logs {@code fct-SCHEME-LABEL.csv}, for
     * {@link ClassPlot}.
     *
     * @param dir        where the logs are.
     * @param loadLabel  the logs' load label.
     * @param apps       the applications.
     * @param schemes    the schemes.
     * @param analysis   normalizes FCTs.
     * @param rtts       the hosts and their base RTTs.
     * @return per application, per scheme, the sorted normalized FCTs.
     * @throws IOException if a log cannot be read.
     */
    public static List<ClassPlot.SmallFlows> smallFlows(final Path dir, final String loadLabel,
        final List<WorkloadMix.App> apps, final List<String> schemes, final FctAnalysis analysis, final PathRtts rtts)
        throws IOException
    {
        final List<ClassPlot.SmallFlows> smallFlows = new ArrayList<>();
        for (final WorkloadMix.App app : apps)
        {
            for (final String scheme : schemes)
            {
                final List<FctLogReader.Row> log = FctLogReader.read(dir.resolve("fct-" + scheme + "-" + loadLabel +
                    ".csv"));
                smallFlows.add(new ClassPlot.SmallFlows(label(app), scheme,
                    smallFlowSlowdowns(log, app.dscp(), analysis, rtts)));
            }
        }
        return smallFlows;
    }

    /**
     * The normalized FCTs of a DSCP's completed small flows, sorted.
     *
     * @param log      an FCT log.
     * @param dscp     the DSCP.
     * @param analysis normalizes FCTs.
     * @param rtts     the hosts and their base RTTs.
     * @return the normalized FCTs, ascending.
     */
    public static double[] smallFlowSlowdowns(
        final List<FctLogReader.Row> log, final int dscp, final FctAnalysis analysis, final PathRtts rtts)
    {
        return log.stream()
            .filter(row -> row.dscp() == dscp && row.isComplete() && row.sizeBytes() <= FctAnalysis.SMALL_MAX_BYTES)
            .mapToDouble(row -> analysis.normalized(
                rtts.hostIndex(row.source()), rtts.hostIndex(row.destination()), row.sizeBytes(), row.fctNs()))
            .sorted()
            .toArray();
    }

    /**
     * Ideal within each class: the flow-level Ideal scheduler over a class's flows alone, every host link at the
     * class's share of the weights of its rate, written as one FCT log of scheme {@link #IDEAL_CLASS_SCHEME} with
     * the flows' DSCPs.
     *
     * @param classes           the classes.
     * @param trace             every flow.
     * @param names             host names by index.
     * @param rateBitsPerSec    the host links' rate.
     * @param baseRtt           the base RTT of each path.
     * @param segmentWireLength bytes of wire time a full segment takes.
     * @param file              where to write the log.
     * @throws IOException if it cannot be written.
     */
    public static void writeIdealWithinClasses(final TrafficClasses classes, final List<WorkloadTrace.FlowSpec> trace,
        final List<String> names, final long rateBitsPerSec, final IdealScheduler.BaseRtt baseRtt,
        final int segmentWireLength, final Path file) throws IOException
    {
        final Map<Integer, List<IdealScheduler.Flow>> byClass = new TreeMap<>();
        final Map<Long, Integer> dscpByFlow = new TreeMap<>();
        for (final WorkloadTrace.FlowSpec flow : trace)
        {
            byClass.computeIfAbsent(classes.classOf(flow.dscp()), key -> new ArrayList<>()).add(
                new IdealScheduler.Flow(flow.flowIndex(), flow.sourceHost(), flow.destinationHost(), flow.sizeBytes(),
                flow.startNs()));
            dscpByFlow.put(flow.flowIndex(), flow.dscp());
        }
        try (FctLogWriter log = new FctLogWriter(file, true))
        {
            for (final Map.Entry<Integer, List<IdealScheduler.Flow>> entry : byClass.entrySet())
            {
                final long shareBitsPerSec = rateBitsPerSec * classes.weight(entry.getKey()) / classes.totalWeight();
                final IdealScheduler ideal = new IdealScheduler(shareBitsPerSec, baseRtt, segmentWireLength);
                for (final IdealScheduler.Result result : ideal.run(entry.getValue()))
                {
                    final IdealScheduler.Flow flow = result.flow();
                    log.append(flow.flowId(), names.get(flow.sourceHost()), names.get(flow.destinationHost()),
                        flow.sizeBytes(), flow.startNs(), result.endNs(), 0, 0, IDEAL_CLASS_SCHEME,
                        dscpByFlow.get(flow.flowId()));
                }
            }
        }
    }
}
