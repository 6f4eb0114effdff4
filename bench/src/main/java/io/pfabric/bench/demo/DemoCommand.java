package io.pfabric.bench.demo;

import io.pfabric.switchd.queue.DisciplineKind;
import io.pfabric.switchd.queue.DropReason;
import io.pfabric.switchd.queue.QueueCounter;
import io.pfabric.switchd.queue.QueueCounters;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code pfabric demo}: one long flow and several short flows through one 1 Gb/s egress port, once through pFabric's
 * queue and once through drop-tail, on virtual time.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    header = "One long and several short flows through pfabric and droptail, on virtual time.",
    description = "Sends one long flow and several short flows through one 1 Gb/s switch egress port, once with the " +
        "pfabric queue (36,000 B) and once with droptail (225,000 B), and prints each flow's completion time. It " +
        "runs the real queue classes on real frames, on virtual time in one process: no interfaces, no switchd " +
        "daemon, and a simplified fixed-window sender in place of hostd's transport.")
public final class DemoCommand implements Callable<Integer>
{
    private static final long MS = 1_000_000;
    private static final long LIMIT_NS = 10_000 * MS;

    @Option(names = "--long-flow", defaultValue = "4000000", paramLabel = "BYTES",
        description = "Size of the long flow in bytes (default: ${DEFAULT-VALUE}).")
    long longFlowBytes;

    /**
     * {@inheritDoc}
     */
    public Integer call()
    {
        if (longFlowBytes < 1 || longFlowBytes > 1_000_000_000L)
        {
            throw new IllegalArgumentException("--long-flow must be between 1 and 1000000000 bytes");
        }
        final List<EgressDemo.FlowSpec> flows = List.of(
            new EgressDemo.FlowSpec("long", longFlowBytes, 0),
            new EgressDemo.FlowSpec("short-1", 15_000, 2 * MS),
            new EgressDemo.FlowSpec("short-2", 30_000, 4 * MS),
            new EgressDemo.FlowSpec("short-3", 15_000, 6 * MS),
            new EgressDemo.FlowSpec("short-4", 15_000, 6 * MS),
            new EgressDemo.FlowSpec("short-5", 15_000, 6 * MS),
            new EgressDemo.FlowSpec("short-6", 60_000, 8 * MS),
            new EgressDemo.FlowSpec("short-7", 100_000, 10 * MS));

        final EgressDemo.Outcome pfabric = new EgressDemo(DisciplineKind.PFABRIC,
            DisciplineKind.PFABRIC.defaultCapacityLength()).run(flows, LIMIT_NS);
        final EgressDemo.Outcome droptail = new EgressDemo(DisciplineKind.DROPTAIL,
            DisciplineKind.DROPTAIL.defaultCapacityLength()).run(flows, LIMIT_NS);
        final long[] aloneNs = new long[flows.size()];
        for (int i = 0; i < flows.size(); i++)
        {
            final EgressDemo.FlowSpec spec = flows.get(i);
            aloneNs[i] = new EgressDemo(DisciplineKind.PFABRIC, DisciplineKind.PFABRIC.defaultCapacityLength())
                .run(List.of(new EgressDemo.FlowSpec(spec.name(), spec.sizeBytes(), 0)), LIMIT_NS)
                .flows().get(0).fctNs();
        }
        print(System.out, flows, aloneNs, pfabric, droptail);
        return 0;
    }

    private static void print(
        final PrintStream out,
        final List<EgressDemo.FlowSpec> flows,
        final long[] aloneNs,
        final EgressDemo.Outcome pfabric,
        final EgressDemo.Outcome droptail)
    {
        out.println("pfabric demo: the real switch queue classes on one 1 Gb/s egress port, virtual time");
        out.printf(Locale.ROOT, "  senders on 10 Gb/s links, base RTT %.1f us, window %d packets, timeout %.1f us;%n",
            EgressDemo.BASE_RTT_NS / 1e3, EgressDemo.WINDOW_PACKETS, EgressDemo.TIMEOUT_NS / 1e3);
        out.println("  priority = remaining unacknowledged bytes; 'alone' = the flow by itself on the idle port.");
        out.println("  Not a daemon or a network run: see README.md for what exists so far.");
        out.println();
        out.printf(Locale.ROOT, "%-8s %10s %9s %11s | %11s %7s %4s | %11s %7s %4s%n",
            "flow", "bytes", "start_ms", "alone_us", "pfabric_us", "x_alone", "rto", "droptail_us", "x_alone", "rto");
        for (int i = 0; i < flows.size(); i++)
        {
            final EgressDemo.FlowSpec spec = flows.get(i);
            final EgressDemo.FlowResult p = pfabric.flows().get(i);
            final EgressDemo.FlowResult d = droptail.flows().get(i);
            out.printf(Locale.ROOT, "%-8s %10d %9.1f %11.1f | %11.1f %7.2f %4d | %11.1f %7.2f %4d%n",
                spec.name(), spec.sizeBytes(), spec.startNs() / 1e6, aloneNs[i] / 1e3,
                p.fctNs() / 1e3, (double)p.fctNs() / aloneNs[i], p.timeouts(),
                d.fctNs() / 1e3, (double)d.fctNs() / aloneNs[i], d.timeouts());
        }
        out.println();
        describeQueue(out, "pfabric ", pfabric);
        describeQueue(out, "droptail", droptail);
    }

    private static void describeQueue(final PrintStream out, final String label, final EgressDemo.Outcome outcome)
    {
        final QueueCounters counters = outcome.queue().counters();
        out.printf(Locale.ROOT,
            "%s buffer %,d B: %,d frames sent, high-water %,d B; dropped: %d arrivals, %d evicted, %d tail%n",
            label, outcome.queue().capacityLength(), counters.get(QueueCounter.DEQUEUED_PACKETS),
            counters.get(QueueCounter.HIGH_WATER_BYTES),
            counters.droppedPackets(DropReason.PRIORITY_DROP_ARRIVAL),
            counters.droppedPackets(DropReason.PRIORITY_EVICTION),
            counters.droppedPackets(DropReason.TAIL_DROP));
    }
}
