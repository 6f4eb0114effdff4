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
import java.util.concurrent.ExecutionException;

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

    /**
     * {@inheritDoc}
     */
    public Integer call() throws IOException, InterruptedException
    {
        if ((null == size) == (null == file))
        {
            throw new IllegalArgumentException("give either --size or --file");
        }
        final long deadlineNs = null == deadline ? 0 : Quantities.parseNanos(deadline);
        if (null != deadline && deadlineNs <= 0)
        {
            throw new IllegalArgumentException("--deadline must be positive, not '" + deadline + "'");
        }
        if (null != dscp && (dscp < 0 || dscp > 63))
        {
            throw new IllegalArgumentException("--dscp must be 0 to 63, not " + dscp);
        }
        final int marking = null == dscp ? 0 : dscp;
        try (AppClient client = AppClient.connect(AppSockets.resolve(socket, host)))
        {
            final AppClient.Completion completion;
            final long bytes;
            if (null != file)
            {
                final byte[] payload = Files.readAllBytes(file);
                bytes = payload.length;
                completion = (deadlineNs > 0 ? client.send(destination, payload, marking, deadlineNs) :
                    null == dscp ? client.send(destination, payload) : client.send(destination, payload, dscp)).get();
            }
            else
            {
                bytes = Quantities.parseBytes(size);
                completion = (deadlineNs > 0 ? client.send(destination, bytes, marking, deadlineNs) :
                    null == dscp ? client.send(destination, bytes) : client.send(destination, bytes, dscp)).get();
            }
            System.out.printf(Locale.ROOT, "sent %,d bytes to %s: flow %x, fct %.3f ms, %d timeouts, %,d bytes " +
                "retransmitted%s%n", bytes, destination, completion.flowId(), completion.fctNs() / 1e6,
                completion.timeouts(), completion.retransmittedBytes(), deadlineNs <= 0 ? "" :
                completion.fctNs() <= deadlineNs ? ", deadline met" : ", deadline missed");
            return 0;
        }
        catch (final ExecutionException ex)
        {
            System.err.println("pfabric send: " + ex.getCause().getMessage());
            return 1;
        }
    }
}
