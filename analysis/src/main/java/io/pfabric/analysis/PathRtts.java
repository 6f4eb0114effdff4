package io.pfabric.analysis;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The base RTT of every path of a fabric, by host index: what normalized FCT divides by. Stored as
 * {@code base-rtt.csv} with the header {@code src,dst,base_rtt_ns}, one row per ordered pair of hosts.
 */
public final class PathRtts implements IdealScheduler.BaseRtt
{
    /**
     * The file's header row.
     */
    public static final String HEADER = "src,dst,base_rtt_ns";

    private final List<String> hostNames;
    private final long[][] rttNs;

    private PathRtts(final List<String> hostNames, final long[][] rttNs)
    {
        this.hostNames = List.copyOf(hostNames);
        this.rttNs = rttNs;
    }

    /**
     * Every path with the same base RTT.
     *
     * @param hostNames names by index.
     * @param rttNs     the base RTT.
     * @return the table.
     */
    public static PathRtts uniform(final List<String> hostNames, final long rttNs)
    {
        return byClass(hostNames, (source, destination) -> rttNs);
    }

    /**
     * Each path's base RTT from a function of its two ends (such as: same switch or not).
     *
     * @param hostNames names by index.
     * @param rtt       the base RTT of a pair.
     * @return the table.
     */
    public static PathRtts byClass(final List<String> hostNames, final IdealScheduler.BaseRtt rtt)
    {
        final int n = hostNames.size();
        final long[][] table = new long[n][n];
        for (int source = 0; source < n; source++)
        {
            for (int destination = 0; destination < n; destination++)
            {
                table[source][destination] = source == destination ? 0 : rtt.nanos(source, destination);
            }
        }
        return new PathRtts(hostNames, table);
    }

    /**
     * {@inheritDoc}
     */
    public long nanos(final int sourceHost, final int destinationHost)
    {
        return rttNs[sourceHost][destinationHost];
    }

    /**
     * The hosts' names, by index.
     *
     * @return the names.
     */
    public List<String> hostNames()
    {
        return hostNames;
    }

    /**
     * A host's index.
     *
     * @param name the host's name.
     * @return its index.
     * @throws IllegalArgumentException if no host has that name.
     */
    public int hostIndex(final String name)
    {
        final int index = hostNames.indexOf(name);
        if (index < 0)
        {
            throw new IllegalArgumentException("host '" + name + "' is not in the base RTT table");
        }
        return index;
    }

    /**
     * The largest base RTT of any path.
     *
     * @return nanoseconds.
     */
    public long maxNs()
    {
        return Arrays.stream(rttNs).flatMapToLong(Arrays::stream).max().orElse(0);
    }

    /**
     * Write the table.
     *
     * @param file where.
     * @throws IOException if it cannot be written.
     */
    public void write(final Path file) throws IOException
    {
        try (BufferedWriter writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8))
        {
            writer.write(HEADER);
            writer.newLine();
            for (int source = 0; source < hostNames.size(); source++)
            {
                for (int destination = 0; destination < hostNames.size(); destination++)
                {
                    if (source != destination)
                    {
                        writer.write(hostNames.get(source) + "," + hostNames.get(destination) + "," +
                            rttNs[source][destination]);
                        writer.newLine();
                    }
                }
            }
        }
    }

    /**
     * Read a table written by {@link #write}.
     *
     * @param file the file.
     * @return the table.
     * @throws IOException if it cannot be read, or a line (named by number) is malformed or a pair is missing.
     */
    public static PathRtts read(final Path file) throws IOException
    {
        final List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (lines.isEmpty() || !HEADER.equals(lines.get(0).trim()))
        {
            throw new IOException(file + ": line 1 must be '" + HEADER + "'");
        }
        final List<String> names = new ArrayList<>();
        final List<String[]> rows = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++)
        {
            final String line = lines.get(i).trim();
            if (line.isEmpty())
            {
                continue;
            }
            final String[] fields = line.split(",");
            if (3 != fields.length || !fields[2].matches("[0-9]{1,18}"))
            {
                throw new IOException(file + ": line " + (i + 1) + " is not src,dst,base_rtt_ns: '" + line + "'");
            }
            for (int f = 0; f < 2; f++)
            {
                if (!names.contains(fields[f]))
                {
                    names.add(fields[f]);
                }
            }
            rows.add(fields);
        }
        final long[][] table = new long[names.size()][names.size()];
        for (final long[] row : table)
        {
            Arrays.fill(row, -1);
        }
        for (final String[] row : rows)
        {
            table[names.indexOf(row[0])][names.indexOf(row[1])] = Long.parseLong(row[2]);
        }
        for (int source = 0; source < names.size(); source++)
        {
            table[source][source] = 0;
            for (int destination = 0; destination < names.size(); destination++)
            {
                if (table[source][destination] < 0)
                {
                    throw new IOException(file + ": no base RTT from " + names.get(source) + " to " +
                        names.get(destination));
                }
            }
        }
        return new PathRtts(names, table);
    }
}
