package io.pfabric.controllerd.session;

import io.pfabric.common.control.ControlMessageFlyweight;

/**
 * What the controller does with its hosts' messages and with time: SYN ({@link SynControl}) or ASY
 * ({@link AsyControl}). Driven by the controller's thread with the time read once per duty cycle.
 */
public interface ControlPolicy extends ControllerSession.MessageHandler
{
    /**
     * Set the time for the messages handled next.
     *
     * @param nowNs the controller's clock.
     */
    void time(long nowNs);

    /**
     * Do what is due at a time: allocate, send grants or rates, heartbeats.
     *
     * @param nowNs the controller's clock.
     * @return work done.
     */
    int duty(long nowNs);

    /**
     * When something is next due if no message comes first.
     *
     * @return the controller's clock.
     */
    long nextDeadlineNs();
}
