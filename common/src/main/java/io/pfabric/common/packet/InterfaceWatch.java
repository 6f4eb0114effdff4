package io.pfabric.common.packet;

import com.sun.jna.Memory;
import com.sun.jna.Native;

/**
 * One interface, watched by name in the network namespace the watch was made in, from whichever thread asks: the
 * index of the interface of that name now (another than a port's once the interface was deleted and created again),
 * whether it is up, and a port opened on it in that namespace. A switch uses it to find that a port's interface is
 * gone and to open the port again when an interface of the same name is back. One thread at a time; asking
 * allocates nothing (a switch asks every few milliseconds).
 */
public final class InterfaceWatch implements AutoCloseable
{
    /**
     * Opens a port on an interface of the calling thread's namespace.
     *
     * @param <T> the port.
     */
    @FunctionalInterface
    public interface Opener<T>
    {
        /**
         * Open the port.
         *
         * @param interfaceName the interface.
         * @return the port.
         * @throws PacketSocketException if it cannot be opened.
         */
        T open(String interfaceName) throws PacketSocketException;
    }

    private static final String THREAD_NAMESPACE = "/proc/thread-self/ns/net";

    private final String interfaceName;
    private final int namespaceFd;
    private final int controlFd;
    private final Memory request = new Memory(LibC.IFREQ_LENGTH);
    private boolean closed;

    private InterfaceWatch(final String interfaceName, final int namespaceFd, final int controlFd)
    {
        this.interfaceName = interfaceName;
        this.namespaceFd = namespaceFd;
        this.controlFd = controlFd;
        request.clear();
        request.setString(0, interfaceName, "US-ASCII");
    }

    /**
     * Watch an interface of the calling thread's network namespace, which need not exist now.
     *
     * @param interfaceName such as {@code eth1}.
     * @return the watch.
     * @throws PacketSocketException if the name is not an interface name, or the namespace or a control socket
     *                               cannot be opened.
     */
    public static InterfaceWatch inCurrentNamespace(final String interfaceName) throws PacketSocketException
    {
        if (interfaceName.isEmpty() || interfaceName.length() >= LibC.IFNAMSIZ)
        {
            throw new PacketSocketException("'" + interfaceName + "' is not an interface name (1 to 15 characters)");
        }
        final int namespaceFd = LibC.open(THREAD_NAMESPACE, LibC.O_RDONLY | LibC.O_CLOEXEC);
        if (namespaceFd < 0)
        {
            throw PacketSocketException.fromErrno("opening the network namespace", interfaceName,
                Native.getLastError());
        }
        final int controlFd = LibC.socket(LibC.AF_INET, LibC.SOCK_DGRAM | LibC.SOCK_CLOEXEC, 0);
        if (controlFd < 0)
        {
            final int errno = Native.getLastError();
            LibC.close(namespaceFd);
            throw PacketSocketException.fromErrno("opening a control socket", interfaceName, errno);
        }
        return new InterfaceWatch(interfaceName, namespaceFd, controlFd);
    }

    /**
     * The interface's name.
     *
     * @return the name.
     */
    public String interfaceName()
    {
        return interfaceName;
    }

    /**
     * The index of the interface of the name now ({@code SIOCGIFINDEX}).
     *
     * @return the index, or 0 if there is none.
     */
    public int index()
    {
        return 0 == ask(LibC.SIOCGIFINDEX) ? request.getInt(LibC.IFNAMSIZ) : 0;
    }

    /**
     * Whether an interface of the name exists and is up with carrier ({@code SIOCGIFFLAGS}).
     *
     * @return true if it is.
     */
    public boolean up()
    {
        if (0 != ask(LibC.SIOCGIFFLAGS))
        {
            return false;
        }
        final int flags = request.getShort(LibC.IFNAMSIZ) & 0xFFFF;
        return (flags & (LibC.IFF_UP | LibC.IFF_RUNNING)) == (LibC.IFF_UP | LibC.IFF_RUNNING);
    }

    private int ask(final int operation)
    {
        request.setMemory(LibC.IFNAMSIZ, LibC.IFREQ_LENGTH - LibC.IFNAMSIZ, (byte)0);
        return LibC.ioctl(controlFd, operation, request);
    }

    /**
     * Open a port on the interface in the watched namespace: the calling thread enters it for the call and returns to
     * its own.
     *
     * @param opener opens the port.
     * @param <T>    the port.
     * @return the port.
     * @throws PacketSocketException as the opener does, or if the namespace cannot be entered.
     */
    public <T> T open(final Opener<T> opener) throws PacketSocketException
    {
        final int here = LibC.open(THREAD_NAMESPACE, LibC.O_RDONLY | LibC.O_CLOEXEC);
        if (here < 0)
        {
            throw PacketSocketException.fromErrno("opening the thread's network namespace", interfaceName,
                Native.getLastError());
        }
        try
        {
            if (0 != LibC.setns(namespaceFd, LibC.CLONE_NEWNET))
            {
                throw PacketSocketException.fromErrno("entering the port's network namespace", interfaceName,
                    Native.getLastError());
            }
            try
            {
                return opener.open(interfaceName);
            }
            finally
            {
                if (0 != LibC.setns(here, LibC.CLONE_NEWNET))
                {
                    throw new IllegalStateException("cannot return to the thread's network namespace after opening " +
                        interfaceName + ": " + LibC.strerror(Native.getLastError()));
                }
            }
        }
        finally
        {
            LibC.close(here);
        }
    }

    /**
     * Close the namespace and control descriptors.
     */
    public void close()
    {
        if (!closed)
        {
            closed = true;
            LibC.close(controlFd);
            LibC.close(namespaceFd);
        }
    }
}
