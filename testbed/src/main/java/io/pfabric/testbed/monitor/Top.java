package io.pfabric.testbed.monitor;

import io.pfabric.common.topology.Topology;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code pfabric top}: the running testbed's ports and hosts in the terminal, read from its daemons' {@code /metrics}
 * endpoints each interval and redrawn in place (ANSI clear and home), or printed once.
 */
public final class Top
{
    /** ANSI: cursor home, clear the screen. */
    public static final String CLEAR = "\033[H\033[2J";
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT);

    private Top()
    {
    }

    /**
     * Scrape every endpoint into one exposition.
     *
     * @param endpoints the daemons.
     * @param problems  filled with one line per daemon that did not answer.
     * @return the samples of those that did.
     */
    public static PrometheusText scrape(final List<MetricsEndpoint> endpoints, final List<String> problems)
    {
        return scrape(endpoints, null, problems);
    }

    /**
     * Scrape every endpoint of a fabric into one exposition.
     *
     * @param endpoints      the daemons.
     * @param stateDirectory the fabric's state directory, where their records are, or null.
     * @param problems       filled with one line per daemon that did not answer: which, and what to do.
     * @return the samples of those that did.
     */
    public static PrometheusText scrape(final List<MetricsEndpoint> endpoints, final Path stateDirectory,
        final List<String> problems)
    {
        final List<PrometheusText.Sample> samples = new ArrayList<>();
        for (final MetricsEndpoint endpoint : endpoints)
        {
            final StringBuilder body = new StringBuilder();
            try
            {
                final int status = Monitor.get(endpoint.url(), body);
                if (200 == status)
                {
                    samples.addAll(PrometheusText.parse(endpoint.url(), body.toString()).samples());
                }
                else
                {
                    problems.add(endpoint.label() + " at " + endpoint.url() + ": HTTP " + status +
                        advice(endpoint, stateDirectory));
                }
            }
            catch (final IOException ex)
            {
                problems.add(endpoint.label() + " at " + endpoint.url() + ": no answer (" + ex.getMessage() + ")" +
                    advice(endpoint, stateDirectory));
            }
        }
        return new PrometheusText(List.copyOf(samples));
    }

    private static String advice(final MetricsEndpoint endpoint, final Path stateDirectory)
    {
        return null == stateDirectory ? "" : ": if it has stopped, start it again with --metrics, or remove its " +
            "record " + endpoint.file(stateDirectory);
    }

    /**
     * A view as text, then the daemons that did not answer.
     *
     * @param view     the view.
     * @param heading  its first line.
     * @param problems one line per daemon that did not answer.
     * @return the text.
     */
    public static String screen(final TopView view, final String heading, final List<String> problems)
    {
        final StringBuilder screen = new StringBuilder(view.render(heading));
        for (final String problem : problems)
        {
            screen.append(problem).append('\n');
        }
        return screen.toString();
    }

    /**
     * Show the running testbed until interrupted, or once.
     *
     * @param stateDirectory the testbed's state directory.
     * @param out            where to print.
     * @param once           print one view, without ANSI codes, and return.
     * @param intervalNs     time between views, and the interval over which rates are measured.
     * @return the daemons that did not answer for the last view, one line each: which, and what to do.
     * @throws IllegalStateException if no testbed runs.
     * @throws IOException           if the testbed's state cannot be read.
     */
    public static List<String> run(final Path stateDirectory, final PrintStream out, final boolean once,
        final long intervalNs) throws IOException
    {
        return run(stateDirectory, RunningFabrics.TESTBED, out, once, intervalNs);
    }

    /**
     * Show a running fabric until interrupted or it stops running, or once.
     *
     * @param stateDirectory the fabric's state directory.
     * @param name           the fabric's name, for the heading.
     * @param out            where to print.
     * @param once           print one view, without ANSI codes, and return.
     * @param intervalNs     time between views, and the interval over which rates are measured.
     * @return the daemons that did not answer for the last view, one line each: which, and what to do.
     * @throws IllegalStateException if the fabric does not run.
     * @throws IOException           if its state cannot be read.
     */
    public static List<String> run(final Path stateDirectory, final String name, final PrintStream out,
        final boolean once, final long intervalNs) throws IOException
    {
        if (intervalNs <= 0)
        {
            throw new IllegalArgumentException("--interval must be positive");
        }
        final Topology topology = Monitor.runningTestbed(stateDirectory);
        List<MetricsEndpoint> endpoints = MetricsEndpoint.readAll(stateDirectory);
        PrometheusText before = scrape(endpoints, new ArrayList<>());
        long beforeNs = System.nanoTime();
        List<String> problems = List.of();
        while (!Thread.currentThread().isInterrupted())
        {
            LockSupport.parkNanos(intervalNs - (System.nanoTime() - beforeNs));
            problems = new ArrayList<>();
            final PrometheusText now = scrape(endpoints, stateDirectory, problems);
            final long nowNs = System.nanoTime();
            final TopView view = TopView.of(before, now, (nowNs - beforeNs) / 1e9);
            final String heading = String.format(Locale.ROOT, "pfabric top  %s  %s  %d switches, %d hosts, %d " +
                "daemons serving metrics; rates over %.1f s%s", name, LocalTime.now().format(TIME),
                topology.switches().size(), topology.hosts().size(), endpoints.size(), view.intervalSeconds(), once ? "" : " (Ctrl-C quits)");
            final String screen = screen(view, heading, problems);
            out.print(once ? screen : CLEAR + screen);
            out.flush();
            if (once)
            {
                return problems;
            }
            before = now;
            beforeNs = nowNs;
            if (!RunningFabrics.isRunning(stateDirectory))
            {
                out.println("pfabric top: the " + name + " has stopped running");
                out.flush();
                return List.of();
            }
            endpoints = MetricsEndpoint.readAll(stateDirectory);
        }
        return problems;
    }
}
