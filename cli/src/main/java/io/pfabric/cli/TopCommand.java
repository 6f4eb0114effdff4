package io.pfabric.cli;

import io.pfabric.common.config.Quantities;
import io.pfabric.testbed.monitor.RunningFabrics;
import io.pfabric.testbed.monitor.Top;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code pfabric top}: the running testbed's switch ports and hosts, refreshed in place.
 */
@Command(
    name = "top",
    mixinStandardHelpOptions = true,
    header = "Show the running testbed's (or demo's, experiment's, soak's) switch ports and hosts, refreshed every " +
        "second.",
    description = "Every switch port (bits per second sent, queue depth, drops by reason) and every host that serves " +
        "metrics (hostd --metrics 0 with the testbed's topology: flows active, done, incomplete, timeouts), read " +
        "from the daemons' /metrics endpoints recorded in the testbed's state, or in the state a running " +
        "'pfabric demo', 'experiment' or 'soak' publishes under .pfabric/live/. Ctrl-C quits.")
public final class TopCommand implements Callable<Integer>
{
    @Option(names = "--once", description = "Print one view (rates over one interval) without redrawing, and exit; " +
        "with status 2 if a recorded daemon did not answer.")
    boolean once;

    @Option(names = "--interval", defaultValue = "1s", paramLabel = "DURATION",
        description = "Time between views (default: ${DEFAULT-VALUE}).")
    String interval;

    @Option(names = "--fabric", paramLabel = "NAME",
        description = "Which running fabric: testbed, demo, experiment, experiment-classes or soak (default: the only " +
            "one running).")
    String fabric;

    /**
     * {@inheritDoc}
     */
    public Integer call() throws Exception
    {
        final long intervalNs = Quantities.parseNanos(interval);
        if (intervalNs <= 0)
        {
            throw new IllegalArgumentException("--interval must be positive");
        }
        final RunningFabrics.Fabric chosen = RunningFabrics.choose(TestbedCommand.pfabricDirectory(), fabric);
        final List<String> silent = Top.run(chosen.stateDirectory(), chosen.name(), System.out, once, intervalNs);
        if (once && !silent.isEmpty())
        {
            throw new IllegalStateException(silent.get(0) + (silent.size() > 1 ?
                " (and " + (silent.size() - 1) + " more daemons, listed above)" : ""));
        }
        return 0;
    }
}
