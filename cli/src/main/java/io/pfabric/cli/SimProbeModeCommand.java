package io.pfabric.cli;

import io.pfabric.sim.ProbeModeExperiment;
import io.pfabric.sim.SimFabric;
import io.pfabric.sim.SimSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code pfabric sim probe-mode}: the paper's Fig 5b, {@link ProbeModeExperiment}.
 */
@Command(
    name = "probe-mode",
    mixinStandardHelpOptions = true,
    header = "Simulate many long-lived flows into one port; loss rate with and without probe mode.",
    description = {
        "The pFabric paper's Fig 5b on its fabric: for each count of --flows, that many flows longer than the run " +
            "start at once from hosts spread over the fabric towards h1 and run for --duration of virtual time, " +
            "once per --probe-after setting: probe mode after N consecutive timeouts (hostd's default 5), or off. " +
            "The loss rate is data packets dropped over data packets sent.",
        "Writes DIR/probe-mode.csv (" + ProbeModeExperiment.CSV_HEADER + "), DIR/probe-mode.png and the FCT logs " +
            "under DIR/runs/. Deterministic for a seed." })
public final class SimProbeModeCommand implements Callable<Integer>
{
    @Option(names = "--flows", defaultValue = "1,2,5,10,15,20,30,40,50", split = ",", paramLabel = "N[,N...]",
        description = "Numbers of flows (default: ${DEFAULT-VALUE}).")
    List<Integer> flows;

    @Option(names = "--probe-after", defaultValue = "5,off", split = ",", paramLabel = "N|off[,...]",
        description = "Consecutive timeouts before probe mode, or off (default: ${DEFAULT-VALUE}).")
    List<String> probeAfter;

    @Option(names = "--duration", defaultValue = "20ms", paramLabel = "DURATION",
        description = "Virtual time each run lasts (default: ${DEFAULT-VALUE}).")
    String duration;

    @Mixin
    SeedAndOut run;

    /**
     * {@inheritDoc}
     */
    public Integer call() throws IOException
    {
        final List<Integer> afters = new ArrayList<>();
        for (final String after : probeAfter)
        {
            if ("off".equals(after))
            {
                afters.add(ProbeModeExperiment.OFF);
                continue;
            }
            try
            {
                afters.add(Integer.parseInt(after));
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException("--probe-after takes a number of timeouts or off, not '" + after +
                    "'", ex);
            }
        }
        final SimFabric fabric = SimFabric.paper();
        final ProbeModeExperiment.Config config = new ProbeModeExperiment.Config(fabric, SimSettings.forFabric(fabric),
            flows, afters, MicroOptions.nanos("--duration", duration), run.seed);
        ProbeModeExperiment.print(System.out, ProbeModeExperiment.run(config, run.out, System.err));
        return 0;
    }
}
