package io.pfabric.common.packet;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.ref.Reference;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An AF_XDP port on queue 0 of one Linux interface: a UMEM of its own (frames for receiving and frames for
 * transmitting, in one anonymous mapping), an AF_XDP socket bound to the queue, and libxdp's redirect program on the
 * interface, which hands the socket every frame of the queue before the kernel's stack sees it. libxdp (through JNA)
 * creates the UMEM and the socket and loads the program; the four rings are read and written here, over the memory
 * the kernel maps ({@link XskRing}).
 * <p>
 * The program is attached in the driver's (native) mode where the driver has one (veth does; a program that passes
 * every frame is attached and taken off again to find out), and in generic mode otherwise; the socket binds in
 * zero-copy mode where the driver offers it and copies otherwise. {@link #attachMode()} says which. A redirect program
 * that a process which ended without closing its port left on the interface is taken off first
 * ({@link #staleProgramDetached()}). Received frames are handed to the handler in place, in the UMEM; a transmitted
 * frame is copied into a free transmit frame, and {@link #flush()} hands the batch to the kernel with one
 * {@code sendto} when it asks for one. Frames the kernel has sent come back through the completion ring and are
 * reused. A packet socket of protocol 0 that receives nothing holds the interface in promiscuous mode while the port
 * is open, as a real NIC's address filter would otherwise drop frames for the hosts behind it.
 * <p>
 * A port opened with {@link #openShared(String, XdpUmem)} has no UMEM of its own but one that all of a switch's ports
 * share: its fill ring is stocked from the UMEM's pool, and a received frame goes back to the pool after the handler
 * returns unless the handler keeps it ({@link #keepReceived()}), to queue it by its address and send it on another port
 * of the UMEM as it is ({@link #transmitHeld(long, int)}); frames the kernel has sent go back to the pool, and so does
 * every frame the socket's rings held when the port closes.
 * <p>
 * Frames longer than {@link #maxFrameLength()} are counted in {@link #oversizeDrops()} and dropped. There is no
 * arrival stamp ({@link #arrivalNs()} is unknown). Single-threaded.
 */
public final class XdpPort implements FramePort, PolledPort
{
    /**
     * Bytes per UMEM frame.
     */
    public static final int FRAME_LENGTH = 2048;

    /**
     * Frames for receiving (and entries in the fill and receive rings).
     */
    public static final int RECEIVE_FRAMES = 2048;

    /**
     * Frames for transmitting (and entries in the transmit and completion rings).
     */
    public static final int TRANSMIT_FRAMES = 2048;

    /**
     * What to do instead, said by every error that means AF_XDP cannot be had.
     */
    public static final String USE_PACKET_PORTS =
        "use AF_PACKET ports instead (io: packet in the topology, --io packet for switchd --interfaces)";

    /**
     * How long a bind that finds the interface's queue taken waits for it to be given back. A closed socket holds its
     * queue until the kernel frees the socket after an RCU grace period and then its buffer pool from a work queue:
     * 30-60 ms on the development VM, whose kernel has lazy RCU, which may hold such callbacks back for up to 10 s. So a
     * port opened again right after it closed (a switch restarted, a port taken out and put back) waits, while no XDP
     * program is on the interface: another socket or program that uses it has one there, and is said to at once.
     */
    private static final long QUEUE_RELEASE_PATIENCE_NS = 12_000_000_000L;
    private static final long QUEUE_RELEASE_POLL_MS = 5;
    private static final int XDP_PACKET_HEADROOM = 256;
    private static final int ETHERNET_HEADER_LENGTH = 14;
    private static final int STATISTICS_LENGTH = 48;
    private static final int SOCKADDR_LL_LENGTH = 20;
    private static final long FRAME_MASK = ~(long)(FRAME_LENGTH - 1);
    private static final String THREAD_NAMESPACE = "/proc/thread-self/ns/net";
    private static final String REDIRECT_PROGRAM = "xsk_def_prog";
    private static final int FILL = 0;
    private static final int COMPLETION = 1;
    private static final int RX = 2;
    private static final int TX = 3;
    private static final long RING_STRUCTS = 4;

    /**
     * The ids of the redirect programs of this process's open ports, which {@link #detachStaleProgram} leaves on.
     */
    private static final Set<Integer> OPEN_PORTS_PROGRAMS = ConcurrentHashMap.newKeySet();

    private final String interfaceName;
    private final int interfaceIndex;
    private final int redirectProgramId;
    private final String attachMode;
    private final String umemDescription;
    private final boolean staleProgramDetached;
    private final Pointer umemArea;
    private final long umemLength;
    private final Pointer umem;
    private final Pointer socket;
    private final int fd;
    private final int controlFd;
    private final int promiscuousFd;
    private final int wakeFd;
    private final int namespaceFd;
    private final int maxFrameLength;
    private final UnsafeBuffer frames;
    /**
     * The four ring structures (fill, completion, receive, transmit) that libxdp fills in and keeps pointers to until
     * the socket and UMEM are deleted, where it unmaps the rings through them: they live as long as the port.
     */
    private final Memory ringStructs;
    private final XskRing fill;
    private final XskRing completion;
    private final XskRing rx;
    private final XskRing tx;
    private final XdpUmem shared;
    private final UmemFramePool pool;
    private final int socketNumber;
    private final long[] freeTransmitFrames;
    private final PacketPortSet waitSet = new PacketPortSet(1);
    private final Memory wakeValue = new Memory(8);
    private final Memory wakeDrain = new Memory(8);
    private final Memory statistics = new Memory(STATISTICS_LENGTH);
    private final Memory statisticsLength = new Memory(4);
    private final Memory flagsRequest = new Memory(LibC.IFREQ_LENGTH);
    private int freeTransmitCount;
    private int receiveHeld;
    private long currentAddress;
    private boolean kept;
    private int txPending;
    private long transmitRetries;
    private long oversizeDrops;
    private long kernelDrops;
    private boolean closed;

    private XdpPort(
        final String interfaceName,
        final int interfaceIndex,
        final String attachMode,
        final String umemDescription,
        final boolean staleProgramDetached,
        final XdpUmem shared,
        final Pointer umemArea,
        final long umemLength,
        final Pointer umem,
        final Pointer socket,
        final int controlFd,
        final int promiscuousFd,
        final int wakeFd,
        final int namespaceFd,
        final int maxFrameLength,
        final Memory ringStructs)
    {
        this.interfaceName = interfaceName;
        this.interfaceIndex = interfaceIndex;
        this.redirectProgramId = redirectProgramId(interfaceIndex);
        if (redirectProgramId >= 0)
        {
            OPEN_PORTS_PROGRAMS.add(redirectProgramId);
        }
        this.attachMode = attachMode;
        this.umemDescription = umemDescription;
        this.staleProgramDetached = staleProgramDetached;
        this.shared = shared;
        this.pool = null == shared ? null : shared.pool();
        this.socketNumber = null == shared ? -1 : pool.newSocket();
        this.umemArea = umemArea;
        this.umemLength = umemLength;
        this.umem = umem;
        this.socket = socket;
        this.fd = LibXdp.xsk_socket__fd(socket);
        this.controlFd = controlFd;
        this.promiscuousFd = promiscuousFd;
        this.wakeFd = wakeFd;
        this.namespaceFd = namespaceFd;
        this.maxFrameLength = maxFrameLength;
        this.frames = null == shared ? new UnsafeBuffer(Pointer.nativeValue(umemArea), (int)umemLength) :
            shared.frames();
        this.ringStructs = ringStructs;
        this.fill = ring(ringStruct(ringStructs, FILL), XskRing.ADDRESS_ENTRY_LENGTH, true);
        this.completion = ring(ringStruct(ringStructs, COMPLETION), XskRing.ADDRESS_ENTRY_LENGTH, false);
        this.rx = ring(ringStruct(ringStructs, RX), XskRing.DESCRIPTOR_ENTRY_LENGTH, false);
        this.tx = ring(ringStruct(ringStructs, TX), XskRing.DESCRIPTOR_ENTRY_LENGTH, true);
        flagsRequest.clear();
        flagsRequest.setString(0, interfaceName, "US-ASCII");
        wakeValue.setLong(0, 1);
        if (null != shared)
        {
            freeTransmitFrames = null;
            stockFill();
        }
        else
        {
            freeTransmitFrames = new long[TRANSMIT_FRAMES];
            for (int i = 0; i < TRANSMIT_FRAMES; i++)
            {
                freeTransmitFrames[freeTransmitCount++] = (long)(RECEIVE_FRAMES + i) * FRAME_LENGTH;
            }
            if (RECEIVE_FRAMES != fill.reserve(RECEIVE_FRAMES))
            {
                throw new IllegalStateException(
                    "the fill ring of " + fill.size + " entries has no room for every frame");
            }
            for (int i = 0; i < RECEIVE_FRAMES; i++)
            {
                fill.putAddress(fill.index() + i, (long)i * FRAME_LENGTH);
            }
            fill.submit(RECEIVE_FRAMES);
        }
        waitSet.add(this);
    }

    private static XskRing ring(final Pointer struct, final int entryLength, final boolean producerSide)
    {
        final int size = struct.getInt(LibXdp.RING_SIZE_OFFSET);
        final UnsafeBuffer producer = new UnsafeBuffer(Pointer.nativeValue(
            struct.getPointer(LibXdp.RING_PRODUCER_OFFSET)), 4);
        final UnsafeBuffer consumer = new UnsafeBuffer(Pointer.nativeValue(
            struct.getPointer(LibXdp.RING_CONSUMER_OFFSET)), 4);
        final UnsafeBuffer flags = new UnsafeBuffer(Pointer.nativeValue(
            struct.getPointer(LibXdp.RING_FLAGS_OFFSET)), 4);
        final UnsafeBuffer entries = new UnsafeBuffer(Pointer.nativeValue(
            struct.getPointer(LibXdp.RING_ENTRIES_OFFSET)), size * entryLength);
        return producerSide ? XskRing.producer(size, entryLength, producer, consumer, flags, entries) :
            XskRing.consumer(size, entryLength, producer, consumer, flags, entries);
    }

    /**
     * Open a port on queue 0 of an interface of the calling thread's network namespace, accepting frames up to the
     * interface's MTU. A queue that a socket closed just before still holds is waited for, up to 12 s, as the kernel
     * gives it back after the socket is freed.
     *
     * @param interfaceName such as {@code eth1}.
     * @return the port.
     * @throws PacketSocketException naming the interface and why AF_XDP cannot be had (libxdp missing, no AF_XDP in
     *                               the kernel, no privilege, the driver refusing), and saying to use AF_PACKET ports.
     */
    public static XdpPort open(final String interfaceName) throws PacketSocketException
    {
        return open(interfaceName, null, "own UMEM");
    }

    /**
     * Open a port on queue 0 of an interface of the calling thread's network namespace on a UMEM that the switch's
     * AF_XDP ports share, or, where the kernel or libxdp refuses to share it, on a UMEM of its own, which
     * {@link #umemDescription()} then says with the reason.
     *
     * @param interfaceName such as {@code eth1}.
     * @param umem          the switch's UMEM.
     * @return the port.
     * @throws PacketSocketException as {@link #open(String)}.
     */
    public static XdpPort openShared(final String interfaceName, final XdpUmem umem) throws PacketSocketException
    {
        try
        {
            return open(interfaceName, umem, "shared UMEM");
        }
        catch (final PacketSocketException ex)
        {
            if (LibC.EBUSY == ex.errno())
            {
                throw ex;
            }
            final String message = ex.getMessage();
            final int advice = message.indexOf("; " + USE_PACKET_PORTS);
            return open(interfaceName, null,
                "own UMEM, as sharing the switch's failed (" + (advice < 0 ? message : message.substring(0, advice)) +
                ")");
        }
    }

    private static XdpPort open(final String interfaceName, final XdpUmem shared, final String umemDescription)
        throws PacketSocketException
    {
        if (interfaceName.isEmpty() || interfaceName.length() >= LibC.IFNAMSIZ)
        {
            throw new PacketSocketException("'" + interfaceName + "' is not an interface name (1 to 15 characters)");
        }
        final int index = LibC.if_nametoindex(interfaceName);
        if (0 == index)
        {
            throw new PacketSocketException("no interface named '" + interfaceName + "' in this network namespace");
        }
        if (null != LibXdp.LOAD_ERROR)
        {
            throw new PacketSocketException("opening an AF_XDP port on " + interfaceName +
                ": libxdp cannot be loaded (Debian packages libxdp1 and libbpf1: " + LibXdp.LOAD_ERROR + "); " +
                USE_PACKET_PORTS);
        }
        final int probe = LibC.socket(LibC.AF_XDP, LibC.SOCK_RAW | LibC.SOCK_CLOEXEC, 0);
        if (probe < 0)
        {
            throw unavailable("opening an AF_XDP socket", interfaceName, Native.getLastError());
        }
        LibC.close(probe);

        final long umemLength = null == shared ? (long)(RECEIVE_FRAMES + TRANSMIT_FRAMES) * FRAME_LENGTH : 0;
        Pointer area = null;
        Pointer umem = null;
        Pointer socket = null;
        int controlFd = -1;
        int promiscuousFd = -1;
        int wakeFd = -1;
        int namespaceFd = -1;
        try
        {
            if (null == shared)
            {
                area = LibC.mmap(null, umemLength, LibC.PROT_READ | LibC.PROT_WRITE,
                    LibC.MAP_PRIVATE | LibC.MAP_ANONYMOUS | LibC.MAP_POPULATE, -1, 0);
                if (null == area || -1 == Pointer.nativeValue(area))
                {
                    area = null;
                    throw PacketSocketException.fromErrno("mapping an AF_XDP UMEM", interfaceName,
                        Native.getLastError());
                }
            }
            final Memory ringStructs = new Memory(RING_STRUCTS * LibXdp.RING_STRUCT_LENGTH);
            ringStructs.clear();
            final Memory socketOut = new Memory(8);
            socketOut.clear();
            final boolean staleDetached = detachStaleProgram(index);
            final int nativeRefusal = XdpDrop.probeNativeMode(index);
            if (LibC.EPERM == nativeRefusal || LibC.EACCES == nativeRefusal)
            {
                throw unavailable("attaching an XDP program", interfaceName, nativeRefusal);
            }
            final boolean nativeMode = LibC.EOPNOTSUPP != nativeRefusal;
            final int xdpFlags = nativeMode ? LibXdp.XDP_FLAGS_DRV_MODE : LibXdp.XDP_FLAGS_SKB_MODE;
            int socketError;
            final IdleStrategy queueRelease = new SleepingMillisIdleStrategy(QUEUE_RELEASE_POLL_MS);
            final long queueReleaseDeadlineNs = System.nanoTime() + QUEUE_RELEASE_PATIENCE_NS;
            if (null == shared)
            {
                umem = createUmem(area, umemLength, ringStruct(ringStructs, FILL),
                    ringStruct(ringStructs, COMPLETION), interfaceName);
                while (-LibC.EBUSY == (socketError = createSocket(socketOut, interfaceName, umem,
                    ringStruct(ringStructs, RX), ringStruct(ringStructs, TX), xdpFlags)) &&
                    queueBeingGivenBack(index, queueReleaseDeadlineNs))
                {
                    queueRelease.idle();
                }
            }
            else
            {
                final Pointer firstFill = shared.firstFill();
                final Pointer firstCompletion = shared.firstCompletion();
                while (-LibC.EBUSY == (socketError = createSharedSocket(socketOut, interfaceName, shared.umem(),
                    ringStruct(ringStructs, RX), ringStruct(ringStructs, TX),
                    null != firstFill ? firstFill : ringStruct(ringStructs, FILL),
                    null != firstCompletion ? firstCompletion : ringStruct(ringStructs, COMPLETION), xdpFlags)) &&
                    queueBeingGivenBack(index, queueReleaseDeadlineNs))
                {
                    queueRelease.idle();
                }
                if (0 == socketError && null != firstFill)
                {
                    ringStructs.write(FILL * LibXdp.RING_STRUCT_LENGTH,
                        firstFill.getByteArray(0, LibXdp.RING_STRUCT_LENGTH), 0, LibXdp.RING_STRUCT_LENGTH);
                    ringStructs.write(COMPLETION * LibXdp.RING_STRUCT_LENGTH,
                        firstCompletion.getByteArray(0, LibXdp.RING_STRUCT_LENGTH), 0, LibXdp.RING_STRUCT_LENGTH);
                    shared.anchor();
                }
            }
            if (0 != socketError)
            {
                throw unavailable("creating an AF_XDP socket in " + (nativeMode ? "native" : "generic") + " mode" +
                    (null == shared ? "" : " on the switch's shared UMEM"), interfaceName, -socketError);
            }
            socket = socketOut.getPointer(0);
            final int fd = LibXdp.xsk_socket__fd(socket);

            final Memory options = new Memory(4);
            final Memory optionsLength = new Memory(4);
            optionsLength.setInt(0, 4);
            options.setInt(0, 0);
            final boolean zeroCopy =
                0 == LibC.getsockopt(fd, LibC.SOL_XDP, LibC.XDP_OPTIONS, options, optionsLength) &&
                0 != (options.getInt(0) & LibC.XDP_OPTIONS_ZEROCOPY);

            controlFd = LibC.socket(LibC.AF_INET, LibC.SOCK_DGRAM | LibC.SOCK_CLOEXEC, 0);
            if (controlFd < 0)
            {
                throw PacketSocketException.fromErrno("opening a control socket", interfaceName,
                    Native.getLastError());
            }
            final int mtu = ifreqInt(controlFd, LibC.SIOCGIFMTU, interfaceName);
            promiscuousFd = promiscuous(index, interfaceName);
            wakeFd = LibC.eventfd(0, LibC.EFD_NONBLOCK | LibC.EFD_CLOEXEC);
            if (wakeFd < 0)
            {
                throw PacketSocketException.fromErrno("opening an eventfd", interfaceName, Native.getLastError());
            }
            final int limit = Math.min(mtu + ETHERNET_HEADER_LENGTH, FRAME_LENGTH - XDP_PACKET_HEADROOM);
            namespaceFd = LibC.open(THREAD_NAMESPACE, LibC.O_RDONLY | LibC.O_CLOEXEC);
            if (namespaceFd < 0)
            {
                throw PacketSocketException.fromErrno("opening the network namespace", interfaceName,
                    Native.getLastError());
            }
            final String mode = (nativeMode ? "native" : "generic") + (zeroCopy ? ", zero-copy" : ", copy");
            return new XdpPort(interfaceName, index, mode, umemDescription, staleDetached, shared, area, umemLength,
                umem, socket, controlFd, promiscuousFd, wakeFd, namespaceFd, limit, ringStructs);
        }
        catch (final PacketSocketException | RuntimeException ex)
        {
            if (null != socket)
            {
                LibXdp.xsk_socket__delete(socket);
            }
            if (null != umem)
            {
                LibXdp.xsk_umem__delete(umem);
            }
            if (null != area)
            {
                LibC.munmap(area, umemLength);
            }
            for (final int other : new int[] {controlFd, promiscuousFd, wakeFd, namespaceFd})
            {
                if (other >= 0)
                {
                    LibC.close(other);
                }
            }
            throw ex;
        }
    }

    /**
     * Whether a bind that found the interface's queue taken may yet have it: the patience has not run out, and no XDP
     * program is on the interface, as there is while another open socket or program uses it.
     */
    private static boolean queueBeingGivenBack(final int index, final long deadlineNs)
    {
        if (System.nanoTime() - deadlineNs >= 0)
        {
            return false;
        }
        final Pointer programs = LibXdp.xdp_multiprog__get_from_ifindex(index);
        if (null == programs || 0 != LibXdp.libxdp_get_error(programs))
        {
            return true;
        }
        LibXdp.xdp_multiprog__close(programs);
        return false;
    }

    /**
     * Take libxdp's redirect program off an interface where a process that ended without closing its AF_XDP port left
     * it: libxdp would reuse it and find the queue's socket gone. One that a running process holds open is in use, and
     * stays, as does any other program.
     */
    private static boolean detachStaleProgram(final int index)
    {
        final int redirect = redirectProgramId(index);
        if (redirect < 0 || OPEN_PORTS_PROGRAMS.contains(redirect) || BpfProgramHolders.heldElsewhere(redirect))
        {
            return false;
        }
        final Pointer programs = LibXdp.xdp_multiprog__get_from_ifindex(index);
        if (null == programs || 0 != LibXdp.libxdp_get_error(programs))
        {
            return false;
        }
        try
        {
            return redirect == redirectProgramId(programs) && 0 == LibXdp.xdp_multiprog__detach(programs);
        }
        finally
        {
            LibXdp.xdp_multiprog__close(programs);
        }
    }

    /**
     * @return the id of libxdp's redirect program on the interface, or -1 if it has none. The lookup may leave the
     * program open in this process (libxdp does in legacy mode), which is why {@link BpfProgramHolders} leaves this
     * process out and {@link #OPEN_PORTS_PROGRAMS} says which are this process's own.
     */
    private static int redirectProgramId(final int index)
    {
        final Pointer programs = LibXdp.xdp_multiprog__get_from_ifindex(index);
        if (null == programs || 0 != LibXdp.libxdp_get_error(programs))
        {
            return -1;
        }
        try
        {
            return redirectProgramId(programs);
        }
        finally
        {
            LibXdp.xdp_multiprog__close(programs);
        }
    }

    private static int redirectProgramId(final Pointer programs)
    {
        if (LibXdp.xdp_multiprog__is_legacy(programs))
        {
            final Pointer main = LibXdp.xdp_multiprog__main_prog(programs);
            return null != main && REDIRECT_PROGRAM.equals(LibXdp.xdp_program__name(main)) ?
                LibXdp.xdp_program__id(main) : -1;
        }
        for (Pointer program = LibXdp.xdp_multiprog__next_prog(null, programs); null != program;
            program = LibXdp.xdp_multiprog__next_prog(program, programs))
        {
            if (REDIRECT_PROGRAM.equals(LibXdp.xdp_program__name(program)))
            {
                return LibXdp.xdp_program__id(program);
            }
        }
        return -1;
    }

    static Pointer createUmem(
        final Pointer area, final long umemLength, final Pointer fillStruct, final Pointer completionStruct,
        final String interfaceName) throws PacketSocketException
    {
        final Memory umemConfig = new Memory(LibXdp.UMEM_CONFIG_LENGTH);
        umemConfig.clear();
        umemConfig.setInt(0, RECEIVE_FRAMES);
        umemConfig.setInt(4, TRANSMIT_FRAMES);
        umemConfig.setInt(8, FRAME_LENGTH);
        final Memory umemOut = new Memory(8);
        umemOut.clear();
        final int umemError = LibXdp.xsk_umem__create(
            umemOut, area, umemLength, fillStruct, completionStruct, umemConfig);
        if (0 != umemError)
        {
            throw unavailable("creating an AF_XDP UMEM", interfaceName, -umemError);
        }
        return umemOut.getPointer(0);
    }

    private static int createSocket(
        final Memory socketOut, final String interfaceName, final Pointer umem, final Pointer rxStruct,
        final Pointer txStruct, final int xdpFlags)
    {
        final Memory config = new Memory(LibXdp.SOCKET_CONFIG_LENGTH);
        config.clear();
        config.setInt(0, RECEIVE_FRAMES);
        config.setInt(4, TRANSMIT_FRAMES);
        config.setInt(12, xdpFlags);
        config.setShort(16, LibXdp.XDP_USE_NEED_WAKEUP);
        return LibXdp.xsk_socket__create(socketOut, interfaceName, 0, umem, rxStruct, txStruct, config);
    }

    private static int createSharedSocket(
        final Memory socketOut, final String interfaceName, final Pointer umem, final Pointer rxStruct,
        final Pointer txStruct, final Pointer fillStruct, final Pointer completionStruct, final int xdpFlags)
    {
        final Memory config = new Memory(LibXdp.SOCKET_CONFIG_LENGTH);
        config.clear();
        config.setInt(0, RECEIVE_FRAMES);
        config.setInt(4, TRANSMIT_FRAMES);
        config.setInt(12, xdpFlags);
        config.setShort(16, LibXdp.XDP_USE_NEED_WAKEUP);
        return LibXdp.xsk_socket__create_shared(socketOut, interfaceName, 0, umem, rxStruct, txStruct, fillStruct,
            completionStruct, config);
    }

    private static Pointer ringStruct(final Memory ringStructs, final int ring)
    {
        return ringStructs.share((long)ring * LibXdp.RING_STRUCT_LENGTH, LibXdp.RING_STRUCT_LENGTH);
    }

    private static String denied()
    {
        return "permission denied: AF_XDP needs root, or CAP_NET_RAW with CAP_BPF and CAP_NET_ADMIN";
    }

    private static PacketSocketException unavailable(final String action, final String interfaceName, final int errno)
    {
        final String why = switch (errno)
        {
            case LibC.EPERM, LibC.EACCES -> denied();
            case LibC.EAFNOSUPPORT -> "the kernel has no AF_XDP sockets (CONFIG_XDP_SOCKETS)";
            case LibC.EBUSY ->
                "the interface's queue 0 or its XDP hook is taken (another AF_XDP socket or XDP program)";
            default -> LibC.strerror(errno) + " (errno " + errno + ")";
        };
        return new PacketSocketException(action + " on " + interfaceName + ": " + why + "; " + USE_PACKET_PORTS, errno);
    }

    private static int promiscuous(final int index, final String interfaceName) throws PacketSocketException
    {
        final int fd = LibC.socket(LibC.AF_PACKET, LibC.SOCK_RAW | LibC.SOCK_CLOEXEC, 0);
        if (fd < 0)
        {
            throw PacketSocketException.fromErrno("opening a packet socket", interfaceName, Native.getLastError());
        }
        final Memory address = new Memory(SOCKADDR_LL_LENGTH);
        address.clear();
        address.setShort(0, (short)LibC.AF_PACKET);
        address.setInt(4, index);
        final Memory membership = new Memory(16);
        membership.clear();
        membership.setInt(0, index);
        membership.setShort(4, (short)LibC.PACKET_MR_PROMISC);
        if (0 != LibC.bind(fd, address, SOCKADDR_LL_LENGTH) ||
            0 != LibC.setsockopt(fd, LibC.SOL_PACKET, LibC.PACKET_ADD_MEMBERSHIP, membership, 16))
        {
            final int errno = Native.getLastError();
            LibC.close(fd);
            throw PacketSocketException.fromErrno("joining promiscuous mode", interfaceName, errno);
        }
        return fd;
    }

    private static int ifreqInt(final int fd, final int request, final String interfaceName)
        throws PacketSocketException
    {
        return PacketPort.ifreq(fd, request, interfaceName).getInt(LibC.IFNAMSIZ);
    }

    /**
     * Whether opening the port took a redirect program off the interface that an earlier process had left there (it
     * ended without closing its port).
     *
     * @return true if it did.
     */
    public boolean staleProgramDetached()
    {
        return staleProgramDetached;
    }

    /**
     * How the redirect program is attached and the socket bound: {@code native} or {@code generic}, then
     * {@code copy} or {@code zero-copy}.
     *
     * @return such as {@code native, copy}.
     */
    public String attachMode()
    {
        return attachMode;
    }

    /**
     * Whether the port's UMEM is the switch's, and if not why: {@code shared UMEM}, {@code own UMEM}, or
     * {@code own UMEM, as sharing the switch's failed (...)}.
     *
     * @return the description.
     */
    public String umemDescription()
    {
        return umemDescription;
    }

    /**
     * The UMEM the port shares with the switch's other ports.
     *
     * @return the UMEM, or null for a port with one of its own.
     */
    public XdpUmem sharedUmem()
    {
        return shared;
    }

    /**
     * Keep the frame being handed to {@link #receive}'s handler instead of giving it back to the pool when the handler
     * returns; the process then holds it, until it gives it back ({@link XdpUmem#give(long)}) or sends it
     * ({@link #transmitHeld(long, int)}). Only during the handler's call, on a port of a shared UMEM.
     *
     * @return the frame's address in the UMEM.
     */
    public long keepReceived()
    {
        kept = true;
        pool.pass(currentAddress, UmemFramePool.PROCESS);
        return currentAddress;
    }

    /**
     * Place a frame the process holds in the shared UMEM for transmission, as it is; the pool has it back once the
     * kernel has sent it, or at once if the transmit ring is full.
     *
     * @param address of the frame's first byte in the UMEM.
     * @param length  of the frame.
     * @return false if the transmit ring was full and the frame went back to the pool.
     */
    public boolean transmitHeld(final long address, final int length)
    {
        if (0 == tx.reserve(1))
        {
            pool.give(address);
            return false;
        }
        tx.putDescriptor(tx.index(), address, length);
        pool.pass(address, socketNumber);
        txPending++;
        return true;
    }

    private void stockFill()
    {
        final int wanted = Math.min(Math.min(RECEIVE_FRAMES - receiveHeld, pool.freeCount()), fill.free(1));
        if (wanted <= 0 || 0 == fill.reserve(wanted))
        {
            return;
        }
        final int first = fill.index();
        for (int i = 0; i < wanted; i++)
        {
            fill.putAddress(first + i, pool.take(socketNumber));
        }
        fill.submit(wanted);
        receiveHeld += wanted;
    }

    private int receiveShared(final PacketHandler handler, final int limit)
    {
        final int taken = rx.peek(limit);
        if (taken > 0)
        {
            final int first = rx.index();
            for (int i = 0; i < taken; i++)
            {
                final long address = rx.descriptorAddress(first + i);
                final int length = rx.descriptorLength(first + i);
                if (length > maxFrameLength)
                {
                    oversizeDrops++;
                    pool.give(address);
                }
                else
                {
                    currentAddress = address;
                    kept = false;
                    handler.onPacket(frames, (int)address, length);
                    if (!kept)
                    {
                        pool.give(address);
                    }
                }
            }
            rx.release(taken);
            receiveHeld -= taken;
        }
        if (receiveHeld < RECEIVE_FRAMES && pool.freeCount() > 0)
        {
            stockFill();
        }
        if (0 == taken && fill.needsWakeup())
        {
            LibC.recvfrom(fd, null, 0, LibC.MSG_DONTWAIT, null, null);
        }
        return taken;
    }

    /**
     * {@inheritDoc}
     * <p>
     * Each frame's UMEM frame goes back to the fill ring after the handler returns (to the pool of a shared UMEM,
     * unless the handler kept it).
     */
    public int receive(final PacketHandler handler, final int limit)
    {
        if (null != pool)
        {
            return receiveShared(handler, limit);
        }
        final int taken = rx.peek(limit);
        if (0 == taken)
        {
            if (fill.needsWakeup())
            {
                LibC.recvfrom(fd, null, 0, LibC.MSG_DONTWAIT, null, null);
            }
            return 0;
        }
        fill.reserve(taken);
        final int first = rx.index();
        final int fillFirst = fill.index();
        for (int i = 0; i < taken; i++)
        {
            final long address = rx.descriptorAddress(first + i);
            final int length = rx.descriptorLength(first + i);
            if (length > maxFrameLength)
            {
                oversizeDrops++;
            }
            else
            {
                handler.onPacket(frames, (int)address, length);
            }
            fill.putAddress(fillFirst + i, address & FRAME_MASK);
        }
        rx.release(taken);
        fill.submit(taken);
        return taken;
    }

    /**
     * {@inheritDoc}
     */
    public boolean canTransmit()
    {
        if (null != pool)
        {
            return tx.free(1) > 0;
        }
        return freeTransmitCount > 0 || reclaim() > 0;
    }

    /**
     * {@inheritDoc}
     * <p>
     * Copies the frame into a free transmit frame of the UMEM (a free frame of the pool, on a shared UMEM).
     */
    public boolean transmit(final DirectBuffer src, final int srcOffset, final int length)
    {
        if (null != pool)
        {
            if (length <= 0 || length > maxFrameLength || tx.free(1) <= 0)
            {
                return false;
            }
            final long address = shared.copyIn(src, srcOffset, length);
            return UmemFramePool.NO_FRAME != address && transmitHeld(address, length);
        }
        if (length <= 0 || length > maxFrameLength || !canTransmit() || 0 == tx.reserve(1))
        {
            return false;
        }
        final long address = freeTransmitFrames[--freeTransmitCount];
        frames.putBytes((int)address, src, srcOffset, length);
        tx.putDescriptor(tx.index(), address, length);
        txPending++;
        return true;
    }

    /**
     * {@inheritDoc}
     * <p>
     * In copy mode the kernel sends a bounded batch per system call, so a flush with nothing new asks it again while
     * the transmit ring still holds frames it has not taken.
     */
    public int flush()
    {
        final int pending = txPending;
        if (pending > 0)
        {
            txPending = 0;
            tx.submit(pending);
        }
        if (pending > 0 || tx.pending())
        {
            if (0 == pending)
            {
                transmitRetries++;
            }
            if (tx.needsWakeup())
            {
                LibC.sendto(fd, null, 0, LibC.MSG_DONTWAIT, null, 0);
            }
        }
        reclaim();
        return pending;
    }

    private int reclaim()
    {
        final int done = completion.peek(TRANSMIT_FRAMES);
        if (done > 0)
        {
            final int first = completion.index();
            if (null != pool)
            {
                for (int i = 0; i < done; i++)
                {
                    pool.give(completion.address(first + i));
                }
            }
            else
            {
                for (int i = 0; i < done; i++)
                {
                    freeTransmitFrames[freeTransmitCount++] = completion.address(first + i) & FRAME_MASK;
                }
            }
            completion.release(done);
        }
        return done;
    }

    /**
     * {@inheritDoc}
     */
    public long transmitRetries()
    {
        return transmitRetries;
    }

    /**
     * {@inheritDoc}
     * <p>
     * The socket's {@code XDP_STATISTICS}: frames dropped because the receive ring was full or no fill frame was
     * there, or for other reasons the kernel counts as dropped.
     */
    public void updateKernelStatistics()
    {
        statisticsLength.setInt(0, STATISTICS_LENGTH);
        if (0 == LibC.getsockopt(fd, LibC.SOL_XDP, LibC.XDP_STATISTICS, statistics, statisticsLength))
        {
            kernelDrops = statistics.getLong(0) + statistics.getLong(24);
        }
    }

    /**
     * {@inheritDoc}
     */
    public long kernelDrops()
    {
        return kernelDrops;
    }

    /**
     * {@inheritDoc}
     */
    public long oversizeDrops()
    {
        return oversizeDrops;
    }

    /**
     * {@inheritDoc}
     */
    public int maxFrameLength()
    {
        return maxFrameLength;
    }

    /**
     * {@inheritDoc}
     */
    public String interfaceName()
    {
        return interfaceName;
    }

    /**
     * {@inheritDoc}
     */
    public int interfaceIndex()
    {
        return interfaceIndex;
    }

    /**
     * {@inheritDoc}
     * <p>
     * {@code SIOCGIFFLAGS} on a datagram socket opened in the port's namespace: interface up and carrier.
     */
    public boolean linkUp()
    {
        if (0 != LibC.ioctl(controlFd, LibC.SIOCGIFFLAGS, flagsRequest))
        {
            return false;
        }
        final int flags = flagsRequest.getShort(LibC.IFNAMSIZ) & 0xFFFF;
        return (flags & (LibC.IFF_UP | LibC.IFF_RUNNING)) == (LibC.IFF_UP | LibC.IFF_RUNNING);
    }

    /**
     * Wait until a frame may be waiting, {@link #wakeup()} is called or the timeout passes.
     *
     * @param timeoutNs longest wait.
     * @return true if the receive ring may hold frames.
     */
    public boolean awaitReceiveNs(final long timeoutNs)
    {
        return waitSet.await(timeoutNs);
    }

    /**
     * End a wait in {@link #awaitReceiveNs(long)} now, or the next one at once if none is under way. Any thread.
     * A wait of a {@link PacketPortSet} holding this port ends too.
     */
    public void wakeup()
    {
        LibC.write(wakeFd, wakeValue, 8);
    }

    /**
     * {@inheritDoc}
     */
    public int receiveFd()
    {
        return fd;
    }

    /**
     * {@inheritDoc}
     */
    public int wakeFd()
    {
        return wakeFd;
    }

    /**
     * {@inheritDoc}
     */
    public boolean frameWaiting()
    {
        return rx.available(1) > 0;
    }

    /**
     * {@inheritDoc}
     */
    public void drainWakeup()
    {
        LibC.read(wakeFd, wakeDrain, 8);
    }

    /**
     * Delete the socket (libxdp removes the redirect program with the interface's last socket) and the UMEM, and
     * close the other descriptors. Any thread, in any network namespace. On a shared UMEM, every frame the socket's
     * rings held goes back to the pool, and the UMEM stays.
     */
    public void close()
    {
        if (!closed)
        {
            closed = true;
            // libxdp finds the interface by its index in the calling thread's namespace when it takes the program
            // off, so the thread visits the port's namespace for it.
            final int here = LibC.open(THREAD_NAMESPACE, LibC.O_RDONLY | LibC.O_CLOEXEC);
            final boolean visiting = here >= 0 && 0 == LibC.setns(namespaceFd, LibC.CLONE_NEWNET);
            OPEN_PORTS_PROGRAMS.remove(redirectProgramId);
            try
            {
                LibXdp.xsk_socket__delete(socket);
                if (null == shared)
                {
                    LibXdp.xsk_umem__delete(umem);
                }
            }
            finally
            {
                Reference.reachabilityFence(ringStructs);
                if (visiting)
                {
                    LibC.setns(here, LibC.CLONE_NEWNET);
                }
                if (here >= 0)
                {
                    LibC.close(here);
                }
            }
            if (null == shared)
            {
                LibC.munmap(umemArea, umemLength);
            }
            else
            {
                pool.reclaim(socketNumber);
            }
            LibC.close(controlFd);
            LibC.close(promiscuousFd);
            LibC.close(wakeFd);
            LibC.close(namespaceFd);
        }
    }
}
