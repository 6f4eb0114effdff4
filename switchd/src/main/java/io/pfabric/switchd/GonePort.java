package io.pfabric.switchd;

import io.pfabric.common.packet.FramePort;
import io.pfabric.common.packet.PacketHandler;
import org.agrona.DirectBuffer;

/**
 * A switch port's I/O while its interface is gone (deleted): it receives nothing, takes no frame and its link is
 * down, until the forwarder opens the port again on a new interface of the name.
 */
final class GonePort implements FramePort
{
    private final String interfaceName;

    /**
     * A stand-in for the port that was on an interface.
     *
     * @param interfaceName the interface's name.
     */
    GonePort(final String interfaceName)
    {
        this.interfaceName = interfaceName;
    }

    public int receive(final PacketHandler handler, final int limit)
    {
        return 0;
    }

    public boolean canTransmit()
    {
        return false;
    }

    public boolean transmit(final DirectBuffer src, final int srcOffset, final int length)
    {
        return false;
    }

    public int flush()
    {
        return 0;
    }

    public long transmitRetries()
    {
        return 0;
    }

    public void updateKernelStatistics()
    {
    }

    public long kernelDrops()
    {
        return 0;
    }

    public long oversizeDrops()
    {
        return 0;
    }

    public int maxFrameLength()
    {
        return 0;
    }

    public String interfaceName()
    {
        return interfaceName;
    }

    public boolean linkUp()
    {
        return false;
    }

    public void close()
    {
    }
}
