package io.pfabric.sim.reproduce;

import io.pfabric.hostd.transport.PriorityPolicy;
import io.pfabric.sim.PriorityExperiment;
import io.pfabric.sim.ProbeModeExperiment;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Color;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The registry of the paper's figures (§5-§6): one entry each, in the paper's order. An entry names its points for a
 * scale and seed and says how its table, plot and verdict follow from their results; the verdict is always computed
 * by the rule the entry states. A figure the project cannot run is listed with the reason
 * ({@link Figure#notAvailable}).
 * <p>
 * To register a figure: add its points (a {@link Point} of its own, or {@link FctPoint} and {@link DeadlinePoint}
 * with other settings) and one {@link Figure} to {@link #all}, with a rule over its numbers.
 */
public final class Figures
{
    /**
     * The schemes of Figs 7-9.
     */
    public static final List<String> FCT_SCHEMES = List.of("ideal", "pfabric", "pdq", "dctcp", "tcp");

    /**
     * The schemes of Figs 10-11.
     */
    public static final List<String> DEADLINE_SCHEMES = List.of("pfabric-edf", "pfabric", "pdq", "dctcp", "tcp");

    /**
     * The commodity queues of Fig 17: 2, 4 and 8 strict-priority queues with the model's thresholds, and 4 with an
     * equal split of the flow-size range.
     */
    public static final List<String> STRICT_DISCIPLINES = List.of("strict:2", "strict:4", "strict:8",
        "strict:4:equal");

    /**
     * The deadline experiment's load.
     */
    public static final double DEADLINE_LOAD = 0.6;

    private static final List<String> WORKLOADS = List.of("websearch", "datamining");
    private static final List<String> INCAST_SCHEMES = List.of("pfabric", "pdq", "dctcp", "tcp");
    private static final List<PriorityPolicy> PRIORITIES = List.of(PriorityPolicy.BYTES_SENT,
        PriorityPolicy.FLOW_SIZE);
    private static final List<String> BASELINES = List.of("pdq", "dctcp", "tcp");
    private static final double NEAR_IDEAL = 1.25;
    private static final int PANEL_WIDTH = 520;
    private static final int PANEL_HEIGHT = 380;

    private Figures()
    {
    }

    /**
     * Every figure of §5-§6, in the paper's order.
     *
     * @param scale the scale.
     * @param seed  the seed of every trace and of the spraying.
     * @return the figures.
     */
    public static List<Figure> all(final Scale scale, final long seed)
    {
        final List<Point> sweep = new ArrayList<>();
        for (final String workload : WORKLOADS)
        {
            for (final String scheme : FCT_SCHEMES)
            {
                for (final double load : scale.loads())
                {
                    sweep.add(new FctPoint(workload, scheme, "pfabric", load, scale.flows(workload), seed));
                }
            }
        }
        final List<Point> deadlines = new ArrayList<>();
        for (final String workload : WORKLOADS)
        {
            for (final String scheme : DEADLINE_SCHEMES)
            {
                if (DeadlinePoint.coversEveryMean(scheme))
                {
                    deadlines.add(new DeadlinePoint(workload, scheme, DEADLINE_LOAD, scale.deadlineFlows(),
                        scale.deadlineMeansNs(), seed));
                }
                else
                {
                    for (final long meanNs : scale.deadlineMeansNs())
                    {
                        deadlines.add(new DeadlinePoint(workload, scheme, DEADLINE_LOAD, scale.deadlineFlows(),
                            List.of(meanNs), seed));
                    }
                }
            }
        }
        final List<Point> strict = new ArrayList<>();
        for (final double load : scale.loads())
        {
            for (final String scheme : List.of("ideal", "pfabric"))
            {
                strict.add(new FctPoint("websearch", scheme, "pfabric", load, scale.flows("websearch"), seed));
            }
            for (final String discipline : STRICT_DISCIPLINES)
            {
                strict.add(new FctPoint("websearch", "pfabric", discipline, load, scale.flows("websearch"), seed));
            }
        }
        final List<Point> incast = new ArrayList<>();
        for (final String scheme : INCAST_SCHEMES)
        {
            incast.add(new MicroPoints.Incast(scheme, scale.micro().incastSenders(), scale.micro().incastBytes(),
                scale.micro().incastRequests(), seed));
        }
        final List<Point> sensitivity = new ArrayList<>();
        for (final double buffer : scale.micro().sensitivityBuffers())
        {
            sensitivity.add(new MicroPoints.Sensitivity(buffer, scale.micro().sensitivityRtts(),
                scale.micro().sensitivityFlows(), seed));
        }
        final List<Point> priority = new ArrayList<>();
        for (final String workload : WORKLOADS)
        {
            for (final double load : scale.loads())
            {
                for (final PriorityPolicy policy : PRIORITIES)
                {
                    priority.add(new MicroPoints.Priority(workload, policy, load, scale.flows(workload), seed));
                }
                for (final String scheme : List.of("pfabric", "pdq", "ideal"))
                {
                    priority.add(new FctPoint(workload, scheme, "pfabric", load, scale.flows(workload), seed));
                }
            }
        }
        return List.of(
            new Figure("5a", "seamless flow switching: five flows of one size start together towards one host",
                "As recalled: pFabric switches the link from flow to flow in SRPT order with no loss of throughput, " +
                "and the last flow ends close to the ideal (all bytes at line rate).",
                "agrees if the last flow ends within 10% of the ideal and the flows end one after another, the " +
                "first by 30% of the last's time (sharing the link fairly, all would end together).",
                List.of(new MicroPoints.FlowSwitching(scale.micro().switchingBytes(), seed)),
                Figures::switchingSection, null),
            new Figure("5b", "loss rate of long-lived flows into one port, with and without probe mode",
                "As recalled: without probe mode the loss rate climbs with the number of flows; probe mode " +
                "keeps it low.",
                "agrees if with probe mode (after 5 timeouts) the loss rate is below 10% at every flow count, and " +
                "at the largest count below the loss rate without it.",
                List.of(new MicroPoints.ProbeMode(5, scale.micro().probeFlowCounts(),
                    scale.micro().probeDurationNs(), seed), new MicroPoints.ProbeMode(ProbeModeExperiment.OFF,
                    scale.micro().probeFlowCounts(), scale.micro().probeDurationNs(), seed)),
                Figures::probeSection, null),
            new Figure("6", "incast: request completion time and flow FCT against the number of senders",
                "As recalled: pFabric's request completion time stays close to the best possible as the senders " +
                "grow, unlike TCP-DropTail's.",
                "agrees if at every sender count pfabric's mean request completion time is at most 1.25 x the " +
                "ideal (every byte at line rate), and at the largest count at most tcp's.", incast,
                results -> incastSection(results, scale), null),
            new Figure("7", "overall average normalized FCT against load, web search and data mining",
                "As recalled: pFabric's overall average FCT is close to Ideal's at every load of both workloads and " +
                "below PDQ's, DCTCP's and TCP-DropTail's.",
                "agrees if, at every load of both workloads, pfabric's mean normalized FCT of all flows is below " +
                "pdq's, dctcp's and tcp's and at most " + NEAR_IDEAL + " x Ideal's.", sweep,
                results -> sweepSection(results, scale, List.of(new Metric("all flows: mean", "all", "mean")),
                    true), null),
            new Figure("8", "(0, 100 KB] flows: average and 99th percentile of normalized FCT against load",
                "As recalled: pFabric's small flows get near-ideal average and 99th-percentile FCT at every load, far " +
                "below the baselines'.",
                "agrees if, at every load of both workloads, pfabric's mean and 99th percentile of (0, 100 KB] flows " +
                "are below pdq's, dctcp's and tcp's and its mean is at most " + NEAR_IDEAL + " x Ideal's.", sweep,
                results -> sweepSection(results, scale, List.of(new Metric("(0, 100KB]: mean", "small", "mean"),
                    new Metric("(0, 100KB]: p99", "small", "p99")), true), null),
            new Figure("9", "(10 MB, inf) flows: average normalized FCT against load",
                "As recalled: pFabric's large flows fare close to Ideal's and about as well as under the baselines, " +
                "a gap opening only at the highest loads.",
                "agrees if, at every load below 0.8 of both workloads, pfabric's mean normalized FCT of (10 MB, inf) " +
                "flows is at most 1.1 x the lower of dctcp's and tcp's.", sweep,
                results -> sweepSection(results, scale, List.of(new Metric("(10MB, inf): mean", "large", "mean")),
                    false), null),
            new Figure("10", "deadline flows: fraction that meet their deadline against the mean deadline, load 0.6",
                "As recalled: pFabric-EDF meets nearly every deadline and deadline-agnostic pFabric nearly as many, " +
                "both well above TCP and DCTCP, with PDQ (Early Termination) in between.",
                "agrees if, at every mean deadline of both workloads, pfabric-edf meets at least as many deadlines " +
                "as pfabric less 1% of the deadline flows, and pfabric at least as many as pdq, dctcp and tcp.",
                deadlines, results -> deadlineSection(results, scale, true), null),
            new Figure("11", "the flows without deadlines in the deadline runs: average normalized FCT",
                "As recalled: pFabric-EDF does not hurt the flows without deadlines: their FCT stays at pFabric's, " +
                "well below the baselines'.",
                "agrees if, at every mean deadline of both workloads, the flows without deadlines have a mean " +
                "normalized FCT under pfabric-edf within 10% of pfabric's and below dctcp's and tcp's.",
                deadlines, results -> deadlineSection(results, scale, false), null),
            new Figure("12", "sensitivity to buffer size and timeout: web search at 0.8",
                "As recalled: pFabric is insensitive to buffer size and timeout over wide ranges.",
                "agrees if every setting with a buffer of at least 1 BDP and a timeout of 3 to 10 RTT has a mean " +
                "normalized FCT within 20% of the best setting's.", sensitivity,
                results -> sensitivitySection(results, scale), null),
            new Figure("13", "loss rate by flow size at the source NIC, the core and the last hop, web search at 0.8",
                "As recalled: pFabric's losses are mostly at the last hop and fall on large flows.",
                "agrees if the last hop drops more packets than the NICs and the core together, and its loss rate " +
                "for the largest flows exceeds that for the smallest.",
                List.of(new MicroPoints.LossByHop(scale.micro().lossFlows(), seed)), Figures::lossSection, null),
            new Figure("14", "priority = bytes sent, flow size or remaining size, with PDQ and Ideal, against load",
                "As recalled: flow size does about as well as remaining size, and bytes sent (no knowledge of " +
                "sizes) somewhat worse.",
                "agrees if at every load of both workloads pfabric with flow size is within 10% of pfabric with " +
                "remaining size, and pfabric with bytes sent is no better than with remaining size (mean of all " +
                "flows).", priority, results -> prioritySection(results, scale), null),
            new Figure("15", "§6.1 model, two strict-priority queues: normalized FCT against the threshold, web " +
                "search", "As recalled: near its best value the FCT is not very sensitive to the threshold.",
                "agrees if, at every load, the thresholds whose predicted mean normalized FCT is within 10% of the " +
                "best span at least a factor of 2.",
                List.of(new ModelPoint(15, "websearch", scale.thresholdLoads())), Figures::thresholdSection, null),
            new Figure("16", "§6.1 model: the best thresholds against load, web search",
                "As recalled: the best threshold depends on the load, rising with it.",
                "agrees if the best threshold of two queues never falls as the load rises.",
                List.of(new ModelPoint(16, "websearch", scale.optimumLoads())), Figures::optimumSection, null),
            new Figure("17", "§6.2: pFabric on 2, 4 or 8 commodity strict-priority queues, web search",
                "As recalled: with 4 or more queues and the model's thresholds pFabric's transport on commodity " +
                "queues comes close to pFabric, 2 queues less so, and an equal split of the flow-size range does " +
                "much worse than the model's thresholds.",
                "agrees if, at every load, the mean normalized FCT of all flows does not rise by more than 5% from " +
                "2 to 4 to 8 queues, 8 queues are within " + NEAR_IDEAL + " x pfabric, and 4 queues with the " +
                "model's thresholds beat 4 with the equal split.", strict,
                results -> strictSection(results, scale), null));
    }

    private record Metric(String label, String bin, String column)
    {
    }

    private static String num(final double value)
    {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.3f", value);
    }

    private static XYChart chart(final String title, final String xTitle, final String yTitle)
    {
        final XYChart chart = new XYChartBuilder().width(PANEL_WIDTH).height(PANEL_HEIGHT).title(title)
            .xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setLegendVisible(true);
        return chart;
    }

    private static void series(final XYChart chart, final String name, final List<Double> xs, final List<Double> ys)
    {
        final List<Double> x = new ArrayList<>();
        final List<Double> y = new ArrayList<>();
        for (int i = 0; i < xs.size(); i++)
        {
            if (!Double.isNaN(ys.get(i)) && !(chart.getStyler().isYAxisLogarithmic() && ys.get(i) <= 0))
            {
                x.add(xs.get(i));
                y.add(ys.get(i));
            }
        }
        if (!x.isEmpty())
        {
            chart.addSeries(name, x, y).setMarker(SeriesMarkers.CIRCLE);
        }
    }

    private static String where(final List<String> failures)
    {
        return String.join("; ", failures.subList(0, Math.min(3, failures.size()))) +
            (failures.size() > 3 ? String.format(Locale.ROOT, "; and %d more", failures.size() - 3) : "");
    }

    private static Figure.Section sweepSection(final Figure.Results results, final Scale scale,
        final List<Metric> metrics, final boolean lowestAndNearIdeal)
    {
        final List<String> header = new ArrayList<>(List.of("workload", "metric", "load"));
        header.addAll(FCT_SCHEMES);
        final List<List<String>> rows = new ArrayList<>();
        final List<XYChart> charts = new ArrayList<>();
        final List<String> failures = new ArrayList<>();
        double worstRatio = 0;
        String worstAt = "";
        for (final String workload : WORKLOADS)
        {
            for (final Metric metric : metrics)
            {
                final XYChart chart = chart(workload + " " + metric.label(), "load", "normalized FCT");
                if ("p99".equals(metric.column()) || "all".equals(metric.bin()))
                {
                    chart.getStyler().setYAxisLogarithmic(true);
                }
                final Map<String, List<Double>> bySchemes = new LinkedHashMap<>();
                for (final double load : scale.loads())
                {
                    final List<String> row = new ArrayList<>(List.of(workload, metric.label(),
                        Points.loadLabel(load)));
                    for (final String scheme : FCT_SCHEMES)
                    {
                        final double value = results.fct(FctPoint.id(workload, scheme, load), metric.bin(),
                            metric.column());
                        row.add(num(value));
                        bySchemes.computeIfAbsent(scheme, s -> new ArrayList<>()).add(value);
                    }
                    rows.add(row);
                    final double pfabric = results.fct(FctPoint.id(workload, "pfabric", load), metric.bin(),
                        metric.column());
                    final String at = workload + " at " + Points.loadLabel(load) + ", " + metric.label();
                    if (lowestAndNearIdeal)
                    {
                        for (final String baseline : BASELINES)
                        {
                            final double other = results.fct(FctPoint.id(workload, baseline, load), metric.bin(),
                                metric.column());
                            if (!(pfabric < other))
                            {
                                failures.add(String.format(Locale.ROOT, "%s: pfabric %s not below %s %s", at,
                                    num(pfabric), baseline, num(other)));
                            }
                        }
                        if ("mean".equals(metric.column()))
                        {
                            final double ideal = results.fct(FctPoint.id(workload, "ideal", load), metric.bin(),
                                "mean");
                            final double ratio = pfabric / ideal;
                            if (!(ratio <= NEAR_IDEAL))
                            {
                                failures.add(String.format(Locale.ROOT, "%s: pfabric %s is %.2f x Ideal's %s", at,
                                    num(pfabric), ratio, num(ideal)));
                            }
                            if (ratio > worstRatio)
                            {
                                worstRatio = ratio;
                                worstAt = at;
                            }
                        }
                    }
                    else if (load < 0.8 - 1e-9)
                    {
                        final double best = Math.min(
                            results.fct(FctPoint.id(workload, "dctcp", load), metric.bin(), metric.column()),
                            results.fct(FctPoint.id(workload, "tcp", load), metric.bin(), metric.column()));
                        final double ratio = pfabric / best;
                        if (!(ratio <= 1.1))
                        {
                            failures.add(String.format(Locale.ROOT, "%s: pfabric %s is %.2f x the better of dctcp " +
                                "and tcp (%s)", at, num(pfabric), ratio, num(best)));
                        }
                        if (ratio > worstRatio)
                        {
                            worstRatio = ratio;
                            worstAt = at;
                        }
                    }
                }
                for (final Map.Entry<String, List<Double>> entry : bySchemes.entrySet())
                {
                    series(chart, entry.getKey(), scale.loads(), entry.getValue());
                }
                charts.add(chart);
            }
        }
        final String finding = failures.isEmpty() ? String.format(Locale.ROOT, "Every load passes; pfabric's " +
            "largest ratio to %s is %.2f (%s).", lowestAndNearIdeal ? "Ideal" : "the better of dctcp and tcp",
            worstRatio, worstAt) : "Fails where " + where(failures) + ".";
        return new Figure.Section(header, rows, charts, 2, failures.isEmpty(), finding);
    }

    private static String deadlineId(final String workload, final String scheme, final long meanNs,
        final Scale scale)
    {
        return new DeadlinePoint(workload, scheme, DEADLINE_LOAD, scale.deadlineFlows(),
            DeadlinePoint.coversEveryMean(scheme) ? scale.deadlineMeansNs() : List.of(meanNs), 0).id();
    }

    private static Figure.Section deadlineSection(final Figure.Results results, final Scale scale,
        final boolean met)
    {
        final List<String> header = new ArrayList<>(List.of("workload", "mean deadline (us)"));
        header.addAll(DEADLINE_SCHEMES);
        final List<List<String>> rows = new ArrayList<>();
        final List<XYChart> charts = new ArrayList<>();
        final List<String> failures = new ArrayList<>();
        for (final String workload : WORKLOADS)
        {
            final XYChart chart = chart(workload + (met ? ": fraction of deadlines met" :
                ": flows without deadlines, mean normalized FCT"), "mean deadline (us, log)",
                met ? "fraction met" : "normalized FCT");
            chart.getStyler().setXAxisLogarithmic(true);
            final Map<String, List<Double>> bySchemes = new LinkedHashMap<>();
            final List<Double> xs = new ArrayList<>();
            for (final long meanNs : scale.deadlineMeansNs())
            {
                xs.add(meanNs / 1e3);
                final String key = Long.toString(meanNs / 1_000);
                final Map<String, Double> values = new LinkedHashMap<>();
                final List<String> row = new ArrayList<>(List.of(workload, key));
                for (final String scheme : DEADLINE_SCHEMES)
                {
                    final String id = deadlineId(workload, scheme, meanNs, scale);
                    final double value = met ? results.value(id, 0, key, "met") /
                        results.value(id, 0, key, "flows") : results.value(id, 0, key, "other_mean_normalized");
                    values.put(scheme, value);
                    row.add(num(value));
                    bySchemes.computeIfAbsent(scheme, s -> new ArrayList<>()).add(value);
                }
                rows.add(row);
                final String at = workload + " at " + key + " us";
                final double pfabric = values.get("pfabric");
                final double edf = values.get("pfabric-edf");
                if (met)
                {
                    if (!(edf >= pfabric - 0.01))
                    {
                        failures.add(String.format(Locale.ROOT, "%s: pfabric-edf %s below pfabric %s", at, num(edf),
                            num(pfabric)));
                    }
                    for (final String baseline : BASELINES)
                    {
                        if (!(pfabric >= values.get(baseline)))
                        {
                            failures.add(String.format(Locale.ROOT, "%s: pfabric %s below %s %s", at, num(pfabric),
                                baseline, num(values.get(baseline))));
                        }
                    }
                }
                else
                {
                    if (!(Math.abs(edf / pfabric - 1) <= 0.1))
                    {
                        failures.add(String.format(Locale.ROOT, "%s: pfabric-edf %s against pfabric %s", at,
                            num(edf), num(pfabric)));
                    }
                    for (final String baseline : List.of("dctcp", "tcp"))
                    {
                        if (!(edf < values.get(baseline)))
                        {
                            failures.add(String.format(Locale.ROOT, "%s: pfabric-edf %s not below %s %s", at,
                                num(edf), baseline, num(values.get(baseline))));
                        }
                    }
                }
            }
            for (final Map.Entry<String, List<Double>> entry : bySchemes.entrySet())
            {
                series(chart, entry.getKey(), xs, entry.getValue());
            }
            charts.add(chart);
        }
        final String finding = failures.isEmpty() ? "Every mean deadline of both workloads passes." :
            "Fails where " + where(failures) + ".";
        return new Figure.Section(header, rows, charts, 2, failures.isEmpty(), finding);
    }

    private static Figure.Section thresholdSection(final Figure.Results results)
    {
        final String id = "model/websearch/fig15";
        final Map<String, List<String[]>> byLoad = new LinkedHashMap<>();
        for (final String[] line : results.lines(id))
        {
            byLoad.computeIfAbsent(line[0], k -> new ArrayList<>()).add(line);
        }
        final List<List<String>> rows = new ArrayList<>();
        final XYChart all = chart("all flows, 2 queues", "threshold (KB, log)", "normalized FCT (log)");
        final XYChart small = chart("(0, 100KB], 2 queues", "threshold (KB, log)", "normalized FCT (log)");
        for (final XYChart chart : List.of(all, small))
        {
            chart.getStyler().setXAxisLogarithmic(true);
            chart.getStyler().setYAxisLogarithmic(true);
        }
        final List<String> failures = new ArrayList<>();
        double narrowest = Double.POSITIVE_INFINITY;
        for (final Map.Entry<String, List<String[]>> entry : byLoad.entrySet())
        {
            double best = Double.POSITIVE_INFINITY;
            long bestThreshold = 0;
            final List<Double> xs = new ArrayList<>();
            final List<Double> overall = new ArrayList<>();
            final List<Double> smalls = new ArrayList<>();
            for (final String[] line : entry.getValue())
            {
                final double value = Double.parseDouble(line[2]);
                xs.add(Long.parseLong(line[1]) / 1e3);
                overall.add(value);
                smalls.add(Double.parseDouble(line[3]));
                if (value < best)
                {
                    best = value;
                    bestThreshold = Long.parseLong(line[1]);
                }
            }
            long low = Long.MAX_VALUE;
            long high = 0;
            for (final String[] line : entry.getValue())
            {
                if (Double.parseDouble(line[2]) <= 1.1 * best)
                {
                    low = Math.min(low, Long.parseLong(line[1]));
                    high = Math.max(high, Long.parseLong(line[1]));
                }
            }
            final double span = (double)high / low;
            narrowest = Math.min(narrowest, span);
            if (!(span >= 2))
            {
                failures.add(String.format(Locale.ROOT, "load %s: within 10%% only from %,d to %,d B", entry.getKey(),
                    low, high));
            }
            rows.add(List.of(entry.getKey(), Long.toString(bestThreshold), num(best), Long.toString(low),
                Long.toString(high), String.format(Locale.ROOT, "%.1f", span)));
            series(all, "load " + entry.getKey(), xs, overall);
            series(small, "load " + entry.getKey(), xs, smalls);
        }
        return new Figure.Section(List.of("load", "best threshold (B)", "all flows at best",
            "within 10% from (B)", "to (B)", "span (x)"), rows, List.of(all, small), 2, failures.isEmpty(),
            failures.isEmpty() ? String.format(Locale.ROOT, "The narrowest span within 10%% of the best is %.1f x.",
                narrowest) : "Fails where " + where(failures) + ".");
    }

    private static Figure.Section optimumSection(final Figure.Results results)
    {
        final String id = "model/websearch/fig16";
        final Map<String, Map<String, String[]>> byLoad = new LinkedHashMap<>();
        for (final String[] line : results.lines(id))
        {
            byLoad.computeIfAbsent(line[0], k -> new LinkedHashMap<>()).put(line[1], line);
        }
        final List<String> header = new ArrayList<>(List.of("load", "best threshold of 2 queues (B)"));
        for (final int queues : ModelPoint.QUEUE_COUNTS)
        {
            header.add(queues + (1 == queues ? " queue" : " queues") + ": all flows");
        }
        final List<List<String>> rows = new ArrayList<>();
        final List<Double> loads = new ArrayList<>();
        final List<Double> thresholds = new ArrayList<>();
        final Map<Integer, List<Double>> fcts = new LinkedHashMap<>();
        final List<String> failures = new ArrayList<>();
        long previous = 0;
        String previousLoad = "";
        for (final Map.Entry<String, Map<String, String[]>> entry : byLoad.entrySet())
        {
            final long threshold = Long.parseLong(entry.getValue().get("2")[2]);
            if (threshold < previous)
            {
                failures.add(String.format(Locale.ROOT, "from load %s to %s it falls from %,d to %,d B",
                    previousLoad, entry.getKey(), previous, threshold));
            }
            previous = threshold;
            previousLoad = entry.getKey();
            loads.add(Double.parseDouble(entry.getKey()));
            thresholds.add(threshold / 1e3);
            final List<String> row = new ArrayList<>(List.of(entry.getKey(), Long.toString(threshold)));
            for (final int queues : ModelPoint.QUEUE_COUNTS)
            {
                final double value = Double.parseDouble(entry.getValue().get(Integer.toString(queues))[3]);
                row.add(num(value));
                fcts.computeIfAbsent(queues, q -> new ArrayList<>()).add(value);
            }
            rows.add(row);
        }
        final XYChart thresholdChart = chart("best threshold of 2 queues", "load", "threshold (KB)");
        series(thresholdChart, "2 queues", loads, thresholds);
        final XYChart fctChart = chart("predicted normalized FCT at the best thresholds", "load",
            "normalized FCT (log)");
        fctChart.getStyler().setYAxisLogarithmic(true);
        for (final Map.Entry<Integer, List<Double>> entry : fcts.entrySet())
        {
            series(fctChart, entry.getKey() + (1 == entry.getKey() ? " queue (FIFO)" : " queues"), loads,
                entry.getValue());
        }
        return new Figure.Section(header, rows, List.of(thresholdChart, fctChart), 2, failures.isEmpty(),
            failures.isEmpty() ? String.format(Locale.ROOT, "The best threshold rises from %,.0f KB to %,.0f KB.",
                thresholds.get(0), thresholds.get(thresholds.size() - 1)) : "Fails: " + where(failures) + ".");
    }

    private static Figure.Section strictSection(final Figure.Results results, final Scale scale)
    {
        final List<String> labels = new ArrayList<>(List.of("ideal", "pfabric"));
        for (final String discipline : STRICT_DISCIPLINES)
        {
            labels.add(new FctPoint("websearch", "pfabric", discipline, 0.5, 1, 1).label());
        }
        final List<String> header = new ArrayList<>(List.of("metric", "load"));
        header.addAll(labels);
        final List<List<String>> rows = new ArrayList<>();
        final List<String> failures = new ArrayList<>();
        final List<XYChart> charts = new ArrayList<>();
        for (final Metric metric : List.of(new Metric("all flows: mean", "all", "mean"),
            new Metric("(0, 100KB]: p99", "small", "p99")))
        {
            final XYChart chart = chart("websearch " + metric.label(), "load", "normalized FCT (log)");
            chart.getStyler().setYAxisLogarithmic(true);
            final Map<String, List<Double>> byLabel = new LinkedHashMap<>();
            for (final double load : scale.loads())
            {
                final Map<String, Double> values = new LinkedHashMap<>();
                final List<String> row = new ArrayList<>(List.of(metric.label(), Points.loadLabel(load)));
                for (final String label : labels)
                {
                    final double value = results.fct(FctPoint.id("websearch", label, load), metric.bin(),
                        metric.column());
                    values.put(label, value);
                    row.add(num(value));
                    byLabel.computeIfAbsent(label, l -> new ArrayList<>()).add(value);
                }
                rows.add(row);
                if ("all".equals(metric.bin()))
                {
                    final String at = "load " + Points.loadLabel(load);
                    if (!(values.get("strict4") <= 1.05 * values.get("strict2") &&
                        values.get("strict8") <= 1.05 * values.get("strict4")))
                    {
                        failures.add(String.format(Locale.ROOT, "%s: 2, 4, 8 queues give %s, %s, %s", at,
                            num(values.get("strict2")), num(values.get("strict4")), num(values.get("strict8"))));
                    }
                    if (!(values.get("strict8") <= NEAR_IDEAL * values.get("pfabric")))
                    {
                        failures.add(String.format(Locale.ROOT, "%s: 8 queues %s against pfabric %s", at,
                            num(values.get("strict8")), num(values.get("pfabric"))));
                    }
                    if (!(values.get("strict4") < values.get("strict4-equal")))
                    {
                        failures.add(String.format(Locale.ROOT, "%s: 4 queues with the model's thresholds %s, " +
                            "with the equal split %s", at, num(values.get("strict4")),
                            num(values.get("strict4-equal"))));
                    }
                }
            }
            for (final Map.Entry<String, List<Double>> entry : byLabel.entrySet())
            {
                series(chart, entry.getKey(), scale.loads(), entry.getValue());
            }
            charts.add(chart);
        }
        return new Figure.Section(header, rows, charts, 2, failures.isEmpty(), failures.isEmpty() ?
            "Every load passes." : "Fails where " + where(failures) + ".");
    }

    private static Figure.Section switchingSection(final Figure.Results results)
    {
        final List<String[]> lines = results.lines("micro/flow-switching");
        final Map<String, List<Double>> times = new LinkedHashMap<>();
        final Map<String, List<Double>> gbps = new LinkedHashMap<>();
        final Map<String, Double> ends = new LinkedHashMap<>();
        double ideal = Double.NaN;
        for (final String[] line : lines)
        {
            times.computeIfAbsent(line[0], k -> new ArrayList<>()).add(Double.parseDouble(line[1]));
            gbps.computeIfAbsent(line[0], k -> new ArrayList<>()).add(Double.parseDouble(line[2]));
            ends.put(line[0], Double.parseDouble(line[3]));
            ideal = Double.parseDouble(line[4]);
        }
        final XYChart chart = chart("each flow's throughput", "time (ms)", "Gb/s");
        final List<List<String>> rows = new ArrayList<>();
        double first = Double.POSITIVE_INFINITY;
        double last = 0;
        boolean complete = true;
        for (final String flow : times.keySet())
        {
            chart.addSeries("flow " + flow, times.get(flow), gbps.get(flow)).setMarker(SeriesMarkers.NONE);
            final double end = ends.get(flow);
            complete &= end > 0;
            first = Math.min(first, end);
            last = Math.max(last, end);
            rows.add(List.of(flow, num(end), num(ideal)));
        }
        final boolean agrees = complete && last <= 1.1 * ideal && first <= 0.3 * last;
        return new Figure.Section(List.of("flow", "end (ms)", "ideal end of the last (ms)"), rows, List.of(chart), 1,
            agrees, String.format(Locale.ROOT, "The last flow ends at %s ms against the ideal %s ms (%.3f x); the " +
                "first at %s ms, %.2f of the last's time%s.", num(last), num(ideal), last / ideal, num(first),
                first / last, complete ? "" : "; some flow never ended"));
    }

    private static Figure.Section probeSection(final Figure.Results results)
    {
        final String on = "micro/probe-mode/after-5";
        final String off = "micro/probe-mode/off";
        final List<List<String>> rows = new ArrayList<>();
        final List<Double> counts = new ArrayList<>();
        final List<Double> lossOn = new ArrayList<>();
        final List<Double> lossOff = new ArrayList<>();
        final List<String> failures = new ArrayList<>();
        for (final String[] line : results.lines(on))
        {
            final double with = Double.parseDouble(line[1]);
            final double without = results.value(off, 0, line[0], "loss_rate");
            counts.add(Double.parseDouble(line[0]));
            lossOn.add(with);
            lossOff.add(without);
            rows.add(List.of(line[0], num(with), num(without)));
            if (!(with < 0.1))
            {
                failures.add(String.format(Locale.ROOT, "%s flows: %s with probe mode", line[0], num(with)));
            }
        }
        final int lastIndex = counts.size() - 1;
        if (!(lossOn.get(lastIndex) < lossOff.get(lastIndex)))
        {
            failures.add(String.format(Locale.ROOT, "%.0f flows: %s with probe mode, %s without", counts.get(lastIndex),
                num(lossOn.get(lastIndex)), num(lossOff.get(lastIndex))));
        }
        final XYChart chart = chart("loss rate", "long-lived flows", "loss rate");
        series(chart, "probe mode after 5 timeouts", counts, lossOn);
        series(chart, "no probe mode", counts, lossOff);
        return new Figure.Section(List.of("flows", "loss with probe mode", "loss without"), rows, List.of(chart), 1,
            failures.isEmpty(), failures.isEmpty() ? String.format(Locale.ROOT, "At %.0f flows the loss rate is %s " +
                "with probe mode and %s without.", counts.get(lastIndex), num(lossOn.get(lastIndex)),
                num(lossOff.get(lastIndex))) : "Fails where " + where(failures) + ".");
    }

    private static Figure.Section incastSection(final Figure.Results results, final Scale scale)
    {
        final List<String> header = new ArrayList<>(List.of("metric", "senders", "ideal"));
        header.addAll(INCAST_SCHEMES);
        final List<List<String>> rows = new ArrayList<>();
        final List<XYChart> charts = new ArrayList<>();
        final List<String> failures = new ArrayList<>();
        final List<Double> xs = new ArrayList<>();
        for (final int senders : scale.micro().incastSenders())
        {
            xs.add((double)senders);
        }
        for (final String column : List.of("request_mean_ms", "flow_mean_ms"))
        {
            final String label = column.startsWith("request") ? "request completion (ms)" : "flow FCT (ms)";
            final XYChart chart = chart(label, "senders", "ms");
            final Map<String, List<Double>> byScheme = new LinkedHashMap<>();
            for (final int senders : scale.micro().incastSenders())
            {
                final String key = Integer.toString(senders);
                final double ideal = results.value("micro/incast/pfabric", 0, key, "ideal_request_ms");
                final List<String> row = new ArrayList<>(List.of(label, key, num(ideal)));
                for (final String scheme : INCAST_SCHEMES)
                {
                    final double value = results.value("micro/incast/" + scheme, 0, key, column);
                    row.add(num(value));
                    byScheme.computeIfAbsent(scheme, k -> new ArrayList<>()).add(value);
                }
                rows.add(row);
                if (column.startsWith("request"))
                {
                    final double pfabric = results.value("micro/incast/pfabric", 0, key, column);
                    final double tcp = results.value("micro/incast/tcp", 0, key, column);
                    final boolean largest = senders == scale.micro().incastSenders()
                        .get(scale.micro().incastSenders().size() - 1);
                    if (!(pfabric <= NEAR_IDEAL * ideal && (!largest || pfabric <= tcp)))
                    {
                        failures.add(String.format(Locale.ROOT, "%d senders: pfabric %s ms, ideal %s, tcp %s",
                            senders, num(pfabric), num(ideal), num(tcp)));
                    }
                }
            }
            for (final Map.Entry<String, List<Double>> entry : byScheme.entrySet())
            {
                series(chart, entry.getKey(), xs, entry.getValue());
            }
            charts.add(chart);
        }
        return new Figure.Section(header, rows, charts, 2, failures.isEmpty(), failures.isEmpty() ?
            "Every sender count passes." : "Fails where " + where(failures) + ".");
    }

    private static Figure.Section sensitivitySection(final Figure.Results results, final Scale scale)
    {
        final List<List<String>> rows = new ArrayList<>();
        final XYChart mean = chart("all flows: mean", "timeout (RTTs)", "normalized FCT");
        final XYChart p99 = chart("(0, 100KB]: p99", "timeout (RTTs)", "normalized FCT");
        double best = Double.POSITIVE_INFINITY;
        final List<double[]> cells = new ArrayList<>();
        for (final double buffer : scale.micro().sensitivityBuffers())
        {
            final String id = new MicroPoints.Sensitivity(buffer, List.of(), 1, 1).id();
            final List<Double> means = new ArrayList<>();
            final List<Double> p99s = new ArrayList<>();
            for (final double rtts : scale.micro().sensitivityRtts())
            {
                final String key = Points.loadLabel(rtts);
                final double value = results.value(id, 0, key, "mean");
                final double tail = results.value(id, 0, key, "small_p99");
                means.add(value);
                p99s.add(tail);
                best = Math.min(best, value);
                cells.add(new double[]{ buffer, rtts, value });
                rows.add(List.of(Points.loadLabel(buffer), key, num(value), num(tail)));
            }
            series(mean, "buffer " + Points.loadLabel(buffer) + " BDP", scale.micro().sensitivityRtts(), means);
            series(p99, "buffer " + Points.loadLabel(buffer) + " BDP", scale.micro().sensitivityRtts(), p99s);
        }
        final List<String> failures = new ArrayList<>();
        for (final double[] cell : cells)
        {
            if (cell[0] >= 1 && cell[1] >= 3 && cell[1] <= 10 && !(cell[2] <= 1.2 * best))
            {
                failures.add(String.format(Locale.ROOT, "buffer %s BDP, timeout %s RTT: %s against the best %s",
                    Points.loadLabel(cell[0]), Points.loadLabel(cell[1]), num(cell[2]), num(best)));
            }
        }
        return new Figure.Section(List.of("buffer (BDP)", "timeout (RTT)", "all flows: mean", "(0, 100KB]: p99"),
            rows, List.of(mean, p99), 2, failures.isEmpty(), failures.isEmpty() ? String.format(Locale.ROOT,
                "Every such setting is within 20%% of the best, %s.", num(best)) : "Fails where " + where(failures) +
                ".");
    }

    private static Figure.Section lossSection(final Figure.Results results)
    {
        final List<String[]> lines = results.lines("micro/loss-by-hop");
        final List<List<String>> rows = new ArrayList<>();
        final List<Double> xs = new ArrayList<>();
        final List<List<Double>> losses = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        long nic = 0;
        long core = 0;
        long last = 0;
        for (int i = 0; i < lines.size(); i++)
        {
            final String[] line = lines.get(i);
            xs.add(i + 1.0);
            for (int role = 0; role < 3; role++)
            {
                losses.get(role).add(Double.parseDouble(line[3 + role]));
            }
            nic += Long.parseLong(line[6]);
            core += Long.parseLong(line[7]);
            last += Long.parseLong(line[8]);
            rows.add(List.of(line[0], line[1], line[2], num(Double.parseDouble(line[3])),
                num(Double.parseDouble(line[4])), num(Double.parseDouble(line[5]))));
        }
        final XYChart chart = chart("loss rate by flow size bin (1 = smallest)", "size bin", "loss rate");
        final String[] roles = { "source NIC", "core", "last hop" };
        for (int role = 0; role < 3; role++)
        {
            series(chart, roles[role], xs, losses.get(role));
        }
        final double smallest = losses.get(2).get(0);
        final double largest = losses.get(2).get(losses.get(2).size() - 1);
        final boolean agrees = last > nic + core && largest > smallest;
        return new Figure.Section(List.of("flow size", "flows", "packets sent", "NIC loss", "core loss",
            "last-hop loss"), rows, List.of(chart), 1, agrees, String.format(Locale.ROOT, "Packets dropped: %,d at " +
            "the last hop, %,d at NICs, %,d in the core; last-hop loss %s for the smallest flows, %s for the largest.",
            last, nic, core, num(smallest), num(largest)));
    }

    private static Figure.Section prioritySection(final Figure.Results results, final Scale scale)
    {
        final List<String> labels = List.of("pfabric-bytes-sent", "pfabric-size", "pfabric", "pdq", "ideal");
        final List<String> header = new ArrayList<>(List.of("workload", "load"));
        header.addAll(labels);
        final List<List<String>> rows = new ArrayList<>();
        final List<XYChart> charts = new ArrayList<>();
        final List<String> failures = new ArrayList<>();
        for (final String workload : WORKLOADS)
        {
            final XYChart chart = chart(workload + ": all flows, mean", "load", "normalized FCT");
            final Map<String, List<Double>> byLabel = new LinkedHashMap<>();
            for (final double load : scale.loads())
            {
                final Map<String, Double> values = new LinkedHashMap<>();
                for (final PriorityPolicy policy : PRIORITIES)
                {
                    final String id = new MicroPoints.Priority(workload, policy, load, 1, 1).id();
                    values.put(PriorityExperiment.schemeName(policy), Double.parseDouble(results.lines(id).get(0)[1]));
                }
                for (final String scheme : List.of("pfabric", "pdq", "ideal"))
                {
                    values.put(scheme, results.fct(FctPoint.id(workload, scheme, load), "all", "mean"));
                }
                final List<String> row = new ArrayList<>(List.of(workload, Points.loadLabel(load)));
                for (final String label : labels)
                {
                    row.add(num(values.get(label)));
                    byLabel.computeIfAbsent(label, k -> new ArrayList<>()).add(values.get(label));
                }
                rows.add(row);
                final double remaining = values.get("pfabric");
                if (!(Math.abs(values.get("pfabric-size") / remaining - 1) <= 0.1))
                {
                    failures.add(String.format(Locale.ROOT, "%s at %s: size %s, remaining %s", workload,
                        Points.loadLabel(load), num(values.get("pfabric-size")), num(remaining)));
                }
                if (!(values.get("pfabric-bytes-sent") >= remaining))
                {
                    failures.add(String.format(Locale.ROOT, "%s at %s: bytes sent %s, remaining %s", workload,
                        Points.loadLabel(load), num(values.get("pfabric-bytes-sent")), num(remaining)));
                }
            }
            for (final Map.Entry<String, List<Double>> entry : byLabel.entrySet())
            {
                series(chart, entry.getKey(), scale.loads(), entry.getValue());
            }
            charts.add(chart);
        }
        return new Figure.Section(header, rows, charts, 2, failures.isEmpty(), failures.isEmpty() ?
            "Every load of both workloads passes." : "Fails where " + where(failures) + ".");
    }
}
