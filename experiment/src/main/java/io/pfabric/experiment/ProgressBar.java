package io.pfabric.experiment;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The experiment's progress on standard error: flows finished of all the emulated runs, the current phase, the time
 * spent and an estimate of the time left. Redrawn in place every second on a terminal, a line every 10 s otherwise.
 */
final class ProgressBar
{
    private static final int WIDTH = 30;

    private final PrintStream out;
    private final long total;
    private final boolean terminal = null != System.console();
    private final long intervalNs = TimeUnit.SECONDS.toNanos(null != System.console() ? 1 : 10);
    private volatile LongSupplier done = () -> 0;
    private volatile String phase = "";
    private volatile boolean running;
    private long startNs;
    private boolean interrupted;
    private Thread thread;

    /**
     * A bar.
     *
     * @param out   where to draw it.
     * @param total flows of every emulated run together.
     */
    ProgressBar(final PrintStream out, final long total)
    {
        this.out = out;
        this.total = Math.max(1, total);
    }

    /**
     * Start drawing.
     */
    synchronized void start()
    {
        startNs = System.nanoTime();
        running = true;
        thread = new Thread(this::draw, "experiment-progress");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Name what is happening now; printed at once on a line of its own.
     *
     * @param text such as {@code tcp at load 0.6}.
     */
    void phase(final String text)
    {
        phase = text;
        synchronized (this)
        {
            out.print(terminal ? "\r\033[K" : "");
            out.println("pfabric experiment: " + text);
        }
    }

    /**
     * Warn at once, on a line of its own, whatever the phase: an invariant of the run broke.
     *
     * @param text what broke.
     */
    void warn(final String text)
    {
        synchronized (this)
        {
            out.print(terminal ? "\r\033[K" : "");
            out.println("pfabric experiment: WARNING " + text);
        }
    }

    /**
     * Where the count of finished flows comes from from now on.
     *
     * @param finished flows finished of all runs so far.
     */
    void tracking(final LongSupplier finished)
    {
        done = finished;
    }

    /**
     * Flows finished of all runs so far.
     *
     * @return the count.
     */
    long done()
    {
        return done.getAsLong();
    }

    /**
     * Stop drawing without a last bar, which after an interruption would count the flows cut short as finished.
     */
    void interrupt()
    {
        final Thread current;
        synchronized (this)
        {
            interrupted = true;
            if (!running)
            {
                return;
            }
            running = false;
            current = thread;
            out.print(terminal ? "\r\033[K" : "");
        }
        current.interrupt();
    }

    /**
     * Where an interrupted run was.
     *
     * @return e.g. {@code during pfabric at load 0.5, 0:12 into the run}.
     */
    synchronized String whereInterrupted()
    {
        if (0 == startNs)
        {
            return "before the first run began";
        }
        return "during " + phase + ", " + clock(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNs)) +
            " into the run";
    }

    /**
     * Stop drawing and end the line.
     */
    void close()
    {
        final Thread current;
        synchronized (this)
        {
            if (!running || interrupted)
            {
                return;
            }
            running = false;
            current = thread;
        }
        current.interrupt();
        try
        {
            current.join(TimeUnit.SECONDS.toMillis(2));
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        synchronized (this)
        {
            line();
            out.println();
        }
    }

    private void draw()
    {
        while (running)
        {
            try
            {
                TimeUnit.NANOSECONDS.sleep(intervalNs);
            }
            catch (final InterruptedException ex)
            {
                return;
            }
            synchronized (this)
            {
                if (running)
                {
                    line();
                    if (!terminal)
                    {
                        out.println();
                    }
                }
            }
        }
    }

    private void line()
    {
        final long finished = Math.min(total, done.getAsLong());
        final double fraction = (double)finished / total;
        final long elapsedSec = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNs);
        final int filled = (int)Math.round(fraction * WIDTH);
        final String left = finished > 0 ? clock(Math.round(elapsedSec * (1 - fraction) / fraction)) : "?";
        out.print(String.format(Locale.ROOT, "%s[%s%s] %3.0f%% %,d/%,d flows, %s elapsed, ~%s left | %s",
            terminal ? "\r\033[K" : "", "#".repeat(filled), ".".repeat(WIDTH - filled), fraction * 100, finished,
            total, clock(elapsedSec), left, phase));
        out.flush();
    }

    private static String clock(final long seconds)
    {
        return String.format(Locale.ROOT, "%d:%02d", seconds / 60, seconds % 60);
    }
}
