package io.pfabric.cli;

import io.pfabric.sim.reproduce.Provenance;
import io.pfabric.sim.reproduce.Reproduction;
import io.pfabric.sim.reproduce.Scale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code pfabric reproduce}: every figure of the paper's §5-§6 at a scale, in process or as a job list, and a report.
 */
@Command(
    name = "reproduce",
    mixinStandardHelpOptions = true,
    header = "Run the paper's evaluation (§5-§6) at a scale and write one report with a verdict per figure.",
    description = {
        "Every figure is a set of independent points (one scheme at one load, one deadline run, one curve of the " +
            "model), each written whole or not at all under DIR/points/; a rerun skips the points that are done and " +
            "says so, a truncated result is run again and never counted. The report, DIR/report.md and " +
            "DIR/report.html (one page, plots embedded), has a section per figure: the plot, the table " +
            "(DIR/figures/figN.csv), the paper's claim and a verdict computed from the numbers by a stated rule; " +
            "the front table lists every figure as agrees, differs or not run.",
        "--out DIR runs every point not done in this process, then writes the report. --plan DIR writes only the " +
            "plan: DIR/jobs.txt, one shell command per point ('parallel < DIR/jobs.txt' runs them with GNU parallel, " +
            "on machines sharing DIR), and DIR/slurm.sh, a Slurm array of them ('sbatch DIR/slurm.sh'); " +
            "--collect DIR writes the report from whatever points are done. A directory is bound to the scale, " +
            "seed and commit that planned it." })
public final class ReproduceCommand implements Callable<Integer>
{
    @Option(names = "--scale", defaultValue = "quick", paramLabel = "quick|paper|tiny",
        description = "quick (every figure in about half an hour on two cores: fewer flows and loads, the same " +
            "shapes), paper (100,000 flows per point, the paper's loads: CPU-hours per workload), or tiny (a " +
            "seconds-long smoke test; its numbers mean nothing) (default: ${DEFAULT-VALUE}).")
    String scale;

    @Option(names = "--only", split = ",", paramLabel = "FIG[,FIG...]", hideParamSyntax = true,
        description = "Only these figures, e.g. 7,8,17 (default: all).")
    List<String> only = List.of();

    @Option(names = "--seed", defaultValue = "1", paramLabel = "N",
        description = "Seed of every trace and of the spraying (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--out", paramLabel = "DIR",
        description = "Run in this process into DIR (default: results/reproduce-SCALE).")
    Path out;

    @Option(names = "--plan", paramLabel = "DIR", description = "Write the job list and Slurm script only.")
    Path plan;

    @Option(names = "--collect", paramLabel = "DIR", description = "Write the report from the points done.")
    Path collect;

    @Option(names = "--point", paramLabel = "ID", description = "Run one point of the plan in --out DIR (what a " +
        "line of jobs.txt runs).")
    String point;

    @Option(names = "--launcher", paramLabel = "COMMAND",
        description = "How the jobs' machines run pfabric, as shell text, e.g. /opt/pfabric/pfabric (default: this " +
            "checkout's launcher).")
    String launcher;

    @Option(names = "--jobs", defaultValue = "1", paramLabel = "N",
        description = "Points run at once in this process (default: ${DEFAULT-VALUE}).")
    int jobs;

    /**
     * {@inheritDoc}
     */
    public Integer call() throws IOException
    {
        final int modes = (null != plan ? 1 : 0) + (null != collect ? 1 : 0) + (null != point ? 1 : 0);
        if (modes > 1)
        {
            throw new IllegalArgumentException("--plan, --collect and --point go one at a time");
        }
        final Path home = Path.of(System.getProperty("pfabric.home", ".")).toAbsolutePath().normalize();
        final String commit = Provenance.commit(home);
        if (null != collect)
        {
            Reproduction.collect(collect, commit, System.err);
            return 0;
        }
        if (null != point)
        {
            if (null == out)
            {
                throw new IllegalArgumentException("--point needs --out DIR, the planned directory");
            }
            Reproduction.runPoint(out, point, commit, System.err);
            return 0;
        }
        final Scale chosen = Scale.named(scale);
        final String command = null == launcher ? Reproduction.shellWord(home.resolve("pfabric").toString()) :
            launcher;
        if (null != plan)
        {
            final Reproduction.Plan written = Reproduction.plan(plan, "--plan", chosen, seed, only, commit,
                command);
            System.err.printf("reproduce: %,d points planned in %s: run 'parallel < %s' (GNU parallel) or 'sbatch " +
                "%s' (Slurm), then 'pfabric reproduce --collect %s'%n", written.points().size(), plan,
                plan.resolve("jobs.txt"), plan.resolve("slurm.sh"), plan);
            return 0;
        }
        Reproduction.run(null == out ? Path.of("results", "reproduce-" + chosen.name()) : out, chosen, seed, only,
            commit, command, jobs, System.err);
        return 0;
    }
}
