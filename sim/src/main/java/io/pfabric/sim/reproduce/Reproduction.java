package io.pfabric.sim.reproduce;

import io.pfabric.sim.JobRunner;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code pfabric reproduce}: the paper's figures at a scale, as independent points in one directory, then a report.
 * <p>
 * A directory holds one plan ({@code plan.properties}: scale, seed, commit, figures), its job list
 * ({@code jobs.txt}, one shell command per point, for GNU parallel), a Slurm array script ({@code slurm.sh}), the
 * points' results ({@code points/}, each written whole or not at all, see {@link Points}) and the report. Running in
 * process, planning and collecting all use the same plan, so a run can be stopped, resumed, spread over machines
 * sharing the directory, and collected at any time from whatever is done. A plan binds the directory to its scale,
 * seed and commit: points made by other sources or at another scale never mix.
 */
public final class Reproduction
{
    /**
     * The plan's file in a directory.
     */
    public static final String PLAN_FILE = "plan.properties";

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final Pattern FIGURE_LIST = Pattern.compile("[0-9a-z]+(,[0-9a-z]+)*");

    private Reproduction()
    {
    }

    /**
     * What a plan binds a directory to.
     *
     * @param scale   the scale.
     * @param seed    the seed.
     * @param commit  the commit of the sources that planned it.
     * @param figures the figures asked for, in the paper's order.
     */
    public record Plan(Scale scale, long seed, String commit, List<Figure> figures)
    {
        /**
         * The points of the figures, each once, in the figures' order.
         *
         * @return the points.
         */
        public List<Point> points()
        {
            final Map<String, Point> byId = new LinkedHashMap<>();
            for (final Figure figure : figures)
            {
                for (final Point point : figure.points())
                {
                    byId.putIfAbsent(point.id(), point);
                }
            }
            return List.copyOf(byId.values());
        }
    }

    /**
     * The figures {@code --only} names, or all.
     *
     * @param scale the scale.
     * @param seed  the seed.
     * @param only  figure names, such as 7 and 5a; empty for every figure.
     * @return the figures in the paper's order.
     * @throws IllegalArgumentException naming {@code --only} and listing the figures if one does not exist.
     */
    public static List<Figure> select(final Scale scale, final long seed, final List<String> only)
    {
        final List<Figure> all = Figures.all(scale, seed);
        if (only.isEmpty())
        {
            return all;
        }
        final List<String> known = all.stream().map(Figure::id).toList();
        for (final String id : only)
        {
            if (!known.contains(id))
            {
                throw new IllegalArgumentException("--only: no figure '" + id + "'; the figures are " +
                    String.join(", ", known));
            }
        }
        return all.stream().filter(figure -> only.contains(figure.id())).toList();
    }

    /**
     * Write a plan into a directory, or check the one there: {@code plan.properties}, {@code jobs.txt} and
     * {@code slurm.sh}. A directory planned at another scale, seed or commit is refused before anything is written.
     *
     * @param dir      the directory, created if missing.
     * @param option   the option that named it, for errors.
     * @param scale    the scale.
     * @param seed     the seed.
     * @param only     the figures, or empty for all.
     * @param commit   the commit of the sources.
     * @param launcher the command that runs pfabric on the machines of the jobs, as shell text.
     * @return the plan.
     * @throws IOException if a file cannot be written.
     */
    public static Plan plan(final Path dir, final String option, final Scale scale, final long seed,
        final List<String> only, final String commit, final String launcher) throws IOException
    {
        final List<Figure> figures = select(scale, seed, only);
        if (Files.exists(dir.resolve(PLAN_FILE)))
        {
            final Properties existing = readProperties(dir);
            if (!scale.name().equals(existing.getProperty("scale")) ||
                !Long.toString(seed).equals(existing.getProperty("seed")))
            {
                throw new IllegalArgumentException(option + ": " + dir + " holds a plan at scale " + existing.getProperty("scale") +
                    ", seed " + existing.getProperty("seed") + "; give another directory, or --scale " +
                    existing.getProperty("scale") + " --seed " + existing.getProperty("seed") + " to resume it");
            }
            requireCommit(dir, existing, commit, option);
        }
        final Plan plan = new Plan(scale, seed, commit, figures);
        final Path absolute = dir.toAbsolutePath().normalize();
        Files.createDirectories(absolute.resolve("points"));
        final Properties properties = new Properties();
        properties.setProperty("scale", scale.name());
        properties.setProperty("seed", Long.toString(seed));
        properties.setProperty("commit", commit);
        properties.setProperty("figures", String.join(",", figures.stream().map(Figure::id).toList()));
        final StringBuilder text = new StringBuilder("# pfabric reproduce: what this directory's points are\n");
        for (final String key : List.of("scale", "seed", "commit", "figures"))
        {
            text.append(key).append('=').append(properties.getProperty(key)).append('\n');
        }
        Points.writeAtomically(absolute.resolve(PLAN_FILE), text.toString());
        final StringBuilder jobs = new StringBuilder();
        for (final Point point : plan.points())
        {
            jobs.append(launcher).append(" reproduce --out ").append(shellWord(absolute.toString()))
                .append(" --point ").append(shellWord(point.id())).append('\n');
        }
        Points.writeAtomically(absolute.resolve("jobs.txt"), jobs.toString());
        Points.writeAtomically(absolute.resolve("slurm.sh"), "#!/bin/bash\n" +
            "# A Slurm array of this plan's points, one task each: sbatch " + shellWord(absolute + "/slurm.sh") +
            "\n# Every machine must see this directory at the same path; then: pfabric reproduce --collect " +
            shellWord(absolute.toString()) + "\n" +
            "#SBATCH --job-name=pfabric-reproduce\n" +
            "#SBATCH --array=1-" + plan.points().size() + "\n" +
            "#SBATCH --cpus-per-task=1\n" +
            "#SBATCH --output=" + absolute + "/slurm-%A_%a.out\n" +
            "set -euo pipefail\n" +
            "sed -n \"${SLURM_ARRAY_TASK_ID}p\" " + shellWord(absolute + "/jobs.txt") + " | bash\n");
        return plan;
    }

    /**
     * The plan of a directory, checked against the sources' commit.
     *
     * @param dir    the directory.
     * @param commit the commit of the sources now.
     * @param option the option that named the directory, for the error.
     * @return the plan.
     * @throws IOException if the plan cannot be read.
     * @throws IllegalArgumentException if there is no plan, or it is of another commit.
     */
    public static Plan readPlan(final Path dir, final String commit, final String option) throws IOException
    {
        if (!Files.exists(dir.resolve(PLAN_FILE)))
        {
            throw new IllegalArgumentException(option + ": " + dir + " has no plan (" + PLAN_FILE + "); make one " +
                "with --plan " + dir + ", or run with --out " + dir);
        }
        final Properties properties = readProperties(dir);
        requireCommit(dir, properties, commit, option);
        final String figures = properties.getProperty("figures", "");
        if (!FIGURE_LIST.matcher(figures).matches())
        {
            throw new IllegalArgumentException(option + ": " + dir.resolve(PLAN_FILE) + " names no figures; plan " +
                "the directory again with --plan");
        }
        final Scale scale = Scale.named(properties.getProperty("scale", ""));
        final long seed;
        try
        {
            seed = Long.parseLong(properties.getProperty("seed", ""));
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(option + ": " + dir.resolve(PLAN_FILE) + " has no seed; plan the " +
                "directory again with --plan", ex);
        }
        return new Plan(scale, seed, properties.getProperty("commit"), select(scale, seed,
            List.of(figures.split(","))));
    }

    /**
     * Run one point of a planned directory, unless it is done: what a line of {@code jobs.txt} does.
     *
     * @param dir      the directory.
     * @param id       the point.
     * @param commit   the commit of the sources.
     * @param progress where to report.
     * @throws IOException if a file cannot be read or written.
     */
    public static void runPoint(final Path dir, final String id, final String commit, final PrintStream progress)
        throws IOException
    {
        final Plan plan = readPlan(dir, commit, "--out");
        final Point point = plan.points().stream().filter(p -> p.id().equals(id)).findFirst()
            .orElseThrow(() -> new IllegalArgumentException("--point: the plan in " + dir + " has no point '" + id +
                "'; its points are the lines of " + dir.resolve("jobs.txt")));
        final String done = runIfNeeded(dir, point, progress);
        if (null == done)
        {
            return;
        }
        final int left = countLeft(dir, plan);
        final double meanSec = meanPointSeconds(dir, plan);
        progress.printf(Locale.ROOT, "reproduce: %s; %,d points of the plan left, about %.1f minutes of one core at " +
            "the mean so far%n", done, left, left * meanSec / 60);
    }

    /**
     * Plan a directory and run every point not done, in this process, then write the report.
     *
     * @param dir      the directory.
     * @param scale    the scale.
     * @param seed     the seed.
     * @param only     the figures, or empty for all.
     * @param commit   the commit of the sources.
     * @param launcher the command that runs pfabric, as shell text, for the job list.
     * @param jobs     points run at once.
     * @param progress where to report: a line per point done, with the points and the time left.
     * @return the report's entries.
     * @throws IOException if a file cannot be read or written.
     */
    public static List<Report.Entry> run(final Path dir, final Scale scale, final long seed,
        final List<String> only, final String commit, final String launcher, final int jobs,
        final PrintStream progress) throws IOException
    {
        if (jobs < 1)
        {
            throw new IllegalArgumentException("--jobs must be at least 1, not " + jobs);
        }
        final long startNs = System.nanoTime();
        final Plan plan = plan(dir, "--out", scale, seed, only, commit, launcher);
        final List<Point> todo = new ArrayList<>();
        final List<String> done = new ArrayList<>();
        for (final Point point : plan.points())
        {
            if (Points.State.DONE == Points.state(dir, point.id()))
            {
                done.add(point.id());
            }
            else
            {
                todo.add(point);
            }
        }
        if (!done.isEmpty())
        {
            progress.printf(Locale.ROOT, "reproduce: %,d of %,d points already done in %s, skipping them: %s%n",
                done.size(), plan.points().size(), dir, abbreviate(done));
        }
        final AtomicInteger left = new AtomicInteger(todo.size());
        final AtomicLong spentNs = new AtomicLong();
        final List<JobRunner.Job<Void>> work = new ArrayList<>();
        for (final Point point : todo)
        {
            work.add(() ->
            {
                final long pointStartNs = System.nanoTime();
                final String doneLine = runIfNeeded(dir, point, progress);
                spentNs.addAndGet(System.nanoTime() - pointStartNs);
                final int remaining = left.decrementAndGet();
                final int finished = todo.size() - remaining;
                final double meanSec = spentNs.get() / 1e9 / finished;
                progress.printf(Locale.ROOT, "reproduce: %s; %,d points left, about %.1f minutes left%n",
                    null == doneLine ? point.id() + " done meanwhile" : doneLine, remaining,
                    remaining * meanSec / Math.min(jobs, Math.max(1, remaining)) / 60);
                return null;
            });
        }
        try
        {
            JobRunner.run(work, jobs, "reproduce-point");
        }
        catch (final RuntimeException | Error ex)
        {
            throw new IllegalStateException("a point failed: " + ex, ex);
        }
        deleteTree(dir.resolve("work"));
        final long wallNs = System.nanoTime() - startNs;
        return report(dir, plan, String.format(Locale.ROOT, "%.1f minutes for this run of %,d points (%d at once); " +
            "%.1f minutes for all points, summed", wallNs / 6e10, todo.size(), jobs,
            summedSeconds(dir, plan) / 60), progress);
    }

    /**
     * Write the report of a planned directory from whatever points are done.
     *
     * @param dir      the directory.
     * @param commit   the commit of the sources.
     * @param progress where to report.
     * @return the report's entries.
     * @throws IOException if a file cannot be read or written.
     */
    public static List<Report.Entry> collect(final Path dir, final String commit, final PrintStream progress)
        throws IOException
    {
        final Plan plan = readPlan(dir, commit, "--collect");
        for (final Point point : plan.points())
        {
            if (Points.State.TRUNCATED == Points.state(dir, point.id()))
            {
                progress.printf(Locale.ROOT, "reproduce: %s is truncated; not counted, its job runs it again%n",
                    Points.resultFile(dir, point.id()));
            }
        }
        return report(dir, plan, String.format(Locale.ROOT, "%.1f minutes for the points done, summed from " +
            "their own timings (collected)", summedSeconds(dir, plan) / 60), progress);
    }

    private static List<Report.Entry> report(final Path dir, final Plan plan, final String wallTime,
        final PrintStream progress) throws IOException
    {
        final Map<String, List<String>> byId = new LinkedHashMap<>();
        for (final Point point : plan.points())
        {
            final List<String> lines = Points.read(dir, point.id());
            if (null != lines)
            {
                byId.put(point.id(), lines);
            }
        }
        final Figure.Results results = new Figure.Results(byId);
        final List<Report.Entry> entries = new ArrayList<>();
        for (final Figure figure : Figures.all(plan.scale(), plan.seed()))
        {
            if (!plan.figures().stream().map(Figure::id).toList().contains(figure.id()))
            {
                continue;
            }
            final int done = (int)figure.points().stream().filter(p -> byId.containsKey(p.id())).count();
            final boolean complete = figure.available() && done == figure.points().size();
            entries.add(new Report.Entry(figure, done, complete ? figure.judge().judge(results) : null));
        }
        Report.write(dir, "pFabric's evaluation (§5-§6), reproduced at scale " + plan.scale().name(),
            Report.provenance(plan.commit(), plan.scale(), plan.seed(), byId.size(), plan.points().size(), wallTime),
            entries);
        progress.printf(Locale.ROOT, "reproduce: %,d of %,d points done; report in %s and %s%n", byId.size(),
            plan.points().size(), dir.resolve("report.md"), dir.resolve("report.html"));
        for (final Report.Entry entry : entries)
        {
            progress.printf(Locale.ROOT, "reproduce: Fig %s: %s%n", entry.figure().id(), entry.verdict());
        }
        return entries;
    }

    private static String runIfNeeded(final Path dir, final Point point, final PrintStream progress)
        throws IOException
    {
        final Points.State state = Points.state(dir, point.id());
        if (Points.State.DONE == state)
        {
            progress.printf(Locale.ROOT, "reproduce: %s is already done, skipping it%n", point.id());
            return null;
        }
        if (Points.State.TRUNCATED == state)
        {
            progress.printf(Locale.ROOT, "reproduce: %s is truncated (no end line); not counted, running %s again%n",
                Points.resultFile(dir, point.id()), point.id());
        }
        final String name = point.id().replace('/', '_');
        final Path work = dir.resolve("work").resolve(name + "-" + ProcessHandle.current().pid() + "-" +
            Thread.currentThread().threadId());
        deleteTree(work);
        Files.createDirectories(work);
        final long startNs = System.nanoTime();
        final long startCpuNs = THREADS.getCurrentThreadCpuTime();
        final Path log = dir.resolve("points").resolve(name + ".log");
        final List<String> lines;
        try (OutputStream out = Files.newOutputStream(log);
            PrintStream logStream = new PrintStream(out, true, StandardCharsets.UTF_8))
        {
            lines = point.run(work, logStream);
        }
        finally
        {
            deleteTree(work);
        }
        final double wallSec = (System.nanoTime() - startNs) / 1e9;
        final double cpuSec = (THREADS.getCurrentThreadCpuTime() - startCpuNs) / 1e9;
        Points.write(dir, point.id(), lines);
        Points.writeAtomically(Points.timeFile(dir, point.id()), String.format(Locale.ROOT,
            "wall_s=%.1f%ncpu_s=%.1f%nload_average=%s%n", wallSec, cpuSec, Provenance.loadAverage()));
        return String.format(Locale.ROOT, "done %s in %.1f s (%.1f s CPU)", point.id(), wallSec, cpuSec);
    }

    private static int countLeft(final Path dir, final Plan plan) throws IOException
    {
        int left = 0;
        for (final Point point : plan.points())
        {
            left += Points.State.DONE == Points.state(dir, point.id()) ? 0 : 1;
        }
        return left;
    }

    private static double summedSeconds(final Path dir, final Plan plan) throws IOException
    {
        double sum = 0;
        for (final Point point : plan.points())
        {
            sum += seconds(dir, point.id());
        }
        return sum;
    }

    private static double meanPointSeconds(final Path dir, final Plan plan) throws IOException
    {
        double sum = 0;
        int count = 0;
        for (final Point point : plan.points())
        {
            final double seconds = seconds(dir, point.id());
            if (seconds > 0)
            {
                sum += seconds;
                count++;
            }
        }
        return 0 == count ? 0 : sum / count;
    }

    private static double seconds(final Path dir, final String id) throws IOException
    {
        final Path file = Points.timeFile(dir, id);
        if (!Files.exists(file))
        {
            return 0;
        }
        for (final String line : Files.readAllLines(file, StandardCharsets.UTF_8))
        {
            if (line.startsWith("wall_s="))
            {
                try
                {
                    return Double.parseDouble(line.substring("wall_s=".length()));
                }
                catch (final NumberFormatException ex)
                {
                    return 0;
                }
            }
        }
        return 0;
    }

    private static Properties readProperties(final Path dir) throws IOException
    {
        final Properties properties = new Properties();
        try (var reader = Files.newBufferedReader(dir.resolve(PLAN_FILE), StandardCharsets.UTF_8))
        {
            properties.load(reader);
        }
        return properties;
    }

    private static void requireCommit(final Path dir, final Properties plan, final String commit,
        final String option)
    {
        if (!commit.equals(plan.getProperty("commit")))
        {
            throw new IllegalArgumentException(option + ": " + dir + " was planned at commit " + plan.getProperty("commit") +
                ", these sources are " + commit + "; their points would mix two versions: use a new directory, or " +
                "check out " + plan.getProperty("commit"));
        }
    }

    private static String abbreviate(final List<String> ids)
    {
        return ids.size() <= 4 ? String.join(", ", ids) : String.join(", ", ids.subList(0, 3)) + " ... " +
            ids.get(ids.size() - 1);
    }

    /**
     * A word as a shell reads it back: as it is if plain, else in single quotes.
     *
     * @param word the word.
     * @return the quoted word.
     */
    public static String shellWord(final String word)
    {
        return word.matches("[A-Za-z0-9_@%+=:,./-]+") ? word : "'" + word.replace("'", "'\\''") + "'";
    }

    private static void deleteTree(final Path root) throws IOException
    {
        if (!Files.exists(root))
        {
            return;
        }
        try (Stream<Path> paths = Files.walk(root))
        {
            for (final Path path : paths.sorted(Comparator.reverseOrder()).toList())
            {
                Files.delete(path);
            }
        }
    }
}
