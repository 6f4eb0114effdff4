package io.pfabric.experiment;

import io.pfabric.common.topology.Topologies;
import io.pfabric.common.topology.TrafficClasses;
import io.pfabric.hostd.HostDaemon;
import io.pfabric.hostd.workload.WorkloadMix;
import io.pfabric.testbed.NetnsFabric;
import io.pfabric.testbed.monitor.RunningFabrics;
import io.pfabric.testsupport.RequiresNetns;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code pfabric experiment classes} publishes its running fabric for {@code pfabric top} as {@code pfabric
 * experiment} does: while its first hosts run, {@code .pfabric/live/experiment-classes} is a running fabric with its
 * topology; once the run is stopped, nothing is published.
 */
@Timeout(120)
@RequiresNetns
class ClassExperimentPublishSystemTest
{
    private static final String PREFIX = "pfclpub";

    @TempDir
    Path directory;

    private final ExecutorService runner = Executors.newSingleThreadExecutor();

    @AfterEach
    void tearDown() throws Exception
    {
        runner.shutdownNow();
        NetnsFabric.removeLeftovers(PREFIX);
    }

    @Test
    void theRunningFabricIsPublishedUntilTheRunEnds() throws Exception
    {
        final Path cdf = directory.resolve("500k.cdf");
        Files.writeString(cdf, "343 1\n");
        final ClassExperiment.Settings settings = new ClassExperiment.Settings("star:2",
            Topologies.star(2, "", 100_000_000L, "pfabric"), 100_000_000L,
            List.of(WorkloadMix.App.parse(cdf + ":0.5:dscp=0")), TrafficClasses.parse("3:0-7;1:8-15"),
            TimeUnit.MILLISECONDS.toNanos(200), 1, directory.resolve("results"), TimeUnit.SECONDS.toNanos(10),
            "test");
        final Path pfabric = directory.resolve(".pfabric");
        final CompletableFuture<List<RunningFabrics.Fabric>> whileRunning = new CompletableFuture<>();
        final CountDownLatch release = new CountDownLatch(1);
        final ClassExperiment experiment = new ClassExperiment(settings, new PrintStream(new ByteArrayOutputStream(),
            true, StandardCharsets.UTF_8), PREFIX).publish(pfabric, "experiment-classes");
        experiment.observe(new Experiment.Observer()
        {
            public void onHosts(final List<HostDaemon> hosts)
            {
                try
                {
                    whileRunning.complete(RunningFabrics.running(pfabric));
                    release.await();
                }
                catch (final Exception ex)
                {
                    whileRunning.completeExceptionally(ex);
                }
            }
        });
        final Future<ClassExperiment.Outcome> run = runner.submit(experiment::run);

        final List<RunningFabrics.Fabric> published = whileRunning.get(90, TimeUnit.SECONDS);
        assertEquals(List.of("experiment-classes"), published.stream().map(RunningFabrics.Fabric::name).toList());
        assertTrue(Files.isRegularFile(published.get(0).stateDirectory().resolve("topology.yaml")),
            "published with its topology");
        experiment.stop();
        release.countDown();
        try
        {
            run.get(60, TimeUnit.SECONDS);
        }
        catch (final ExecutionException stopped)
        {
            // The run was stopped under its base-RTT measurement, as Ctrl-C stops it.
        }
        assertEquals(List.of(), RunningFabrics.running(pfabric), "nothing is published once the run ended");
    }
}
