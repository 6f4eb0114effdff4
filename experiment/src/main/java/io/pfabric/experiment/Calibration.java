package io.pfabric.experiment;

import io.pfabric.common.topology.Rates;
import io.pfabric.common.topology.Topology;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongFunction;

/**
 * The fastest link rate this machine can emulate a fabric at: for a topology and a workload, a binary search over
 * {@link #RATES_BITS_PER_SEC} for the highest rate at which a pFabric run and a baseline run (kernel TCP, or hostd over
 * drop-tail queues on loopback) both keep their invariants ({@link Fidelity}), each probe a full experiment at the
 * largest load asked for, in a directory of its own. The search assumes that a rate the machine cannot keep is not
 * kept at any higher one, which is what saturated CPUs give; three probes at most. The result is recorded in a file that
 * {@link Experiment} reads, to warn when asked for more.
 */
public final class Calibration
{
    /**
     * The rates tried, lowest first: what a 2-core machine keeps (100m) up to what a quiet one of a few more cores
     * might (1g).
     */
    public static final List<Long> RATES_BITS_PER_SEC =
        List.of(100_000_000L, 200_000_000L, 300_000_000L, 500_000_000L, 1_000_000_000L);

    /**
     * The header of the calibration file.
     */
    public static final String CSV_HEADER = "topology,workload,load,flows,rate_bits_per_sec,calibrated_at";

    /**
     * One rate tried.
     *
     * @param rateBitsPerSec the rate.
     * @param runs           each scheme's run's invariants.
     */
    public record Probe(long rateBitsPerSec, Map<String, Fidelity> runs)
    {
        /**
         * Whether every run kept its invariants.
         *
         * @return true if so.
         */
        public boolean held()
        {
            return !runs.isEmpty() && runs.values().stream().noneMatch(Fidelity::isBroken);
        }
    }

    /**
     * What the search found.
     *
     * @param rateBitsPerSec the highest rate whose runs held, 0 if not even the lowest did.
     * @param probes         the rates tried, in the order tried.
     */
    public record Result(long rateBitsPerSec, List<Probe> probes)
    {
    }

    /**
     * A rate on record.
     *
     * @param rateBitsPerSec the calibrated rate, 0 if none held.
     * @param calibratedAt   when, as recorded.
     */
    public record Recorded(long rateBitsPerSec, String calibratedAt)
    {
    }

    private Calibration()
    {
    }

    /**
     * Search.
     *
     * @param base       the experiment's settings: topology, workload, flows, seed, testbed, largest load and results
     *                   directory (each probe writes to {@code rate-RATE} in it); its rate and schemes are replaced.
     * @param topologyAt the fabric at a rate.
     * @param prefix     of the probes' namespace names.
     * @param out        where progress goes.
     * @return what it found.
     * @throws IOException if an experiment fails.
     */
    public static Result run(final ExperimentSettings base, final LongFunction<Topology> topologyAt,
        final String prefix, final PrintStream out) throws IOException
    {
        final List<String> schemes = List.of("pfabric", "loopback".equals(base.testbed()) ? "droptail" : "tcp");
        final List<Probe> probes = new ArrayList<>();
        int low = 0;
        int high = RATES_BITS_PER_SEC.size() - 1;
        long best = 0;
        while (low <= high)
        {
            final int middle = (low + high) >>> 1;
            final long rate = RATES_BITS_PER_SEC.get(middle);
            out.printf(Locale.ROOT, "pfabric experiment --calibrate: trying %s (%s, %s at load %s, %,d flows)%n",
                Rates.format(rate), base.topologySpec(), base.workload(),
                ExperimentSettings.loadLabel(load(base)), base.flows());
            final ExperimentSettings settings = new ExperimentSettings(base.testbed(), base.topologySpec(),
                topologyAt.apply(rate), rate, base.workload(), List.of(load(base)), schemes, base.flows(),
                base.seed(), base.out().resolve("rate-" + Rates.format(rate)), base.congestionControl(),
                base.tcpRtoMinNs(), base.graceNs(), base.commandLine(), null);
            final Experiment experiment = new Experiment(settings, out, prefix).calibrating();
            final Probe probe = new Probe(rate, experiment.runStoppingOnSignal("pfabric experiment --calibrate")
                .fidelity());
            probes.add(probe);
            out.printf(Locale.ROOT, "pfabric experiment --calibrate: %s %s%n", Rates.format(rate),
                probe.held() ? "kept its invariants" : "broke them: " + probe.runs().entrySet().stream()
                    .filter(run -> run.getValue().isBroken())
                    .map(run -> run.getKey() + " " + run.getValue().label()).toList());
            if (probe.held())
            {
                best = rate;
                low = middle + 1;
            }
            else
            {
                high = middle - 1;
            }
        }
        return new Result(best, List.copyOf(probes));
    }

    /**
     * The calibration file of a project checkout: {@code .pfabric/calibration.csv} under {@code pfabric.home}.
     *
     * @return the path.
     */
    public static Path file()
    {
        return Path.of(System.getProperty("pfabric.home", "."), ".pfabric", "calibration.csv");
    }

    /**
     * Record a result, in place of any earlier one for the same topology and workload.
     *
     * @param file     the calibration file.
     * @param settings what was calibrated.
     * @param result   what was found.
     * @throws IOException if the file cannot be written.
     */
    public static void record(final Path file, final ExperimentSettings settings, final Result result)
        throws IOException
    {
        final List<String> lines = new ArrayList<>();
        lines.add(CSV_HEADER);
        if (Files.exists(file))
        {
            for (final String line : Files.readAllLines(file, StandardCharsets.UTF_8))
            {
                if (!line.equals(CSV_HEADER) && !line.isBlank() &&
                    !line.startsWith(key(settings.topologySpec(), settings.workload())))
                {
                    lines.add(line);
                }
            }
        }
        lines.add(key(settings.topologySpec(), settings.workload()) + String.format(Locale.ROOT, "%s,%d,%d,%s",
            ExperimentSettings.loadLabel(load(settings)), settings.flows(), result.rateBitsPerSec(),
            Instant.now().truncatedTo(ChronoUnit.SECONDS)));
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.write(file, lines, StandardCharsets.UTF_8);
    }

    /**
     * The rate on record for a topology and a workload.
     *
     * @param file         the calibration file.
     * @param topologySpec e.g. {@code star:4}.
     * @param workload     e.g. {@code websearch}.
     * @return the rate, or empty if none is recorded (or the file cannot be read).
     */
    public static Optional<Recorded> recorded(final Path file, final String topologySpec, final String workload)
    {
        try
        {
            if (!Files.exists(file))
            {
                return Optional.empty();
            }
            for (final String line : Files.readAllLines(file, StandardCharsets.UTF_8))
            {
                if (line.startsWith(key(topologySpec, workload)))
                {
                    final String[] fields = line.split(",", -1);
                    return Optional.of(new Recorded(Long.parseLong(fields[4]), fields[5]));
                }
            }
            return Optional.empty();
        }
        catch (final IOException | RuntimeException ex)
        {
            return Optional.empty();
        }
    }

    /**
     * The load calibrated at: the largest of the settings', the most the machine is asked for. The settings hold at
     * least one load (ExperimentSettings refuses none), so the maximum exists.
     */
    private static double load(final ExperimentSettings settings)
    {
        return settings.loads().stream().mapToDouble(Double::doubleValue).max().orElseThrow();
    }

    private static String key(final String topologySpec, final String workload)
    {
        return topologySpec + "," + workload + ",";
    }
}
