package io.pfabric.common.packet;

import com.sun.jna.Memory;
import com.sun.jna.Native;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.BitSet;

/**
 * Which cores the data-path threads of the daemons on one machine run on, and at what weight. A switch's forwarder
 * spins between departures to keep its ports' pace, so it wants a core of its own; a host's transport thread sleeps
 * and wakes once or more per packet. On two cores, with the forwarder and two hosts' threads free to go anywhere,
 * a host woken on the forwarder's core delays its departures, and a lone 1 Gb/s flow through one switch took 93 to
 * 111 ms for 10 MB where its wire time is 84 ms (hostd/README.md, "A lone flow"). So:
 * <ul>
 *     <li>a forwarder ({@link #placeForwarder}) takes the highest core of its affinity that no live forwarder on
 *     the machine holds, as long as one core of its affinity stays free of forwarders, and records that it holds
 *     it: a file named by the core, holding the process id, in {@code /run/pfabric/forwarder-cpus};</li>
 *     <li>a host's thread ({@link #placeHost}) keeps off the cores live forwarders hold, as long as one core of its
 *     affinity remains;</li>
 *     <li>both run at nice {@value #NICE} (root or {@code CAP_SYS_NICE}; without, they stay at their weight), and a
 *     thread placed apart ({@link #apart()}) runs real-time ({@link DataPathScheduling}): at nice -20 alone an
 *     ordinary thread sharing the core (a JIT compiler, a client starting) still kept it up to 4 ms, to the end of
 *     its slice, and sixty lone flows had 44 timeouts between them; real-time, ninety had 3, all in one flow.</li>
 * </ul>
 * The system property {@code pfabric.placement=off} leaves every thread where and as it was. Records of processes
 * that are gone are ignored and replaced.
 */
public final class DataPathPlacement implements AutoCloseable
{
    /**
     * The nice value taken: the highest weight an ordinary thread can have.
     */
    public static final int NICE = -20;

    /**
     * The directory of the records, unless the system property {@code pfabric.placement.directory} names another.
     */
    public static final Path DIRECTORY = Path.of("/run/pfabric/forwarder-cpus");

    private static final int PRIO_PROCESS = 0;
    private static final int MASK_BYTES = 128;
    private static final DataPathPlacement NOT_PLACED = new DataPathPlacement(null, "where it was");

    private final Path record;
    private final String description;
    private final boolean apart;

    private DataPathPlacement(final Path record, final String description)
    {
        this(record, description, null != record);
    }

    private DataPathPlacement(final Path record, final String description, final boolean apart)
    {
        this.record = record;
        this.description = description;
        this.apart = apart;
    }

    /**
     * Whether data-path threads are placed: unless the system property {@code pfabric.placement} is {@code off}.
     *
     * @return whether {@link #placeForwarder()} and {@link #placeHost()} do anything.
     */
    public static boolean enabled()
    {
        return !"off".equalsIgnoreCase(System.getProperty("pfabric.placement"));
    }

    /**
     * Pin the calling thread, a forwarder, to a core of its own and raise its weight (above).
     *
     * @return the placement, to close when the thread stops forwarding (it gives the core up).
     */
    public static DataPathPlacement placeForwarder()
    {
        if (!enabled())
        {
            return NOT_PLACED;
        }
        final String weight = raiseWeight();
        final BitSet allowed = affinity();
        if (null == allowed || allowed.cardinality() < 2)
        {
            return new DataPathPlacement(null, "on the cores it had (fewer than two to choose from), " + weight);
        }
        final Path directory = directory();
        try
        {
            Files.createDirectories(directory);
        }
        catch (final IOException ex)
        {
            return new DataPathPlacement(null, "on the cores it had (cannot record one: " + ex.getMessage() + "), " +
                weight);
        }
        final BitSet held = heldCores(directory);
        final BitSet free = (BitSet)allowed.clone();
        free.andNot(held);
        for (int cpu = free.previousSetBit(free.length() - 1); cpu >= 0; cpu = free.previousSetBit(cpu - 1))
        {
            final BitSet others = (BitSet)free.clone();
            others.clear(cpu);
            if (others.isEmpty())
            {
                break;
            }
            final Path record = directory.resolve(Integer.toString(cpu));
            if (claim(record))
            {
                final DataPathPlacement placed = new DataPathPlacement(record, "on core " + cpu + ", " + weight);
                if (pin(single(cpu)))
                {
                    return placed;
                }
                placed.close();
            }
        }
        return new DataPathPlacement(null, "on the cores it had (forwarders hold the others), " + weight);
    }

    /**
     * Keep the calling thread, a host's transport, off the cores forwarders hold, and raise its weight (above).
     *
     * @return the placement (closing it does nothing).
     */
    public static DataPathPlacement placeHost()
    {
        if (!enabled())
        {
            return NOT_PLACED;
        }
        final String weight = raiseWeight();
        final BitSet allowed = affinity();
        if (null == allowed)
        {
            return new DataPathPlacement(null, "on the cores it had, " + weight);
        }
        final BitSet held = heldCores(directory());
        final BitSet left = (BitSet)allowed.clone();
        left.andNot(held);
        if (left.isEmpty() || left.equals(allowed) || !pin(left))
        {
            return new DataPathPlacement(null, "on the cores it had, " + weight);
        }
        return new DataPathPlacement(null, "on cores " + left + " (a forwarder holds " + held + "), " + weight, true);
    }

    /**
     * Whether the thread was placed apart: a forwarder on a core of its own, or a host's thread kept off the cores
     * forwarders hold. {@link DataPathScheduling} then runs it real-time unless told not to.
     *
     * @return true if placed apart.
     */
    public boolean apart()
    {
        return apart;
    }

    /**
     * Where the thread runs and at what weight, in a few words.
     *
     * @return the description.
     */
    public String description()
    {
        return description;
    }

    /**
     * {@link #description()}, followed by ", SCHED_FIFO" if the thread runs real-time.
     *
     * @param realtimeRefusal why the thread does not run real-time ({@link DataPathScheduling}), or null if it does.
     * @return the description.
     */
    public String description(final String realtimeRefusal)
    {
        return null == realtimeRefusal ? description + ", SCHED_FIFO" : description;
    }

    /**
     * Give the core up: remove its record. The thread stays pinned.
     */
    public void close()
    {
        if (null != record)
        {
            try
            {
                if (Long.toString(ProcessHandle.current().pid()).equals(holder(record)))
                {
                    Files.deleteIfExists(record);
                }
            }
            catch (final IOException ignored)
            {
                // a record left behind names a process that is gone, and is ignored
            }
        }
    }

    static Path directory()
    {
        final String named = System.getProperty("pfabric.placement.directory");
        return null == named ? DIRECTORY : Path.of(named);
    }

    /**
     * The cores recorded as held by live processes.
     */
    static BitSet heldCores(final Path directory)
    {
        final BitSet held = new BitSet();
        try (DirectoryStream<Path> records = Files.newDirectoryStream(directory))
        {
            for (final Path record : records)
            {
                final int cpu = cpuOf(record);
                if (cpu >= 0 && alive(holder(record)))
                {
                    held.set(cpu);
                }
            }
        }
        catch (final NoSuchFileException ignored)
        {
            // no forwarder ever recorded a core here
        }
        catch (final IOException ignored)
        {
            // unreadable: nothing is known to be held
        }
        return held;
    }

    private static boolean claim(final Path record)
    {
        final byte[] pid = Long.toString(ProcessHandle.current().pid()).getBytes(StandardCharsets.US_ASCII);
        for (int attempt = 0; attempt < 2; attempt++)
        {
            try
            {
                Files.write(record, pid, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE);
                return true;
            }
            catch (final FileAlreadyExistsException ex)
            {
                if (alive(holder(record)))
                {
                    return false;
                }
                try
                {
                    Files.deleteIfExists(record);
                }
                catch (final IOException ignored)
                {
                    return false;
                }
            }
            catch (final IOException ex)
            {
                return false;
            }
        }
        return false;
    }

    private static int cpuOf(final Path record)
    {
        try
        {
            return Integer.parseInt(record.getFileName().toString());
        }
        catch (final NumberFormatException ex)
        {
            return -1;
        }
    }

    private static String holder(final Path record)
    {
        try
        {
            return new String(Files.readAllBytes(record), StandardCharsets.US_ASCII).trim();
        }
        catch (final IOException ex)
        {
            return "";
        }
    }

    private static boolean alive(final String pid)
    {
        try
        {
            return ProcessHandle.of(Long.parseLong(pid)).map(ProcessHandle::isAlive).orElse(false);
        }
        catch (final NumberFormatException ex)
        {
            return false;
        }
    }

    private static String raiseWeight()
    {
        if (0 == LibC.setpriority(PRIO_PROCESS, LibC.gettid(), NICE))
        {
            return "nice " + NICE;
        }
        final int errno = Native.getLastError();
        return "ordinary weight (nice " + NICE + " " +
            (LibC.EACCES == errno || LibC.EPERM == errno ? "needs root or CAP_SYS_NICE" : LibC.strerror(errno)) + ")";
    }

    static BitSet affinity()
    {
        try (Memory mask = new Memory(MASK_BYTES))
        {
            mask.clear();
            if (LibC.sched_getaffinity(0, MASK_BYTES, mask) < 0)
            {
                return null;
            }
            return BitSet.valueOf(mask.getByteArray(0, MASK_BYTES));
        }
    }

    /**
     * Pin the calling thread to a set of CPUs.
     *
     * @param cpus where it may run.
     * @return false if the kernel refused.
     */
    public static boolean pin(final BitSet cpus)
    {
        try (Memory mask = new Memory(MASK_BYTES))
        {
            mask.clear();
            final byte[] bytes = cpus.toByteArray();
            mask.write(0, bytes, 0, Math.min(bytes.length, MASK_BYTES));
            return 0 == LibC.sched_setaffinity(0, MASK_BYTES, mask);
        }
    }

    private static BitSet single(final int cpu)
    {
        final BitSet cpus = new BitSet();
        cpus.set(cpu);
        return cpus;
    }
}
