package io.pfabric.sim;

/**
 * Told of every frame a port starts to transmit.
 */
@FunctionalInterface
public interface TransmitObserver
{
    /**
     * @param switchIndex   as for {@link Simulator#queue(int, int)}.
     * @param port          as for {@link Simulator#queue(int, int)}.
     * @param nowNs         when transmission starts.
     * @param payloadLength the frame's payload bytes, 0 for ACKs and probes.
     */
    void onTransmit(int switchIndex, int port, long nowNs, int payloadLength);

    /**
     * Told of a frame with its length and DSCP; by default tells {@link #onTransmit(int, int, long, int)}.
     *
     * @param switchIndex   as for {@link Simulator#queue(int, int)}.
     * @param port          as for {@link Simulator#queue(int, int)}.
     * @param nowNs         when transmission starts.
     * @param payloadLength the frame's payload bytes, 0 for ACKs and probes.
     * @param frameLength   the frame's length in queues and pacers, without FCS, preamble and gap.
     * @param dscp          the DSCP of its IPv4 header.
     */
    default void onTransmit(
        final int switchIndex, final int port, final long nowNs, final int payloadLength, final int frameLength,
        final int dscp)
    {
        onTransmit(switchIndex, port, nowNs, payloadLength);
    }

    /**
     * Told once the observer is given to a simulator, before it runs, to find its ports' queues; by default nothing.
     *
     * @param simulator the simulator that will tell it of transmissions.
     */
    default void onAttach(final Simulator simulator)
    {
    }

    /**
     * One observer that tells two, in order, of everything.
     *
     * @param first  told first.
     * @param second told second.
     * @return the pair.
     */
    static TransmitObserver both(final TransmitObserver first, final TransmitObserver second)
    {
        return new TransmitObserver()
        {
            public void onTransmit(final int switchIndex, final int port, final long nowNs, final int payloadLength)
            {
                first.onTransmit(switchIndex, port, nowNs, payloadLength);
                second.onTransmit(switchIndex, port, nowNs, payloadLength);
            }

            public void onTransmit(
                final int switchIndex, final int port, final long nowNs, final int payloadLength,
                final int frameLength, final int dscp)
            {
                first.onTransmit(switchIndex, port, nowNs, payloadLength, frameLength, dscp);
                second.onTransmit(switchIndex, port, nowNs, payloadLength, frameLength, dscp);
            }

            public void onAttach(final Simulator simulator)
            {
                first.onAttach(simulator);
                second.onAttach(simulator);
            }
        };
    }
}
