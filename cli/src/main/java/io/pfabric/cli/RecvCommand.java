package io.pfabric.cli;

import io.pfabric.hostd.app.AppClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code pfabric recv}: print (or save) the messages the local hostd receives.
 */
@Command(
    name = "recv",
    mixinStandardHelpOptions = true,
    header = "Print the messages the local hostd receives.",
    description = "Subscribes to a running 'pfabric hostd' on this machine and prints a line per whole message it " +
        "receives (source, flow id, size), until --count messages or Ctrl-C. With --save-dir each message is " +
        "also written to DIR/FLOWID.bin.")
public final class RecvCommand implements Callable<Integer>
{
    @Option(names = "--count", defaultValue = "0", paramLabel = "N", description = "Stop after N messages (0: never).")
    int count;

    @Option(names = "--save-dir", paramLabel = "DIR", description = "Write each message to DIR/FLOWID.bin.")
    Path saveDirectory;

    @Option(names = "--host", paramLabel = "NAME", description = "Which local hostd (by host name), if several run.")
    String host;

    @Option(names = "--socket", paramLabel = "PATH", description = "The hostd's socket, instead of --host.")
    Path socket;

    @Option(names = "--wait", defaultValue = AppSockets.DEFAULT_WAIT, paramLabel = "DURATION",
        description = "How long to wait for the hostd's socket, which a hostd opens once it has measured the base " +
            "RTT (default: ${DEFAULT-VALUE}).")
    String waitText;

    /**
     * {@inheritDoc}
     */
    public Integer call() throws IOException, InterruptedException
    {
        if (count < 0)
        {
            throw new IllegalArgumentException("--count must not be negative");
        }
        if (null != saveDirectory && Files.exists(saveDirectory) && !Files.isDirectory(saveDirectory))
        {
            throw new IllegalArgumentException("--save-dir " + saveDirectory + " is not a directory");
        }
        final long waitNs = AppSockets.waitNs(waitText);
        final CountDownLatch done = new CountDownLatch(0 == count ? 1 : count);
        try (AppClient client = AppSockets.connect(socket, host, waitNs, "recv", System.err))
        {
            if (null != saveDirectory)
            {
                Files.createDirectories(saveDirectory);
            }
            client.subscribe((source, flowId, message) ->
            {
                ConsoleLine.print(System.out, String.format(Locale.ROOT, "from %s flow %x: %,d bytes%n", source,
                    flowId, message.length));
                if (null != saveDirectory)
                {
                    try
                    {
                        Files.write(saveDirectory.resolve(Long.toHexString(flowId) + ".bin"), message);
                    }
                    catch (final IOException ex)
                    {
                        System.err.println("pfabric recv: cannot save: " + ex.getMessage());
                    }
                }
                if (count > 0)
                {
                    done.countDown();
                }
            });
            System.err.printf(Locale.ROOT, "pfabric recv: receiving %s%s%n",
                0 == count ? "messages until Ctrl-C" : count + (1 == count ? " message" : " messages"),
                null == host ? "" : " for " + host);
            while (!done.await(200, TimeUnit.MILLISECONDS))
            {
                if (!client.isConnected())
                {
                    System.err.println("pfabric recv: the hostd went away");
                    return 1;
                }
            }
            return 0;
        }
    }
}
