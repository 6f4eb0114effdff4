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
}
