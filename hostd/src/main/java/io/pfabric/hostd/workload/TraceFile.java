package io.pfabric.hostd.workload;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A workload trace as CSV, hosts by name: {@code flow_id,src,dst,size_bytes,start_ns}, one flow per row in order of
 * start, so that every scheme of an experiment (and Ideal) replays the same arrivals; a trace with flows of other
 * DSCPs than 0 has a column {@code dscp}, and a trace with deadlines a last column {@code deadline_ns} (the time a
 * flow has to complete from its start, empty for a flow without one), so that traces without either read as before.
 */
public final class TraceFile
{
    /**
     * The header row.
     */
    public static final String HEADER = "flow_id,src,dst,size_bytes,start_ns";

    /**
     * The header row of a trace with DSCPs.
     */
    public static final String HEADER_WITH_DSCP = HEADER + ",dscp";

    /**
     * The last column of a trace with deadlines.
     */
    public static final String DEADLINE_COLUMN = "deadline_ns";

    private TraceFile()
    {
    }

    /**
     * Write a trace.
     *
     * @param file      where.
     * @param flows     the flows, host indices into {@code hostNames}.
     * @param hostNames host names by index.
     * @throws IOException if writing fails.
     */
    public static void write(final Path file, final List<WorkloadTrace.FlowSpec> flows, final List<String> hostNames)
        throws IOException
    {
        try (BufferedWriter writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8))
        {
            final boolean withDscp = flows.stream().anyMatch(flow -> 0 != flow.dscp());
            final boolean withDeadlines = flows.stream().anyMatch(WorkloadTrace.FlowSpec::hasDeadline);
            writer.write((withDscp ? HEADER_WITH_DSCP : HEADER) + (withDeadlines ? "," + DEADLINE_COLUMN : ""));
            writer.newLine();
            for (final WorkloadTrace.FlowSpec flow : flows)
            {
                writer.write(flow.flowIndex() + "," + hostNames.get(flow.sourceHost()) + "," +
                    hostNames.get(flow.destinationHost()) + "," + flow.sizeBytes() + "," + flow.startNs());
                if (withDscp)
                {
                    writer.write("," + flow.dscp());
                }
                if (withDeadlines)
                {
                    writer.write("," + (flow.hasDeadline() ? Long.toString(flow.deadlineNs()) : ""));
                }
                writer.newLine();
            }
        }
    }

    /**
     * Read a trace.
     *
     * @param file      the CSV.
     * @param hostNames host names by index; every name in the file must be one of them.
     * @return the flows, host names turned into indices.
     * @throws IOException              if reading fails.
     * @throws IllegalArgumentException naming the file and line of a malformed row.
     */
    public static List<WorkloadTrace.FlowSpec> read(final Path file, final List<String> hostNames) throws IOException
    {
        final Map<String, Integer> indices = new HashMap<>();
        for (int i = 0; i < hostNames.size(); i++)
        {
            indices.put(hostNames.get(i), i);
        }
        final List<WorkloadTrace.FlowSpec> flows = new ArrayList<>();
        int number = 0;
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8))
        {
            final String header = reader.readLine();
            number = 1;
            final String trimmed = null == header ? null : header.trim();
            final String suffix = "," + DEADLINE_COLUMN;
            final boolean withDeadlines = null != trimmed && trimmed.endsWith(suffix);
            final String columns = withDeadlines ? trimmed.substring(0, trimmed.length() - suffix.length()) : trimmed;
            if (!HEADER.equals(columns) && !HEADER_WITH_DSCP.equals(columns))
            {
                throw new IllegalArgumentException(file + ":1: expected the header '" + HEADER + "' or '" +
                    HEADER_WITH_DSCP + "', either followed by '" + suffix + "'");
            }
            final int fieldCount = HEADER.equals(columns) ? 5 : 6;
            String line;
            while (null != (line = reader.readLine()))
            {
                number++;
                if (line.isBlank())
                {
                    continue;
                }
                flows.add(parse(line, fieldCount, withDeadlines, indices, file + ":" + number + ": "));
            }
        }
        catch (final CharacterCodingException ex)
        {
            throw notText(file, number);
        }
        return flows;
    }

    /**
     * A trace and the hosts it names.
     *
     * @param hostNames every host named, in order of first appearance (source before destination).
     * @param flows     the flows, host indices into {@code hostNames}.
     */
    public record Trace(List<String> hostNames, List<WorkloadTrace.FlowSpec> flows)
    {
    }

    /**
     * Read a trace, taking its hosts from the names it uses.
     *
     * @param file the CSV.
     * @return the hosts and the flows.
     * @throws IOException              if reading fails.
     * @throws IllegalArgumentException naming the file and line of a malformed row.
     */
    public static Trace read(final Path file) throws IOException
    {
        final List<String> names = new ArrayList<>();
        int number = 0;
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8))
        {
            String line = reader.readLine();
            number++;
            while (null != line && null != (line = reader.readLine()))
            {
                number++;
                final String[] fields = line.trim().split(",");
                for (int i = 1; i <= 2 && i < fields.length; i++)
                {
                    if (!fields[i].isEmpty() && !names.contains(fields[i]))
                    {
                        names.add(fields[i]);
                    }
                }
            }
        }
        catch (final CharacterCodingException ex)
        {
            throw notText(file, number);
        }
        return new Trace(List.copyOf(names), read(file, names));
    }

    /**
     * The error for a file whose bytes are not UTF-8, naming the line where they stop being.
     *
     * @param file   the file.
     * @param before the last line read whole.
     * @return the error to throw.
     */
    static IllegalArgumentException notText(final Path file, final int before)
    {
        return new IllegalArgumentException(file + ":" + (before + 1) + ": not UTF-8 text");
    }

    private static WorkloadTrace.FlowSpec parse(final String line, final int fieldCount, final boolean withDeadlines,
        final Map<String, Integer> indices, final String where)
    {
        final String[] fields = line.trim().split(",", -1);
        final int expected = fieldCount + (withDeadlines ? 1 : 0);
        if (expected != fields.length)
        {
            throw new IllegalArgumentException(where + "expected " + expected + " fields, got " + fields.length);
        }
        final Integer source = indices.get(fields[1]);
        final Integer destination = indices.get(fields[2]);
        if (null == source || null == destination)
        {
            throw new IllegalArgumentException(where + "unknown host '" + (null == source ? fields[1] : fields[2]) +
                "'");
        }
        if (source.equals(destination))
        {
            throw new IllegalArgumentException(where + "a flow from " + fields[1] + " to itself");
        }
        try
        {
            final long flowIndex = Long.parseLong(fields[0]);
            final long sizeBytes = Long.parseLong(fields[3]);
            final long startNs = Long.parseLong(fields[4]);
            final int dscp = 6 == fieldCount ? Integer.parseInt(fields[5]) : 0;
            if (sizeBytes < 1 || startNs < 0)
            {
                throw new IllegalArgumentException(where + "size must be positive and start not negative");
            }
            if (dscp < 0 || dscp > 63)
            {
                throw new IllegalArgumentException(where + "a DSCP is 0 to 63, not " + dscp);
            }
            final String deadline = withDeadlines ? fields[fieldCount] : "";
            final long deadlineNs = deadline.isEmpty() ? 0 : Long.parseLong(deadline);
            if (!deadline.isEmpty() && deadlineNs <= 0)
            {
                throw new IllegalArgumentException(where + "a deadline is positive, or empty for none: " + deadline);
            }
            return new WorkloadTrace.FlowSpec(flowIndex, source, destination, sizeBytes, startNs, dscp, deadlineNs);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(where + "not a number: " + ex.getMessage());
        }
    }
}
