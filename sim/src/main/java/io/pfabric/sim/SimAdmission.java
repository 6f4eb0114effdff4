package io.pfabric.sim;

import io.pfabric.hostd.transport.Admission;

/**
 * An {@link Admission} that can say when a held-back transport should look again.
 */
public interface SimAdmission extends Admission
{
    /**
     * When a destination held back now may next be admitted without a new control message (a token bucket
     * refilling); {@link Long#MAX_VALUE} if only a control message can do it (the control will wake the host).
     *
     * @param nowNs virtual time.
     * @return nanoseconds.
     */
    long nextAdmitNs(long nowNs);
}
