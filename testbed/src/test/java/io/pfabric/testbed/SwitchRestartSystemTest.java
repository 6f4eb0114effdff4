package io.pfabric.testbed;

import io.pfabric.common.topology.Topologies;
import io.pfabric.hostd.HostDaemon;
import io.pfabric.testsupport.Await;
import io.pfabric.testsupport.RequiresNetns;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The switch of a 4-host namespace fabric (100 Mb/s) dies in the middle of an all-to-all exchange of checksummed
 * messages (its forwarder stops and its daemon closes: every frame it held is lost, as under kill -9) and a new one
 * starts on the same interfaces 1 s later. Every flow completes, every message arrives exactly once and intact, and
 * the outage shows as timeouts in the senders' counters.
 */
@Timeout(240)
@RequiresNetns
class SwitchRestartSystemTest
{
    private static final long RATE_BPS = 100_000_000L;
    private static final int HOSTS = 4;
    private static final long OUTAGE_NS = 1_000_000_000L;
    private static final Duration PROGRESS_TIMEOUT = Duration.ofSeconds(30);

    private HostFabric fabric;

    @AfterEach
    void tearDown() throws Exception
    {
        if (null != fabric)
        {
            fabric.close();
        }
    }

    @Test
    void everyMessageArrivesOnceAndIntactAcrossASwitchRestart() throws Exception
    {
        fabric = HostFabric.start(Topologies.star(HOSTS, "", RATE_BPS, "pfabric"), "pfr", RATE_BPS, 1_000_000L);
        final List<HostDaemon> hosts = fabric.hosts();
        final SplittableRandom random = new SplittableRandom(11);
        final List<HostFabric.Sent> sends = new ArrayList<>();
        for (int from = 1; from <= HOSTS; from++)
        {
            for (int to = 1; to <= HOSTS; to++)
            {
                if (from != to)
                {
                    final byte[] payload = new byte[1_000_000 + random.nextInt(2_000_000)];
                    random.nextBytes(payload);
                    sends.add(fabric.send("h" + from, "h" + to, payload));
                }
            }
        }
        Await.await(() -> hosts.get(0).counters().acksReceived() >= 200, PROGRESS_TIMEOUT,
            "the exchange got going (h1 received 200 acknowledgements)");
        final long timeoutsBefore = hosts.stream().mapToLong(h -> h.counters().timeouts()).sum();
        fabric.stopSwitches();
        final long diedNs = System.nanoTime();
        assertTrue(sends.stream().anyMatch(send -> !send.record().isDone()), "flows were in flight when it died");
        long waitNs;
        while ((waitNs = diedNs + OUTAGE_NS - System.nanoTime()) > 0)
        {
            LockSupport.parkNanos(waitNs);
        }
        fabric.startSwitches();

        fabric.assertDeliveredOnceIntact(sends, 180);
        assertEquals(sends.size(), fabric.messagesDelivered(), "nothing but the messages sent was delivered");
        final long timeouts = hosts.stream().mapToLong(h -> h.counters().timeouts()).sum() - timeoutsBefore;
        assertTrue(timeouts > 0, "the outage shows as timeouts: " + timeouts);
        assertTrue(sends.stream().mapToInt(send -> send.record().join().timeouts()).sum() > 0,
            "the flows that lived through it record their timeouts");
    }
}
