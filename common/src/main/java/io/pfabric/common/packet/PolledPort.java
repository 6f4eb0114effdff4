package io.pfabric.common.packet;

/**
 * A port whose arrivals a {@link PacketPortSet} can wait for: a socket that polls readable when frames arrive, and an
 * eventfd another thread writes to end a wait.
 */
interface PolledPort
{
    /**
     * The socket that polls readable when a frame arrives.
     *
     * @return the descriptor.
     */
    int receiveFd();

    /**
     * The eventfd that ends a wait.
     *
     * @return the descriptor.
     */
    int wakeFd();

    /**
     * Whether a frame waits in the receive ring now. Owner thread only.
     *
     * @return true if one does.
     */
    boolean frameWaiting();

    /**
     * Read the eventfd back to zero after it ended a wait.
     */
    void drainWakeup();
}
