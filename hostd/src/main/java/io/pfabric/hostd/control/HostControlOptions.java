package io.pfabric.hostd.control;

import io.pfabric.common.control.ControlMode;
import io.pfabric.common.packet.NettyTransport;

import java.net.InetSocketAddress;

/**
 * How a host takes part in central control.
 *
 * @param mode             SYN or ASY.
 * @param controller       the controller's address.
 * @param listen           where the host's control socket binds: the address the controller sends to.
 * @param key              the shared key.
 * @param silenceNs        with no accepted message for this long the host falls back to plain pFabric.
 * @param reportIntervalNs how often demand (SYN) or offers (ASY) are reported; 0: one slot (SYN), 1 ms (ASY).
 * @param grantLatenessNs  SYN: how long after its slot starts a granted packet may still leave (a grant from a
 *                         controller that names no slot clock: how long after it arrived); 0: one slot.
 * @param transport        Netty's epoll or io_uring for the control socket.
 */
public record HostControlOptions(
    ControlMode mode,
    InetSocketAddress controller,
    InetSocketAddress listen,
    byte[] key,
    long silenceNs,
    long reportIntervalNs,
    long grantLatenessNs,
    NettyTransport transport)
{
    /**
     * Default silence before falling back to pFabric: 50 ms.
     */
    public static final long DEFAULT_SILENCE_NS = 50_000_000L;

    /**
     * Default ASY report interval: 1 ms.
     */
    public static final long DEFAULT_ASY_REPORT_NS = 1_000_000L;

    /**
     * Checks the options.
     */
    public HostControlOptions
    {
        if (null == mode || null == controller || null == listen || null == key || null == transport)
        {
            throw new IllegalArgumentException("control needs a mode, a controller address, a listen address and a key");
        }
        if (silenceNs <= 0 || reportIntervalNs < 0 || grantLatenessNs < 0)
        {
            throw new IllegalArgumentException("control silence must be positive, report interval and grant lateness " +
                "not negative");
        }
        key = key.clone();
    }

    /**
     * Options with the default silence, report interval and grant lateness, over epoll.
     *
     * @param mode       SYN or ASY.
     * @param controller the controller's address.
     * @param listen     where the host's control socket binds.
     * @param key        the shared key.
     * @return the options.
     */
    public static HostControlOptions of(
        final ControlMode mode, final InetSocketAddress controller, final InetSocketAddress listen, final byte[] key)
    {
        return new HostControlOptions(mode, controller, listen, key, DEFAULT_SILENCE_NS, 0, 0, NettyTransport.EPOLL);
    }

    /**
     * The same with another silence interval.
     *
     * @param newSilenceNs ns without a message before falling back.
     * @return new options.
     */
    public HostControlOptions withSilenceNs(final long newSilenceNs)
    {
        return new HostControlOptions(mode, controller, listen, key, newSilenceNs, reportIntervalNs, grantLatenessNs,
            transport);
    }
}
