package io.pfabric.common.packet;

import com.sun.jna.Memory;
import com.sun.jna.Native;

/**
 * Claims an IPv4 protocol number for this host so that the kernel does not answer its packets with ICMP
 * protocol-unreachable: a raw {@code AF_INET} socket for the protocol, with a socket filter that drops everything
 * (one classic BPF instruction, {@code ret #0}), so nothing is queued on it. The kernel counts the protocol as
 * delivered as soon as a raw socket matches, before the filter runs. The packets themselves are read elsewhere (from
 * a packet socket).
 */
public final class ProtocolSink implements AutoCloseable
{
    private static final short BPF_RET_K = 0x06;
    private static final int SOCK_FILTER_LENGTH = 8;
    private static final int SOCK_FPROG_LENGTH = 16;

    private final int fd;

    private ProtocolSink(final int fd)
    {
        this.fd = fd;
    }

    /**
     * Open the sink in the calling thread's network namespace.
     *
     * @param protocol the IPv4 protocol number, e.g. 253.
     * @return the sink; keep it open as long as the protocol is in use.
     * @throws PacketSocketException if the socket cannot be made (without root or CAP_NET_RAW, say).
     */
    public static ProtocolSink open(final int protocol) throws PacketSocketException
    {
        final int fd = LibC.socket(LibC.AF_INET, LibC.SOCK_RAW | LibC.SOCK_CLOEXEC, protocol);
        if (fd < 0)
        {
            final int errno = Native.getLastError();
            throw new PacketSocketException("cannot open a raw IPv4 socket for protocol " + protocol + ": errno " +
                errno + (LibC.EPERM == errno || LibC.EACCES == errno ? " (needs root or CAP_NET_RAW)" : ""));
        }
        final Memory filter = new Memory(SOCK_FILTER_LENGTH);
        filter.setShort(0, BPF_RET_K);
        filter.setByte(2, (byte)0);
        filter.setByte(3, (byte)0);
        filter.setInt(4, 0);
        final Memory program = new Memory(SOCK_FPROG_LENGTH);
        program.clear();
        program.setShort(0, (short)1);
        program.setPointer(8, filter);
        if (0 != LibC.setsockopt(fd, LibC.SOL_SOCKET, LibC.SO_ATTACH_FILTER, program, SOCK_FPROG_LENGTH))
        {
            final int errno = Native.getLastError();
            LibC.close(fd);
            throw new PacketSocketException("cannot attach the drop-all filter: errno " + errno);
        }
        return new ProtocolSink(fd);
    }

    /**
     * Release the protocol.
     */
    public void close()
    {
        LibC.close(fd);
    }
}
