package io.pfabric.common.packet;

import com.sun.jna.Native;
import com.sun.jna.Pointer;

/**
 * The few libc calls a packet socket needs, bound with JNA direct mapping. Called for setup, for one transmit kick
 * per batch and for a poll when idle; never per packet.
 */
final class LibC
{
    static final int AF_INET = 2;
    static final int AF_PACKET = 17;
    static final int SOL_SOCKET = 1;
    static final int SO_ATTACH_FILTER = 26;
    static final int SOCK_DGRAM = 2;
    static final int SOCK_RAW = 3;
    static final int SOCK_NONBLOCK = 0x800;
    static final int SOCK_CLOEXEC = 0x80000;
    static final int ETH_P_ALL_NETWORK_ORDER = 0x0300;
    static final int SOL_PACKET = 263;
    static final int PACKET_ADD_MEMBERSHIP = 1;
    static final int PACKET_MR_PROMISC = 1;
    static final int PACKET_RX_RING = 5;
    static final int PACKET_STATISTICS = 6;
    static final int PACKET_VERSION = 10;
    static final int PACKET_TX_RING = 13;
    static final int PACKET_LOSS = 14;
    static final int PACKET_VNET_HDR = 15;
    static final int PACKET_IGNORE_OUTGOING = 23;
    static final int TPACKET_V2 = 1;
    static final int PROT_READ = 1;
    static final int PROT_WRITE = 2;
    static final int MAP_SHARED = 1;
    static final int MAP_PRIVATE = 2;
    static final int MAP_ANONYMOUS = 0x20;
    static final int MAP_POPULATE = 0x8000;
    static final int MSG_DONTWAIT = 0x40;
    static final int POLLIN = 1;
    static final int EFD_NONBLOCK = 0x800;
    static final int EFD_CLOEXEC = 0x80000;
    static final int SIOCGIFMTU = 0x8921;
    static final int SIOCGIFHWADDR = 0x8927;
    static final int SIOCGIFFLAGS = 0x8913;
    static final int SIOCGIFINDEX = 0x8933;
    static final int IFF_UP = 0x1;
    static final int IFF_RUNNING = 0x40;
    static final int IFREQ_LENGTH = 40;
    static final int IFNAMSIZ = 16;
    static final int CLONE_NEWNET = 0x40000000;
    static final int O_RDONLY = 0;
    static final int O_CLOEXEC = 0x80000;
    static final int EAGAIN = 11;
    static final int EPERM = 1;
    static final int EACCES = 13;
    static final int ENODEV = 19;
    static final int EAFNOSUPPORT = 97;
    static final int EOPNOTSUPP = 95;
    static final int EBUSY = 16;
    static final int AF_XDP = 44;
    static final int SOL_XDP = 283;
    static final int XDP_STATISTICS = 7;
    static final int XDP_OPTIONS = 8;
    static final int XDP_OPTIONS_ZEROCOPY = 1;
    static final long SYS_BPF = 321;

    static
    {
        Native.register("c");
    }

    private LibC()
    {
    }

    static native int socket(int domain, int type, int protocol);

    static native int bind(int fd, Pointer address, int addressLength);

    static native int setsockopt(int fd, int level, int option, Pointer value, int valueLength);

    static native int getsockopt(int fd, int level, int option, Pointer value, Pointer valueLength);

    static native Pointer mmap(Pointer address, long length, int protection, int flags, int fd, long offset);

    static native int munmap(Pointer address, long length);

    static native int poll(Pointer fds, int count, int timeoutMs);

    static native int ppoll(Pointer fds, long count, Pointer timeout, Pointer signalMask);

    static native int eventfd(int initialValue, int flags);

    static native long read(int fd, Pointer buffer, long length);

    static native long write(int fd, Pointer buffer, long length);

    static native long sendto(int fd, Pointer buffer, long length, int flags, Pointer to, int toLength);

    static native long recvfrom(int fd, Pointer buffer, long length, int flags, Pointer from, Pointer fromLength);

    static native int if_nametoindex(String name);

    static native int ioctl(int fd, long request, Pointer argument);

    static native int close(int fd);

    static native int open(String path, int flags);

    static native int setns(int fd, int type);

    static native int prctl(int option, long argument2, long argument3, long argument4, long argument5);

    static native String strerror(int errno);

    static native int sched_setscheduler(int pid, int policy, Pointer parameters);

    static native int sched_getscheduler(int pid);

    static native int sched_getaffinity(int pid, long maskLength, Pointer mask);

    static native int sched_setaffinity(int pid, long maskLength, Pointer mask);

    static native int setpriority(int which, int who, int priority);

    static native int gettid();

    static native long syscall(long number, int command, Pointer attributes, int attributesLength);
}
