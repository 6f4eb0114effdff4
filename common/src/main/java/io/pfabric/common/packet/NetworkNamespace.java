package io.pfabric.common.packet;

import com.sun.jna.Native;

/**
 * Moves the calling thread into a named network namespace (one made with {@code ip netns add}), so that the packet
 * sockets it opens afterwards belong to that namespace. Sockets keep their namespace after the thread moves on.
 */
public final class NetworkNamespace
{
    private NetworkNamespace()
    {
    }

    /**
     * Enter a namespace on this thread.
     *
     * @param name of the namespace, as listed by {@code ip netns list}.
     * @throws PacketSocketException if it does not exist or this process may not enter it.
     */
    public static void enterOnCurrentThread(final String name) throws PacketSocketException
    {
        final int fd = LibC.open("/var/run/netns/" + name, LibC.O_RDONLY | LibC.O_CLOEXEC);
        if (fd < 0)
        {
            throw PacketSocketException.fromErrno("opening network namespace", name, Native.getLastError());
        }
        try
        {
            if (0 != LibC.setns(fd, LibC.CLONE_NEWNET))
            {
                throw PacketSocketException.fromErrno("entering network namespace", name, Native.getLastError());
            }
        }
        finally
        {
            LibC.close(fd);
        }
    }
}
