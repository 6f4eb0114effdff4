package io.pfabric.hostd.io;

import io.pfabric.common.topology.Topology;

import java.io.IOException;

/**
 * Opens a host's {@link PacketIo}, on the thread that will use it (inside the host's network namespace when it has
 * one).
 */
@FunctionalInterface
public interface PacketIoFactory
{
    /**
     * Open the I/O of one host.
     *
     * @param topology  the fabric, whose host list gives every host's index and addresses.
     * @param localHost this host's index.
     * @return the open I/O.
     * @throws IOException if a socket cannot be opened.
     */
    PacketIo open(Topology topology, int localHost) throws IOException;
}
