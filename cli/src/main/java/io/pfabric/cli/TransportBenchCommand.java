package io.pfabric.cli;

import io.pfabric.bench.transport.TransportBench;
import io.pfabric.common.config.Quantities;
import io.pfabric.common.topology.Rates;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code pfabric bench transport}: a single hostd flow's goodput against the emulated line rate.
 */
@Command(
    name = "transport",
    mixinStandardHelpOptions = true,
    header = "Benchmark hostd's goodput against the emulated line rate.",
    description = "For each rate: builds star:2 in network namespaces (prefix '" + TransportBench.PREFIX + "') with " +
        "switchd pacing every port at that rate, runs hostd's transport over kernel UDP on both hosts, measures " +
        "the base RTT with one-segment flows, sets the window and timeout from it as the paper does, and sends " +
        "one flow from h1 to h2. Reports its goodput (payload over completion time) against the most the rate " +
        "allows once headers, preamble and gap are paid for, and the CPU both transport threads used per data " +
        "packet. Needs root. Progress goes to stderr, results to stdout.")
public final class TransportBenchCommand implements Callable<Integer>
{
    @Option(names = "--quick", description = "Only 1g, with a 20 MB flow (well under 3 minutes).")
    boolean quick;

    @Option(names = "--rates", split = ",", defaultValue = "1g,10g", paramLabel = "RATES",
        description = "Line rates to measure (default: ${DEFAULT-VALUE}).")
    List<String> rates;

    @Option(names = "--size", defaultValue = "200MB", paramLabel = "SIZE",
        description = "The flow's size (default: ${DEFAULT-VALUE}, or 20MB with --quick).")
    String size;

    @Option(names = "--buffer", defaultValue = "36000", paramLabel = "BYTES",
        description = "Switch buffer per port; the window cap is this in 1500-byte packets less one (default: " +
            "${DEFAULT-VALUE}, pFabric's).")
    long bufferLength;

    @Option(names = "--format", defaultValue = "table", paramLabel = "table|csv",
        description = "table (default) or csv: rate_bps,goodput_bps,ratio_to_max.")
    String format;

    /**
     * {@inheritDoc}
     */
    public Integer call() throws IOException
    {
        final boolean csv = OutputFormats.isCsv(format);
        final List<Long> bitsPerSec = new ArrayList<>();
        for (final String rate : quick ? List.of("1g") : rates)
        {
            final long value = Rates.parseBitsPerSec(rate);
            if (value <= 0)
            {
                throw new IllegalArgumentException("--rates must be positive, not '" + rate + "'");
            }
            bitsPerSec.add(value);
        }
        final long sizeBytes = Quantities.parseBytes(quick ? "20MB" : size);
        if (sizeBytes < 1 || sizeBytes > 0xFFFF_FFFFL)
        {
            throw new IllegalArgumentException("--size must be 1 byte to 4 GB");
        }
        if (!"root".equals(System.getProperty("user.name")))
        {
            throw new IllegalStateException("needs root, to make network namespaces and open raw sockets");
        }
        if (bufferLength < 3_000)
        {
            throw new IllegalArgumentException("--buffer must hold at least two 1500-byte packets");
        }
        final List<TransportBench.Result> results =
            TransportBench.run(bitsPerSec, sizeBytes, bufferLength, System.err);
        if (csv)
        {
            System.out.println("rate_bps,goodput_bps,ratio_to_max");
            for (final TransportBench.Result result : results)
            {
                System.out.printf(Locale.ROOT, "%d,%.0f,%.4f%n", result.rateBitsPerSec(), result.goodputBitsPerSec(),
                    result.ratioToMax());
            }
            return 0;
        }
        System.out.printf(Locale.ROOT, "%-14s %12s %14s %16s %10s %10s %14s%n", "rate_bps", "base_rtt_us",
            "goodput_bps", "max_goodput_bps", "ratio", "timeouts", "cpu_ns_per_pkt");
        for (final TransportBench.Result result : results)
        {
            System.out.printf(Locale.ROOT, "%-14d %12.1f %14.0f %16.0f %10.4f %10d %14.0f%n", result.rateBitsPerSec(),
                result.baseRttNs() / 1e3, result.goodputBitsPerSec(), result.maxGoodputBitsPerSec(),
                result.ratioToMax(), result.timeouts(), result.cpuNanosPerPacket());
        }
        return 0;
    }
}
