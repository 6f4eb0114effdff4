package io.pfabric.hostd.transport;

/**
 * What a central controller allows: consulted by {@link HostTransport} before each data packet leaves. Without one
 * (the default) the transport is plain pFabric. Called on the transport's thread only.
 * <p>
 * Among the flows whose window has room, the transport sends the next packet of the one with the smallest priority
 * number whose destination {@link #mayAdmit admits} it; the flows it skips keep their place for the next round.
 */
public interface Admission
{
    /**
     * {@link #pathHint} of a packet that may take any path (ECMP or spraying, as the switch does).
     */
    int NO_PATH = -1;

    /**
     * Once per duty cycle, before packets are sent: take control messages, send reports, notice silence.
     *
     * @param nowNs     the transport's clock.
     * @param transport the transport, to read its backlog from.
     * @return work done (messages handled and sent).
     */
    int poll(long nowNs, HostTransport transport);

    /**
     * Whether a data packet toward a destination may leave now.
     *
     * @param destinationHost the receiving host.
     * @param nowNs           the transport's clock.
     * @return true to send it.
     */
    boolean mayAdmit(int destinationHost, long nowNs);

    /**
     * The spine the next admitted packet toward a destination must take, asked after {@link #mayAdmit} said yes.
     *
     * @param destinationHost the receiving host.
     * @return the spine index (the switch's path hint), or {@link #NO_PATH}.
     */
    int pathHint(int destinationHost);

    /**
     * A data packet toward a destination left.
     *
     * @param destinationHost the receiving host.
     * @param nowNs           the transport's clock.
     * @param wireLength      its bytes on the wire (headers, pFabric header and payload; not FCS, preamble, gap).
     */
    void onAdmitted(int destinationHost, long nowNs, int wireLength);

    /**
     * Wait, when the transport is idle because every flow with window is held back, for what will admit one: a
     * control message, or the time a held-back destination may send again. Data packets that arrive meanwhile are
     * taken in the next duty cycle.
     *
     * @param nowNs     the transport's clock.
     * @param timeoutNs longest wait.
     * @return work done while waiting (control messages handled).
     */
    int awaitHeldBack(long nowNs, long timeoutNs);
}
