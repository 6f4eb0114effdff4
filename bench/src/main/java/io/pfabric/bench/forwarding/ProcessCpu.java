package io.pfabric.bench.forwarding;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The CPU time of the processes that do the forwarding work, from {@code /proc/PID/stat} (utime + stime, in USER_HZ
 * ticks): the benchmark's own JVM (switchd's forwarder runs in it) less its JIT compiler threads (whose work is
 * the JVM's warming up, not forwarding, and lasts longer on a busy machine), the generator's processes (in whose system calls
 * the kernel bridge forwards and a veth delivers) and the kernel's softirq threads (which take over the network
 * receive work that cannot finish inside a system call). On a machine that others use at the same time, this is the
 * benchmark's share of the work, where the whole machine's CPU is everyone's.
 */
final class ProcessCpu
{
    private static final Path PROC = Path.of("/proc");
    private static final int UTIME_FIELD = 13;
    private static final int STIME_FIELD = 14;

    private ProcessCpu()
    {
    }

    /**
     * The kernel's softirq threads, one per CPU.
     *
     * @return their process ids.
     * @throws IOException if {@code /proc} cannot be listed.
     */
    static List<Long> softirqThreads() throws IOException
    {
        final List<Long> pids = new ArrayList<>();
        try (Stream<Path> entries = Files.list(PROC))
        {
            for (final Path entry : entries.toList())
            {
                final String name = entry.getFileName().toString();
                if (!name.chars().allMatch(Character::isDigit))
                {
                    continue;
                }
                try
                {
                    if (Files.readString(entry.resolve("comm")).startsWith("ksoftirqd/"))
                    {
                        pids.add(Long.parseLong(name));
                    }
                }
                catch (final NoSuchFileException ex)
                {
                    // The process ended while the list was read.
                }
            }
        }
        return pids;
    }

    /**
     * The CPU time so far of processes and their descendants; processes that have ended count nothing.
     *
     * @param roots the processes.
     * @return ticks of user and system time.
     */
    static long ticks(final List<ProcessHandle> roots)
    {
        long sum = 0;
        for (final ProcessHandle root : roots)
        {
            sum += root.pid() == ProcessHandle.current().pid() ? ownTicksWithoutCompilers() : ticks(root.pid());
            for (final ProcessHandle child : root.descendants().toList())
            {
                sum += ticks(child.pid());
            }
        }
        return sum;
    }

    /**
     * The CPU time so far of this JVM's threads whose names contain a text, to the nanosecond.
     *
     * @param nameContains such as {@code forwarder}.
     * @return nanoseconds of user and system time; 0 if there is no such thread.
     */
    static long threadNanos(final String nameContains)
    {
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (final Thread thread : Thread.getAllStackTraces().keySet())
        {
            if (thread.getName().contains(nameContains))
            {
                sum += Math.max(0, threads.getThreadCpuTime(thread.threadId()));
            }
        }
        return sum;
    }

    private static long ownTicksWithoutCompilers()
    {
        long sum = 0;
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task")))
        {
            for (final Path task : tasks.toList())
            {
                try
                {
                    final String stat = Files.readString(task.resolve("stat"));
                    final String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    if (!name.startsWith("C1 Compiler") && !name.startsWith("C2 Compiler"))
                    {
                        sum += parseTicks(stat);
                    }
                }
                catch (final IOException ex)
                {
                    // The thread ended while the list was read.
                }
            }
        }
        catch (final IOException ex)
        {
            return 0;
        }
        return sum;
    }

    private static long ticks(final long pid)
    {
        try
        {
            return parseTicks(Files.readString(PROC.resolve(Long.toString(pid)).resolve("stat")));
        }
        catch (final IOException ex)
        {
            return 0;
        }
    }

    /**
     * utime + stime from the text of {@code /proc/PID/stat}.
     *
     * @param stat the file's one line.
     * @return ticks.
     */
    static long parseTicks(final String stat)
    {
        final String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        return Long.parseLong(fields[UTIME_FIELD - 2]) + Long.parseLong(fields[STIME_FIELD - 2]);
    }
}
