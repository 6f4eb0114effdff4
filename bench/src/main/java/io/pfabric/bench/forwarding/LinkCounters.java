package io.pfabric.bench.forwarding;

import io.pfabric.common.os.Commands;
import io.pfabric.switchd.egress.EgressPacer;

import java.io.IOException;

/**
 * The kernel's packet and byte counters of an interface in a network namespace, read from sysfs.
 *
 * @param packets frames counted.
 * @param bytes   their bytes, Ethernet header included, FCS not.
 * @param nanos   {@link System#nanoTime()} at the read.
 */
record LinkCounters(long packets, long bytes, long nanos)
{
    /**
     * Read the receive counters of an interface.
     *
     * @param namespace     where the interface is.
     * @param interfaceName the interface.
     * @return its counters now.
     * @throws IOException if they cannot be read.
     */
    static LinkCounters received(final String namespace, final String interfaceName) throws IOException
    {
        return read(namespace, interfaceName, "rx");
    }

    /**
     * Read the transmit counters of an interface.
     *
     * @param namespace     where the interface is.
     * @param interfaceName the interface.
     * @return its counters now.
     * @throws IOException if they cannot be read.
     */
    static LinkCounters transmitted(final String namespace, final String interfaceName) throws IOException
    {
        return read(namespace, interfaceName, "tx");
    }

    private static LinkCounters read(final String namespace, final String interfaceName, final String direction)
        throws IOException
    {
        final String statistics = "/sys/class/net/" + interfaceName + "/statistics/" + direction;
        final String[] lines = Commands.inNamespace(namespace, "cat", statistics + "_packets", statistics + "_bytes")
            .trim().split("\\s+");
        final long nanos = System.nanoTime();
        return new LinkCounters(Long.parseLong(lines[0]), Long.parseLong(lines[1]), nanos);
    }

    /**
     * Packets per second between an earlier reading and this one.
     *
     * @param earlier reading.
     * @return the rate.
     */
    double packetsPerSecSince(final LinkCounters earlier)
    {
        return (packets - earlier.packets) * 1e9 / (nanos - earlier.nanos);
    }

    /**
     * The rate on an Ethernet wire between an earlier reading and this one: each frame plus 24 bytes of FCS, preamble
     * and inter-frame gap, as the egress pacer counts it.
     *
     * @param earlier reading.
     * @return bits per second.
     */
    double wireBitsPerSecSince(final LinkCounters earlier)
    {
        final long wireBytes =
            bytes - earlier.bytes + (long)EgressPacer.WIRE_OVERHEAD_LENGTH * (packets - earlier.packets);
        return wireBytes * 8e9 / (nanos - earlier.nanos);
    }
}
