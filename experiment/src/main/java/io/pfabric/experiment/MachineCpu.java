package io.pfabric.experiment;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The machine's CPU time from {@code /proc/stat}: the aggregate {@code cpu} line's jiffies, idle (idle and iowait) and
 * in all, so that the idle share of an interval is the difference of two readings.
 *
 * @param idleJiffies  idle and iowait time of every CPU together.
 * @param totalJiffies all time of every CPU together.
 */
public record MachineCpu(long idleJiffies, long totalJiffies)
{
    private static final Path PROC_STAT = Path.of("/proc/stat");

    /**
     * Read {@code /proc/stat} now.
     *
     * @return the reading.
     * @throws IOException if it cannot be read or has no {@code cpu} line.
     */
    public static MachineCpu read() throws IOException
    {
        return parse(Files.readString(PROC_STAT, StandardCharsets.US_ASCII));
    }

    /**
     * The aggregate line of a {@code /proc/stat} text.
     *
     * @param text the file.
     * @return the reading.
     * @throws IOException if it has no {@code cpu} line.
     */
    static MachineCpu parse(final String text) throws IOException
    {
        for (final String line : text.split("\n"))
        {
            if (line.startsWith("cpu "))
            {
                final String[] fields = line.trim().split("\\s+");
                long total = 0;
                // guest time is counted in user time already: user, nice, system, idle, iowait, irq, softirq, steal
                for (int i = 1; i < Math.min(fields.length, 9); i++)
                {
                    total += Long.parseLong(fields[i]);
                }
                final long idle = Long.parseLong(fields[4]) + (fields.length > 5 ? Long.parseLong(fields[5]) : 0);
                return new MachineCpu(idle, total);
            }
        }
        throw new IOException("/proc/stat has no aggregate cpu line");
    }

    /**
     * The idle share of the machine's CPU time between an earlier reading and this one.
     *
     * @param before the earlier reading.
     * @return 0 to 1, or NaN if no time passed.
     */
    public double idleSince(final MachineCpu before)
    {
        final long total = totalJiffies - before.totalJiffies;
        return total <= 0 ? Double.NaN : (double)(idleJiffies - before.idleJiffies) / total;
    }
}
