package io.pfabric.sim;

import io.pfabric.hostd.transport.HostTransport;

/**
 * A central controller on virtual time: ticks when it asks to, and gives each host's transport its admission.
 */
public interface SimControl
{
    /**
     * The admission a host's transport consults; called once per host when the simulator is built.
     *
     * @param host      the host's index.
     * @param transport its transport.
     * @return the admission.
     */
    SimAdmission admission(int host, HostTransport transport);

    /**
     * Do what is due: take reports, allocate, deliver grants or rates ({@link Simulator#wake(int)} the hosts
     * concerned).
     *
     * @param nowNs virtual time.
     * @return when to tick next, or {@link Long#MAX_VALUE}.
     */
    long onTick(long nowNs);
}
