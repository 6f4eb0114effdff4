package io.pfabric.cli;

import io.pfabric.common.config.Quantities;
import io.pfabric.hostd.app.AppClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code pfabric send}: one message through the local hostd.
 */
@Command(
    name = "send",
    mixinStandardHelpOptions = true,
    header = "Send one message through the local hostd.",
    description = "Connects to a running 'pfabric hostd' on this machine (its application socket) and sends one " +
        "message to another host of its topology: --size bytes of zeros, or the contents of --file. Prints the " +
        "flow's completion time once its last byte is acknowledged.")
public final class SendCommand implements Callable<Integer>
{
    @Option(names = "--to", required = true, paramLabel = "HOST", description = "The receiving host's name.")
    String destination;

    @Option(names = "--size", paramLabel = "SIZE", description = "Bytes to send, e.g. 1500, 100KB, 1MB.")
    String size;

    @Option(names = "--file", paramLabel = "FILE", description = "Send this file's contents instead.")
    Path file;

    @Option(names = "--dscp", paramLabel = "N",
        description = "IPv4 DSCP of the flow's packets, 0 to 63: the traffic class at switches with pfabric-classes " +
            "ports (by default class = DSCP / 8). Without it the packets carry DSCP 0.")
    Integer dscp;

    @Option(names = "--deadline", paramLabel = "DURATION",
        description = "The time the message has to complete, e.g. 2ms: under hostd --priority deadline " +
            "(pFabric-EDF) its packets carry it, and pfabric-edf switch ports queue them ahead of other traffic.")
    String deadline;

    @Option(names = "--host", paramLabel = "NAME", description = "Which local hostd (by host name), if several run.")
    String host;

    @Option(names = "--socket", paramLabel = "PATH", description = "The hostd's socket, instead of --host.")
    Path socket;

    @Option(names = "--wait", defaultValue = AppSockets.DEFAULT_WAIT, paramLabel = "DURATION",
        description = "How long to wait for the hostd's socket, which a hostd opens once it has measured the base " +
            "RTT (default: ${DEFAULT-VALUE}).")
    String waitText;

    @Option(names = "--timeout", defaultValue = "60s", paramLabel = "DURATION",
        description = "Give the flow up if its last byte is not acknowledged in this long, e.g. when no hostd runs " +
            "on the receiving host; the hostd then stops sending it (default: ${DEFAULT-VALUE}).")
    String timeoutText;

    /**
     * {@inheritDoc}
     */
    public Integer call() throws IOException, InterruptedException
    {
        if ((null == size) == (null == file))
        {
            throw new IllegalArgumentException("give either --size or --file");
        }
        final long bytes = null != file ? fileSize(file) : Quantities.parseBytes(size);
        final long deadlineNs = null == deadline ? 0 : Quantities.parseNanos(deadline);
        if (null != deadline && deadlineNs <= 0)
        {
            throw new IllegalArgumentException("--deadline must be positive, not '" + deadline + "'");
        }
        final int marking = null == dscp ? 0 : dscp;
        if (null != size && bytes < 1)
        {
            throw new IllegalArgumentException("--size must be at least 1 byte");
        }
        if (null != dscp && (dscp < 0 || dscp > 63))
        {
            throw new IllegalArgumentException("--dscp must be 0 to 63, not " + dscp);
        }
        if (null != host && host.equals(destination))
        {
            throw new IllegalArgumentException("--to " + destination + " is the sending host itself");
        }
        final long waitNs = AppSockets.waitNs(waitText);
        final long timeoutNs = positiveDuration("--timeout", timeoutText);
        try (AppClient client = AppSockets.connect(socket, host, waitNs, "send", System.err))
        {
            final CompletableFuture<AppClient.Completion> sent;
            if (null != file)
            {
                final byte[] payload = Files.readAllBytes(file);
                sent = deadlineNs > 0 ? client.send(destination, payload, marking, deadlineNs) :
                    null == dscp ? client.send(destination, payload) : client.send(destination, payload, dscp);
            }
            else
            {
                sent = deadlineNs > 0 ? client.send(destination, bytes, marking, deadlineNs) :
                    null == dscp ? client.send(destination, bytes) : client.send(destination, bytes, dscp);
            }
            final AppClient.Completion completion;
            try
            {
                completion = sent.get(timeoutNs, TimeUnit.NANOSECONDS);
            }
            catch (final TimeoutException ex)
            {
                System.err.printf(Locale.ROOT, "pfabric send: the flow to %s was not acknowledged in %s; given up " +
                    "(is a hostd running on %s?)%n", destination, timeoutText, destination);
                return 1;
            }
            ConsoleLine.print(System.out, String.format(Locale.ROOT, "sent %,d bytes to %s: flow %x, fct %.3f ms, " +
                "%d timeouts, %,d bytes retransmitted%s%n", bytes, destination, completion.flowId(),
                completion.fctNs() / 1e6, completion.timeouts(), completion.retransmittedBytes(), deadlineNs <= 0 ? "" :
                completion.fctNs() <= deadlineNs ? ", deadline met" : ", deadline missed"));
            return 0;
        }
        catch (final ExecutionException ex)
        {
            System.err.println("pfabric send: " + ex.getCause().getMessage());
            return 1;
        }
    }

    private static long fileSize(final Path file)
    {
        if (!Files.exists(file))
        {
            throw new IllegalArgumentException("--file " + file + ": no such file");
        }
        if (!Files.isRegularFile(file) || !Files.isReadable(file))
        {
            throw new IllegalArgumentException("--file " + file + ": not a readable file");
        }
        try
        {
            return Files.size(file);
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException("--file " + file + ": cannot read it (" + ex.getMessage() + ")", ex);
        }
    }

    private static long positiveDuration(final String option, final String text)
    {
        final long nanos;
        try
        {
            nanos = Quantities.parseNanos(text);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(option + ": " + ex.getMessage(), ex);
        }
        if (nanos <= 0)
        {
            throw new IllegalArgumentException(option + " must be positive");
        }
        return nanos;
    }
}
