package io.pfabric.common.packet;

/**
 * A packet socket could not be set up or used; the message says what was attempted, on which interface, and why.
 */
public final class PacketSocketException extends Exception
{
    private static final long serialVersionUID = 1L;

    private final int errno;

    /**
     * The error with its message.
     *
     * @param message what failed and why.
     */
    public PacketSocketException(final String message)
    {
        this(message, 0);
    }

    PacketSocketException(final String message, final int errno)
    {
        super(message);
        this.errno = errno;
    }

    /**
     * @return the system call's error number behind this failure, or 0 if there was none.
     */
    int errno()
    {
        return errno;
    }

    static PacketSocketException fromErrno(final String action, final String interfaceName, final int errno)
    {
        final String why = switch (errno)
        {
            case LibC.EPERM, LibC.EACCES -> "permission denied: packet sockets need root or CAP_NET_RAW";
            case LibC.ENODEV -> "no such interface";
            default -> LibC.strerror(errno) + " (errno " + errno + ")";
        };
        return new PacketSocketException(action + " on " + interfaceName + ": " + why, errno);
    }
}
