package io.pfabric.hostd.workload;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Writes the FCT log, one CSV row per flow:
 * {@code flow_id,src,dst,size_bytes,start_ns,end_ns,fct_ns,timeouts,retransmitted_bytes,scheme}; a flow that never
 * completed has empty {@code end_ns} and {@code fct_ns}. A log of flows marked with DSCPs has one more column,
 * {@code dscp} ({@link #HEADER_WITH_DSCP}), by which results split per traffic class; a log without it is of
 * unmarked flows, DSCP 0. A log of a workload with deadlines ends with two more, {@code deadline_ns,deadline_met}
 * ({@link #DEADLINE_COLUMNS}): the time the flow had to complete from its start and 1 if it did (0 if not), both empty
 * for a flow without a deadline. Safe for several threads (the hosts of one run may share a log); cold path.
 * <p>
 * The rows go to a hidden file beside the log ({@code .NAME.partial}) that {@link #close()} renames to the log in one
 * step, so the log is either absent (or the previous run's, whole) or this run's, whole: a process killed while
 * writing never leaves a half log that a reader would take for a whole one.
 */
public final class FctLogWriter implements AutoCloseable
{
    /**
     * The header row.
     */
    public static final String HEADER =
        "flow_id,src,dst,size_bytes,start_ns,end_ns,fct_ns,timeouts,retransmitted_bytes,scheme";

    /**
     * The header row of a log with each flow's DSCP.
     */
    public static final String HEADER_WITH_DSCP = HEADER + ",dscp";

    /**
     * The last columns of a log with deadlines.
     */
    public static final String DEADLINE_COLUMNS = "deadline_ns,deadline_met";

    private final Path file;
    private final Path partial;
    private final BufferedWriter writer;
    private final boolean withDscp;
    private final boolean withDeadlines;
    private boolean closed;

    /**
     * Start a log without DSCPs, which replaces the file at {@link #close()}.
     *
     * @param file where the log goes.
     * @throws IOException if it cannot be created.
     */
    public FctLogWriter(final Path file) throws IOException
    {
        this(file, false);
    }

    /**
     * Start a log, which replaces the file at {@link #close()}.
     *
     * @param file     where the log goes.
     * @param withDscp whether rows have the {@code dscp} column.
     * @throws IOException if it cannot be created.
     */
    public FctLogWriter(final Path file, final boolean withDscp) throws IOException
    {
        this(file, withDscp, false);
    }

    /**
     * Start a log, which replaces the file at {@link #close()}.
     *
     * @param file          where the log goes.
     * @param withDscp      whether rows have the {@code dscp} column.
     * @param withDeadlines whether rows have the {@link #DEADLINE_COLUMNS}.
     * @throws IOException if it cannot be created.
     */
    public FctLogWriter(final Path file, final boolean withDscp, final boolean withDeadlines) throws IOException
    {
        this.file = file;
        this.withDscp = withDscp;
        this.withDeadlines = withDeadlines;
        this.partial = partialOf(file);
        final Path parent = file.toAbsolutePath().getParent();
        if (null != parent)
        {
            Files.createDirectories(parent);
        }
        writer = Files.newBufferedWriter(partial, StandardCharsets.UTF_8);
        writer.write((withDscp ? HEADER_WITH_DSCP : HEADER) + (withDeadlines ? "," + DEADLINE_COLUMNS : ""));
        writer.newLine();
    }

    /**
     * Where the rows of a log go until it is closed.
     *
     * @param file the log.
     * @return {@code .NAME.partial} beside it.
     */
    public static Path partialOf(final Path file)
    {
        return file.resolveSibling("." + file.getFileName() + ".partial");
    }

    /**
     * Append a flow of DSCP 0.
     *
     * @param flowId             the flow's id.
     * @param source             the sending host's name.
     * @param destination        the receiving host's name.
     * @param sizeBytes          its size.
     * @param startNs            when it arrived.
     * @param endNs              when its last byte was acknowledged, negative if never.
     * @param timeouts           timeouts it took.
     * @param retransmittedBytes bytes it sent again.
     * @param scheme             the transport scheme, e.g. pfabric.
     * @throws IOException if writing fails.
     */
    public synchronized void append(
        final long flowId,
        final String source,
        final String destination,
        final long sizeBytes,
        final long startNs,
        final long endNs,
        final int timeouts,
        final long retransmittedBytes,
        final String scheme) throws IOException
    {
        append(flowId, source, destination, sizeBytes, startNs, endNs, timeouts, retransmittedBytes, scheme, 0);
    }

    /**
     * Append a flow with its DSCP, which a log without the {@code dscp} column leaves out.
     *
     * @param flowId             the flow's id.
     * @param source             the sending host's name.
     * @param destination        the receiving host's name.
     * @param sizeBytes          its size.
     * @param startNs            when it arrived.
     * @param endNs              when its last byte was acknowledged, negative if never.
     * @param timeouts           timeouts it took.
     * @param retransmittedBytes bytes it sent again.
     * @param scheme             the transport scheme, e.g. pfabric.
     * @param dscp               the DSCP its packets were marked with, 0 to 63.
     * @throws IOException if writing fails.
     */
    public synchronized void append(
        final long flowId,
        final String source,
        final String destination,
        final long sizeBytes,
        final long startNs,
        final long endNs,
        final int timeouts,
        final long retransmittedBytes,
        final String scheme,
        final int dscp) throws IOException
    {
        append(flowId, source, destination, sizeBytes, startNs, endNs, timeouts, retransmittedBytes, scheme, dscp, 0);
    }

    /**
     * Append a flow with its DSCP and deadline, which a log without their columns leaves out.
     *
     * @param flowId             the flow's id.
     * @param source             the sending host's name.
     * @param destination        the receiving host's name.
     * @param sizeBytes          its size.
     * @param startNs            when it arrived.
     * @param endNs              when its last byte was acknowledged, negative if never.
     * @param timeouts           timeouts it took.
     * @param retransmittedBytes bytes it sent again.
     * @param scheme             the transport scheme, e.g. pfabric.
     * @param dscp               the DSCP its packets were marked with, 0 to 63.
     * @param deadlineNs         the time it had to complete from its start; 0 if it had no deadline.
     * @throws IOException if writing fails.
     */
    public synchronized void append(
        final long flowId,
        final String source,
        final String destination,
        final long sizeBytes,
        final long startNs,
        final long endNs,
        final int timeouts,
        final long retransmittedBytes,
        final String scheme,
        final int dscp,
        final long deadlineNs) throws IOException
    {
        final boolean complete = endNs >= 0;
        writer.write(String.format(Locale.ROOT, "%d,%s,%s,%d,%d,%s,%s,%d,%d,%s", flowId, source, destination,
            sizeBytes, startNs, complete ? Long.toString(endNs) : "", complete ? Long.toString(endNs - startNs) : "",
            timeouts, retransmittedBytes, scheme));
        if (withDscp)
        {
            writer.write(',');
            writer.write(Integer.toString(dscp));
        }
        if (withDeadlines)
        {
            writer.write(',');
            if (deadlineNs > 0)
            {
                writer.write(Long.toString(deadlineNs));
                writer.write(complete && endNs - startNs <= deadlineNs ? ",1" : ",0");
            }
            else
            {
                writer.write(',');
            }
        }
        writer.newLine();
    }

    /**
     * Push what was written to the partial file.
     *
     * @throws IOException if writing fails.
     */
    public synchronized void flush() throws IOException
    {
        writer.flush();
    }

    /**
     * Flush, close and put the log in place (once; later calls do nothing).
     *
     * @throws IOException if writing or renaming fails.
     */
    public synchronized void close() throws IOException
    {
        if (closed)
        {
            return;
        }
        closed = true;
        writer.close();
        Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
