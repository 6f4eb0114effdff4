package io.pfabric.common.packet;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

/**
 * A BPF program that drops every frame arriving on one interface, attached through a BPF link held by this process
 * and detached on {@link #close()} or when the process ends. A benchmark's sink, in one of two places:
 * {@link #attach(String)} attaches an XDP program in the driver's (native) mode, which frees the frame before the
 * kernel runs any of its stack (a veth counts the drops in {@code ethtool -S}'s {@code rx_queue_N_xdp_drops}, but
 * first copies a frame it holds in page fragments, or with too little headroom, into a page of its own);
 * {@link #attachTc(String)} attaches a tc (tcx) ingress program, which drops the socket buffer as it is, after the
 * packet sockets' taps and before IP.
 */
public final class XdpDrop implements AutoCloseable
{
    private static final int BPF_PROG_LOAD = 5;
    private static final int BPF_LINK_CREATE = 28;
    private static final int BPF_PROG_TYPE_SCHED_CLS = 3;
    static final int BPF_PROG_TYPE_XDP = 6;
    static final int BPF_XDP = 37;
    private static final int BPF_TCX_INGRESS = 46;
    private static final int TC_ACT_SHOT = 2;
    private static final int XDP_FLAGS_DRV_MODE = 4;
    private static final int XDP_DROP = 1;
    private static final int XDP_PASS = 2;
    private static final int PROG_LOAD_ATTRIBUTES_LENGTH = 72;
    private static final int LINK_CREATE_ATTRIBUTES_LENGTH = 16;

    private final int programFd;
    private final int linkFd;
    private boolean closed;

    private XdpDrop(final int programFd, final int linkFd)
    {
        this.programFd = programFd;
        this.linkFd = linkFd;
    }

    /**
     * Load the program and attach it to an interface of the calling thread's network namespace.
     *
     * @param interfaceName the interface.
     * @return the attachment; close it to detach.
     * @throws PacketSocketException naming the interface and why (no such interface, no XDP in the driver, not root).
     */
    public static XdpDrop attach(final String interfaceName) throws PacketSocketException
    {
        return attach(interfaceName, BPF_PROG_TYPE_XDP, BPF_XDP, XDP_FLAGS_DRV_MODE, XDP_DROP,
            "an XDP program in native mode");
    }

    /**
     * Load a tc program that drops every frame and attach it to the ingress of an interface of the calling thread's
     * network namespace.
     *
     * @param interfaceName the interface.
     * @return the attachment; close it to detach.
     * @throws PacketSocketException naming the interface and why (no such interface, no tcx in the kernel, not root).
     */
    public static XdpDrop attachTc(final String interfaceName) throws PacketSocketException
    {
        return attach(interfaceName, BPF_PROG_TYPE_SCHED_CLS, BPF_TCX_INGRESS, 0, TC_ACT_SHOT,
            "a tc ingress program");
    }

    private static XdpDrop attach(
        final String interfaceName, final int programType, final int attachType, final int flags, final int verdict,
        final String what) throws PacketSocketException
    {
        final int index = LibC.if_nametoindex(interfaceName);
        if (0 == index)
        {
            throw new PacketSocketException("no interface named '" + interfaceName + "' in this network namespace");
        }
        final int programFd = load(programType, attachType, verdict);
        if (programFd < 0)
        {
            throw PacketSocketException.fromErrno("loading " + what, interfaceName, -programFd);
        }
        final int linkFd = link(programFd, index, attachType, flags);
        if (linkFd < 0)
        {
            LibC.close(programFd);
            throw PacketSocketException.fromErrno("attaching " + what, interfaceName, -linkFd);
        }
        return new XdpDrop(programFd, linkFd);
    }

    /**
     * Whether an interface's driver has a native XDP hook: a program that passes every frame is attached in native
     * mode and detached at once.
     *
     * @param index the interface's index in the calling thread's network namespace.
     * @return 0 if it has, else the errno of the refusal ({@code EOPNOTSUPP} for a driver without one).
     */
    static int probeNativeMode(final int index)
    {
        final int programFd = load(BPF_PROG_TYPE_XDP, BPF_XDP, XDP_PASS);
        if (programFd < 0)
        {
            return -programFd;
        }
        final int linkFd = link(programFd, index, BPF_XDP, XDP_FLAGS_DRV_MODE);
        if (linkFd >= 0)
        {
            LibC.close(linkFd);
        }
        LibC.close(programFd);
        return linkFd < 0 ? -linkFd : 0;
    }

    /**
     * Load a program of two instructions that returns one verdict for every frame.
     *
     * @param programType BPF_PROG_TYPE_*.
     * @param attachType  BPF_* attach type the kernel checks the program against.
     * @param verdict     what the program returns.
     * @return the program's descriptor, or minus the errno of the refusal.
     */
    static int load(final int programType, final int attachType, final int verdict)
    {
        final Memory instructions = new Memory(16);
        instructions.clear();
        instructions.setByte(0, (byte)0xb7);
        instructions.setInt(4, verdict);
        instructions.setByte(8, (byte)0x95);
        return load(programType, attachType, instructions, 2, "pfabric_drop");
    }

    /**
     * Load a program.
     *
     * @param programType  BPF_PROG_TYPE_*.
     * @param attachType   BPF_* attach type the kernel checks the program against.
     * @param instructions the program, eight bytes an instruction.
     * @param count        instructions in it.
     * @param name         the program's name, up to 15 characters, for bpftool.
     * @return the program's descriptor, or minus the errno of the refusal.
     */
    static int load(
        final int programType, final int attachType, final Memory instructions, final int count, final String name)
    {
        final Memory license = new Memory(4);
        license.setString(0, "GPL", "US-ASCII");
        final Memory load = new Memory(PROG_LOAD_ATTRIBUTES_LENGTH);
        load.clear();
        load.setInt(0, programType);
        load.setInt(4, count);
        load.setLong(8, Pointer.nativeValue(instructions));
        load.setLong(16, Pointer.nativeValue(license));
        load.setString(48, name, "US-ASCII");
        load.setInt(68, attachType);
        final int programFd = (int)LibC.syscall(LibC.SYS_BPF, BPF_PROG_LOAD, load, PROG_LOAD_ATTRIBUTES_LENGTH);
        return programFd < 0 ? -Native.getLastError() : programFd;
    }

    private static int link(final int programFd, final int index, final int attachType, final int flags)
    {
        final Memory link = new Memory(LINK_CREATE_ATTRIBUTES_LENGTH);
        link.clear();
        link.setInt(0, programFd);
        link.setInt(4, index);
        link.setInt(8, attachType);
        link.setInt(12, flags);
        final int linkFd = (int)LibC.syscall(LibC.SYS_BPF, BPF_LINK_CREATE, link, LINK_CREATE_ATTRIBUTES_LENGTH);
        return linkFd < 0 ? -Native.getLastError() : linkFd;
    }

    /**
     * Detach the program.
     */
    public void close()
    {
        if (!closed)
        {
            closed = true;
            LibC.close(linkFd);
            LibC.close(programFd);
        }
    }
}
