package io.pfabric.sim;

/**
 * A simulated switch: its ports, by index.
 */
final class SimSwitch
{
    final SimPort[] ports;

    SimSwitch(final int portCount)
    {
        ports = new SimPort[portCount];
    }
}
