package io.pfabric.hostd.workload;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the FCT log that {@link FctLogWriter} writes, with or without the {@code dscp} column and the deadline columns;
 * a row of a log without the first is of DSCP 0, without the others of a flow without a deadline. Cold path.
 */
public final class FctLogReader
{
    /**
     * One row of the log.
     *
     * @param flowId             the flow's id.
     * @param source             the sending host's name.
     * @param destination        the receiving host's name.
     * @param sizeBytes          its size.
     * @param startNs            when it arrived.
     * @param endNs              when its last byte was acknowledged; -1 if it never was.
     * @param timeouts           timeouts it took.
     * @param retransmittedBytes bytes it sent again.
     * @param scheme             the scheme that carried it.
     * @param dscp               the DSCP its packets were marked with; 0 in a log without the column.
     * @param deadlineNs         the time it had to complete from its start; 0 if it had no deadline.
     */
    public record Row(long flowId, String source, String destination, long sizeBytes, long startNs, long endNs,
        int timeouts, long retransmittedBytes, String scheme, int dscp, long deadlineNs)
    {
        /**
         * A row without a deadline.
         *
         * @param flowId             the flow's id.
         * @param source             the sending host's name.
         * @param destination        the receiving host's name.
         * @param sizeBytes          its size.
         * @param startNs            when it arrived.
         * @param endNs              when its last byte was acknowledged; -1 if it never was.
         * @param timeouts           timeouts it took.
         * @param retransmittedBytes bytes it sent again.
         * @param scheme             the scheme that carried it.
         * @param dscp               the DSCP its packets were marked with.
         */
        public Row(final long flowId, final String source, final String destination, final long sizeBytes,
            final long startNs, final long endNs, final int timeouts, final long retransmittedBytes,
            final String scheme, final int dscp)
        {
            this(flowId, source, destination, sizeBytes, startNs, endNs, timeouts, retransmittedBytes, scheme, dscp,
                0);
        }

        /**
         * A row of DSCP 0.
         *
         * @param flowId             the flow's id.
         * @param source             the sending host's name.
         * @param destination        the receiving host's name.
         * @param sizeBytes          its size.
         * @param startNs            when it arrived.
         * @param endNs              when its last byte was acknowledged; -1 if it never was.
         * @param timeouts           timeouts it took.
         * @param retransmittedBytes bytes it sent again.
         * @param scheme             the scheme that carried it.
         */
        public Row(final long flowId, final String source, final String destination, final long sizeBytes,
            final long startNs, final long endNs, final int timeouts, final long retransmittedBytes,
            final String scheme)
        {
            this(flowId, source, destination, sizeBytes, startNs, endNs, timeouts, retransmittedBytes, scheme, 0, 0);
        }

        /**
         * Whether the flow had a deadline.
         *
         * @return true if it had one.
         */
        public boolean hasDeadline()
        {
            return deadlineNs > 0;
        }

        /**
         * Whether the flow had a deadline and completed within it.
         *
         * @return true if it met its deadline.
         */
        public boolean metDeadline()
        {
            return hasDeadline() && isComplete() && fctNs() <= deadlineNs;
        }

        /**
         * Whether the flow completed.
         *
         * @return true if it has an end.
         */
        public boolean isComplete()
        {
            return endNs >= 0;
        }

        /**
         * Its completion time.
         *
         * @return nanoseconds, or -1 if incomplete.
         */
        public long fctNs()
        {
            return isComplete() ? endNs - startNs : -1;
        }
    }

    private FctLogReader()
    {
    }

    /**
     * Read a log.
     *
     * @param file the CSV.
     * @return its rows.
     * @throws IOException              if reading fails.
     * @throws IllegalArgumentException naming the file and line of a malformed row.
     */
    public static List<Row> read(final Path file) throws IOException
    {
        final List<Row> rows = new ArrayList<>();
        int number = 0;
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8))
        {
            final String first = reader.readLine();
            final String header = null == first ? null : first.trim();
            number = 1;
            final String suffix = "," + FctLogWriter.DEADLINE_COLUMNS;
            final boolean withDeadlines = null != header && header.endsWith(suffix);
            final String columns = withDeadlines ? header.substring(0, header.length() - suffix.length()) : header;
            final boolean withDscp = FctLogWriter.HEADER_WITH_DSCP.equals(columns);
            if (!withDscp && !FctLogWriter.HEADER.equals(columns))
            {
                throw new IllegalArgumentException(file + ":1: expected the header '" + FctLogWriter.HEADER +
                    "' or '" + FctLogWriter.HEADER_WITH_DSCP + "', either followed by '" + suffix + "'");
            }
            String line;
            while (null != (line = reader.readLine()))
            {
                number++;
                if (!line.isBlank())
                {
                    rows.add(parse(line.trim(), withDscp, withDeadlines, file + ":" + number + ": "));
                }
            }
        }
        catch (final CharacterCodingException ex)
        {
            throw TraceFile.notText(file, number);
        }
        return rows;
    }

    private static Row parse(final String line, final boolean withDscp, final boolean withDeadlines,
        final String where)
    {
        final String[] fields = line.split(",", -1);
        final int base = withDscp ? 11 : 10;
        final int expected = base + (withDeadlines ? 2 : 0);
        if (expected != fields.length)
        {
            throw new IllegalArgumentException(where + "expected " + expected + " fields, got " + fields.length);
        }
        try
        {
            final long startNs = Long.parseLong(fields[4]);
            final long endNs = fields[5].isEmpty() ? -1 : Long.parseLong(fields[5]);
            if (endNs >= 0 && !fields[6].isEmpty() && Long.parseLong(fields[6]) != endNs - startNs)
            {
                throw new IllegalArgumentException(where + "fct_ns is not end_ns - start_ns");
            }
            final int dscp = withDscp ? Integer.parseInt(fields[10]) : 0;
            if (dscp < 0 || dscp > 63)
            {
                throw new IllegalArgumentException(where + "dscp is not 0 to 63: " + dscp);
            }
            final long deadlineNs = withDeadlines ? deadline(fields[base], fields[base + 1], startNs, endNs, where) : 0;
            return new Row(Long.parseLong(fields[0]), fields[1], fields[2], Long.parseLong(fields[3]), startNs, endNs,
                Integer.parseInt(fields[7]), Long.parseLong(fields[8]), fields[9], dscp, deadlineNs);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(where + "not a number: " + ex.getMessage());
        }
    }

    private static long deadline(final String deadline, final String met, final long startNs, final long endNs,
        final String where)
    {
        if (deadline.isEmpty())
        {
            if (!met.isEmpty())
            {
                throw new IllegalArgumentException(where + "deadline_met without a deadline");
            }
            return 0;
        }
        final long deadlineNs = Long.parseLong(deadline);
        if (deadlineNs <= 0)
        {
            throw new IllegalArgumentException(where + "deadline_ns is positive, or empty for none: " + deadline);
        }
        final String expected = endNs >= 0 && endNs - startNs <= deadlineNs ? "1" : "0";
        if (!expected.equals(met))
        {
            throw new IllegalArgumentException(where + "deadline_met is " + expected + " for this flow, not '" +
                met + "'");
        }
        return deadlineNs;
    }
}
