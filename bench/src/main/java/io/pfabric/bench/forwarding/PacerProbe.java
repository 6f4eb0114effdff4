package io.pfabric.bench.forwarding;

import io.pfabric.dataplane.pacer.DepartureCounter;
import io.pfabric.switchd.Forwarder;
import io.pfabric.switchd.ForwarderCounter;
import io.pfabric.switchd.PortCounter;
import io.pfabric.switchd.SwitchDaemon;
import io.pfabric.switchd.SwitchPort;

/**
 * What switchd saw of a paced point, from its own counters, read by the benchmark's thread while it forwards: how much
 * of the measured interval the paced port's departure monitor counted as backlogged, the forwarder's longest stall
 * with frames waiting, and the frames the ingress port's receive ring dropped. They tell a port that fell short because
 * it had nothing to send (the offer came in bursts its buffer could not hold) from one whose forwarder was away or
 * could not keep up.
 */
final class PacerProbe
{
    private final Forwarder forwarder;
    private final SwitchPort ingress;
    private final SwitchPort egress;
    private long startNs;
    private long backloggedNs;
    private long ringFullDrops;

    /**
     * What one paced point showed.
     *
     * @param backloggedFraction of the measured interval, the time the port's departure monitor counted as backlogged:
     *                           stretches of departures with frames waiting behind each, which a stall of the
     *                           forwarder ends.
     * @param longestStallNs     the forwarder's longest time between two duty cycles while a port held frames.
     * @param ringFullDrops      frames the ingress port's receive ring dropped, being full.
     */
    record Seen(double backloggedFraction, long longestStallNs, long ringFullDrops)
    {
    }

    /**
     * A probe of a running switchd.
     *
     * @param target      switchd, either kind.
     * @param ingressPort the name of the port the flood arrives on.
     * @param egressPort  the name of the paced port it leaves by.
     * @throws IllegalArgumentException if the target is not switchd.
     */
    PacerProbe(final ForwardingTarget target, final String ingressPort, final String egressPort)
    {
        if (!(target instanceof ForwardingTarget.Switchd switchd))
        {
            throw new IllegalArgumentException("only switchd is paced: " + target);
        }
        final SwitchDaemon daemon = switchd.daemon();
        forwarder = daemon.forwarder();
        ingress = port(daemon, ingressPort);
        egress = port(daemon, egressPort);
    }

    private static SwitchPort port(final SwitchDaemon daemon, final String name)
    {
        for (int i = 0; i < daemon.portCount(); i++)
        {
            if (daemon.port(i).name().equals(name))
            {
                return daemon.port(i);
            }
        }
        throw new IllegalStateException("switchd has no port " + name);
    }

    /**
     * Start the measured interval.
     */
    void start()
    {
        forwarder.restartBackloggedGap();
        startNs = System.nanoTime();
        backloggedNs = egress.departures().counters().get(DepartureCounter.BACKLOGGED_NS);
        ringFullDrops = ingress.counters().get(PortCounter.DROPPED_RING_FULL);
    }

    /**
     * End the measured interval.
     *
     * @return what the counters moved by since {@link #start()}.
     */
    Seen stop()
    {
        final long elapsedNs = System.nanoTime() - startNs;
        final long backlogged = egress.departures().counters().get(DepartureCounter.BACKLOGGED_NS) - backloggedNs;
        return new Seen((double)backlogged / elapsedNs,
            forwarder.counters().get(ForwarderCounter.LONGEST_BACKLOGGED_GAP_NS),
            ingress.counters().get(PortCounter.DROPPED_RING_FULL) - ringFullDrops);
    }
}
