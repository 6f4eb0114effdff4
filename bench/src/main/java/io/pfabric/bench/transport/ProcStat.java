package io.pfabric.bench.transport;

import io.pfabric.common.os.Commands;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The whole machine's CPU time from the {@code cpu} line of {@code /proc/stat}: the sum over every CPU of the time
 * spent in user, nice, system, irq, softirq and steal, in USER_HZ ticks. Idle and iowait are not busy; guest and
 * guest_nice are left out because the kernel already counts them in user and nice.
 *
 * @param busyTicks user + nice + system + irq + softirq + steal, in USER_HZ ticks.
 */
public record ProcStat(long busyTicks)
{
    /**
     * Where the kernel publishes the counters.
     */
    public static final Path PATH = Path.of("/proc/stat");

    /**
     * USER_HZ on every Linux architecture the project runs on, used when {@code getconf CLK_TCK} cannot be run.
     */
    public static final long DEFAULT_USER_HZ = 100;

    private static final int USER = 1;
    private static final int NICE = 2;
    private static final int SYSTEM = 3;
    private static final int IRQ = 6;
    private static final int SOFTIRQ = 7;
    private static final int STEAL = 8;

    /**
     * Read the counters now.
     *
     * @return the machine's busy time so far.
     * @throws IOException if {@code /proc/stat} cannot be read or has no {@code cpu} line.
     */
    public static ProcStat read() throws IOException
    {
        return parse(Files.readString(PATH));
    }

    /**
     * Parse the text of {@code /proc/stat}.
     *
     * @param text the whole file, or at least its aggregate {@code cpu} line.
     * @return the busy time it gives.
     * @throws IOException if there is no aggregate {@code cpu} line with at least user, nice and system.
     */
    public static ProcStat parse(final String text) throws IOException
    {
        for (final String line : text.split("\n"))
        {
            final String[] fields = line.trim().split("\\s+");
            if (!"cpu".equals(fields[0]))
            {
                continue;
            }
            if (fields.length <= SYSTEM)
            {
                throw new IOException("/proc/stat: too few fields in '" + line + "'");
            }
            try
            {
                return new ProcStat(field(fields, USER) + field(fields, NICE) + field(fields, SYSTEM) +
                    field(fields, IRQ) + field(fields, SOFTIRQ) + field(fields, STEAL));
            }
            catch (final NumberFormatException ex)
            {
                throw new IOException("/proc/stat: not a number in '" + line + "'", ex);
            }
        }
        throw new IOException("/proc/stat: no aggregate 'cpu' line");
    }

    private static long field(final String[] fields, final int index)
    {
        return index < fields.length ? Long.parseLong(fields[index]) : 0;
    }

    /**
     * The busy time since an earlier reading.
     *
     * @param earlier the reading at the start.
     * @param userHz  ticks per second ({@link #userHz()}).
     * @return microseconds of CPU time, summed over every CPU.
     */
    public long microsSince(final ProcStat earlier, final long userHz)
    {
        return (busyTicks - earlier.busyTicks) * 1_000_000L / userHz;
    }

    /**
     * USER_HZ, the unit of {@code /proc/stat}, from {@code getconf CLK_TCK}.
     *
     * @return ticks per second; {@link #DEFAULT_USER_HZ} if getconf cannot be run or prints no positive number.
     */
    public static long userHz()
    {
        try
        {
            final long hz = Long.parseLong(Commands.run("getconf", "CLK_TCK").trim());
            return hz > 0 ? hz : DEFAULT_USER_HZ;
        }
        catch (final IOException | NumberFormatException ex)
        {
            return DEFAULT_USER_HZ;
        }
    }
}
