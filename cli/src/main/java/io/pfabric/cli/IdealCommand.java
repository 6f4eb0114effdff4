package io.pfabric.cli;

import io.pfabric.analysis.IdealScheduler;
import io.pfabric.common.config.Quantities;
import io.pfabric.common.topology.Rates;
import io.pfabric.hostd.workload.TraceFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code pfabric ideal}: the Ideal scheme's completion times for a flow trace.
 */
@Command(
    name = "ideal",
    mixinStandardHelpOptions = true,
    header = "Compute the Ideal scheme's flow completion times for a trace.",
    description = "Runs Algorithm 1 of the pFabric paper at flow level over a trace (flow_id,src,dst,size_bytes," +
        "start_ns): at every arrival and completion, the active flows in increasing remaining size each run at the " +
        "full access rate if their source and destination are both free. A flow of n 1460-byte segments takes n " +
        "1500-byte packets of link time, and completes the base RTT less one packet time after its last packet, so " +
        "a flow alone completes in base RTT + (n - 1) packet times. Writes the FCT log hostd writes, scheme ideal.")
public final class IdealCommand implements Callable<Integer>
{
    @Option(names = "--trace", required = true, paramLabel = "FILE", description = "The flow trace (CSV).")
    Path trace;

    @Option(names = "--rate", required = true, paramLabel = "RATE", description = "Access link rate, e.g. 10g.")
    String rate;

    @Option(names = "--base-rtt", required = true, paramLabel = "DURATION",
        description = "Round trip of a full packet and its ACK on the idle fabric, e.g. 14.68us.")
    String baseRtt;

    @Option(names = "--out", defaultValue = "fct-ideal.csv", paramLabel = "FILE",
        description = "Where to write the FCT log (default: ${DEFAULT-VALUE}).")
    Path out;

    /**
     * {@inheritDoc}
     */
    public Integer call() throws IOException
    {
        final long rateBitsPerSec = Rates.parseOption("--rate", rate, false);
        final long baseRttNs = Quantities.parseNanos(baseRtt);
        if (baseRttNs <= 0)
        {
            throw new IllegalArgumentException("--base-rtt must be positive");
        }
        final TraceFile.Trace flows = TraceFile.read(trace);
        new IdealScheduler(rateBitsPerSec, (source, destination) -> baseRttNs)
            .writeFctLog(flows.flows(), flows.hostNames(), out);
        System.err.printf(Locale.ROOT, "pfabric ideal: %,d flows among %d hosts scheduled; FCT log %s%n",
            flows.flows().size(), flows.hostNames().size(), out);
        return 0;
    }
}
