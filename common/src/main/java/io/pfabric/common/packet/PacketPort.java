package io.pfabric.common.packet;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.OffsetEpochNanoClock;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A raw-socket port on one Linux interface: an {@code AF_PACKET} socket with a TPACKET_V2 receive ring
 * ({@code PACKET_IGNORE_OUTGOING}, promiscuous membership) and one with a TPACKET_V2 transmit ring, both mapped into
 * this process and read and written through Agrona buffers. JNA is used to set them up, for one transmit kick per
 * batch ({@link #flush()}) and to wait when idle ({@link #awaitReceive(int)}).
 * <p>
 * The receive socket is opened with protocol 0, which receives nothing, and takes every protocol only when it is
 * bound to the interface: a socket opened for every protocol receives the frames of every interface of the namespace
 * until it is bound, and the ring would hold them as if they had arrived on this port.
 * <p>
 * The transmit socket has {@code PACKET_VNET_HDR}: each ring frame starts with a {@code virtio_net_hdr} that asks
 * for no offload and names the whole frame as its header ({@code hdr_len}), so the kernel copies the frame into the
 * socket buffer's linear memory. Without it the kernel points page fragments at the ring, and a veth then copies
 * them again before handing the frame to its peer ({@code skb_copy_ubufs}); with it the forwarder's CPU per 64-byte
 * frame fell by a fifth ({@code bench/README.md}).
 * <p>
 * Frames whose wire length exceeds {@link #maxFrameLength()} (the interface MTU plus the Ethernet header unless set
 * otherwise) are counted in {@link #oversizeDrops()} and dropped. Single-threaded.
 */
public final class PacketPort implements FramePort, PolledPort
{
    /**
     * Default bytes per ring frame: a 1514-byte frame plus the TPACKET_V2 header and address.
     */
    public static final int DEFAULT_RING_FRAME_LENGTH = 2048;

    /**
     * Default frames per ring.
     */
    public static final int DEFAULT_RING_FRAMES = 1024;

    private static final int SOCKADDR_LL_LENGTH = 20;
    private static final int VNET_HEADER_LENGTH = 10;
    private static final int ETHERNET_HEADER_LENGTH = 14;

    private final String interfaceName;
    private final int interfaceIndex;
    private final int mtu;
    private final long macAddress;
    private final int maxFrameLength;
    private final int rxFd;
    private final int txFd;
    private final PacketRing rxRing;
    private final PacketRing txRing;
    private final UnsafeBuffer rx;
    private final UnsafeBuffer tx;
    private final PacketPortSet waitSet = new PacketPortSet(1);
    private final Memory wakeValue = new Memory(8);
    private final Memory wakeDrain = new Memory(8);
    private final int wakeFd;
    private final Memory statistics = new Memory(8);
    private final Memory statisticsLength = new Memory(4);
    private final Memory flagsRequest = new Memory(LibC.IFREQ_LENGTH);
    private final OffsetEpochNanoClock epochClock = new OffsetEpochNanoClock();
    private long arrivalNs = UNKNOWN_ARRIVAL;
    private int rxIndex;
    private int txIndex;
    private int txPending;
    private long transmitRetries;
    private long oversizeDrops;
    private long kernelDrops;
    private long kernelPackets;
    private boolean closed;

    private PacketPort(
        final String interfaceName,
        final int interfaceIndex,
        final int mtu,
        final long macAddress,
        final int maxFrameLength,
        final int rxFd,
        final int txFd,
        final PacketRing rxRing,
        final PacketRing txRing,
        final int wakeFd)
    {
        this.interfaceName = interfaceName;
        flagsRequest.clear();
        flagsRequest.setString(0, interfaceName, "US-ASCII");
        this.interfaceIndex = interfaceIndex;
        this.mtu = mtu;
        this.macAddress = macAddress;
        this.maxFrameLength = maxFrameLength;
        this.rxFd = rxFd;
        this.txFd = txFd;
        this.rxRing = rxRing;
        this.txRing = txRing;
        this.rx = rxRing.buffer;
        this.tx = txRing.buffer;
        this.wakeFd = wakeFd;
        wakeValue.setLong(0, 1);
        waitSet.add(this);
    }

    /**
     * Open a port with default rings, accepting frames up to the interface's MTU.
     *
     * @param interfaceName such as {@code eth1}.
     * @return the port.
     * @throws PacketSocketException naming the interface and the reason (missing interface, missing privilege, ...).
     */
    public static PacketPort open(final String interfaceName) throws PacketSocketException
    {
        return open(interfaceName, DEFAULT_RING_FRAMES, 0);
    }

    /**
     * Open a port.
     *
     * @param interfaceName  such as {@code eth1}.
     * @param ringFrames     frames per ring, a power of two from 2 to 65536.
     * @param maxFrameLength longest frame accepted, without FCS; 0 for the interface MTU plus 14.
     * @return the port.
     * @throws PacketSocketException naming the interface and the reason (missing interface, missing privilege, ...).
     */
    public static PacketPort open(final String interfaceName, final int ringFrames, final int maxFrameLength)
        throws PacketSocketException
    {
        if (ringFrames < 2 || ringFrames > 65536 || 0 != (ringFrames & (ringFrames - 1)))
        {
            throw new IllegalArgumentException("ringFrames must be a power of two from 2 to 65536: " + ringFrames);
        }
        if (interfaceName.isEmpty() || interfaceName.length() >= LibC.IFNAMSIZ)
        {
            throw new PacketSocketException("'" + interfaceName + "' is not an interface name (1 to 15 characters)");
        }
        final int index = LibC.if_nametoindex(interfaceName);
        if (0 == index)
        {
            throw new PacketSocketException("no interface named '" + interfaceName + "' in this network namespace");
        }

        int rxFd = -1;
        int txFd = -1;
        int wakeFd = -1;
        PacketRing rxRing = null;
        PacketRing txRing = null;
        try
        {
            rxFd = openSocket(interfaceName, 0);
            setInt(rxFd, LibC.PACKET_VERSION, LibC.TPACKET_V2, interfaceName);
            setInt(rxFd, LibC.PACKET_IGNORE_OUTGOING, 1, interfaceName);
            rxRing = PacketRing.map(rxFd, LibC.PACKET_RX_RING, DEFAULT_RING_FRAME_LENGTH, ringFrames, interfaceName);
            bind(rxFd, index, LibC.ETH_P_ALL_NETWORK_ORDER, interfaceName);
            final Memory membership = new Memory(16);
            membership.clear();
            membership.setInt(0, index);
            membership.setShort(4, (short)LibC.PACKET_MR_PROMISC);
            if (0 != LibC.setsockopt(rxFd, LibC.SOL_PACKET, LibC.PACKET_ADD_MEMBERSHIP, membership, 16))
            {
                throw PacketSocketException.fromErrno("joining promiscuous mode", interfaceName, Native.getLastError());
            }

            txFd = openSocket(interfaceName, 0);
            setInt(txFd, LibC.PACKET_VERSION, LibC.TPACKET_V2, interfaceName);
            setInt(txFd, LibC.PACKET_LOSS, 1, interfaceName);
            setInt(txFd, LibC.PACKET_VNET_HDR, 1, interfaceName);
            txRing = PacketRing.map(txFd, LibC.PACKET_TX_RING, DEFAULT_RING_FRAME_LENGTH, ringFrames, interfaceName);
            bind(txFd, index, 0, interfaceName);

            final int mtu = ifreqInt(rxFd, LibC.SIOCGIFMTU, interfaceName);
            final long mac = macAddress(rxFd, interfaceName);
            final int ringLimit =
                DEFAULT_RING_FRAME_LENGTH - PacketRing.TX_DATA_OFFSET - SOCKADDR_LL_LENGTH - VNET_HEADER_LENGTH;
            final int limit = Math.min(0 == maxFrameLength ? mtu + ETHERNET_HEADER_LENGTH : maxFrameLength, ringLimit);
            wakeFd = LibC.eventfd(0, LibC.EFD_NONBLOCK | LibC.EFD_CLOEXEC);
            if (wakeFd < 0)
            {
                throw PacketSocketException.fromErrno("opening an eventfd", interfaceName, Native.getLastError());
            }
            return new PacketPort(interfaceName, index, mtu, mac, limit, rxFd, txFd, rxRing, txRing, wakeFd);
        }
        catch (final PacketSocketException | RuntimeException ex)
        {
            if (null != rxRing)
            {
                rxRing.unmap();
            }
            if (null != txRing)
            {
                txRing.unmap();
            }
            if (rxFd >= 0)
            {
                LibC.close(rxFd);
            }
            if (txFd >= 0)
            {
                LibC.close(txFd);
            }
            throw ex;
        }
    }

    /**
     * Hand every waiting frame, up to a limit, to the handler and return the ring slots to the kernel.
     *
     * @param handler given each frame.
     * @param limit   most frames to take.
     * @return frames taken, oversize drops included.
     */
    public int receive(final PacketHandler handler, final int limit)
    {
        int taken = 0;
        long epochAheadNs = 0;
        while (taken < limit)
        {
            final int frame = rxRing.frameOffset(rxIndex);
            if (0 == (rx.getIntVolatile(frame + PacketRing.STATUS_OFFSET) & PacketRing.RX_STATUS_USER))
            {
                break;
            }
            if (0 == taken)
            {
                epochAheadNs = epochClock.nanoTime() - System.nanoTime();
            }
            arrivalNs = (rx.getInt(frame + PacketRing.SECONDS_OFFSET) & 0xFFFF_FFFFL) * 1_000_000_000L +
                rx.getInt(frame + PacketRing.NANOSECONDS_OFFSET) - epochAheadNs;
            final int wireLength = rx.getInt(frame + PacketRing.LEN_OFFSET);
            final int capturedLength = rx.getInt(frame + PacketRing.SNAPLEN_OFFSET);
            if (wireLength > maxFrameLength || capturedLength != wireLength)
            {
                oversizeDrops++;
            }
            else
            {
                handler.onPacket(rx, frame + (rx.getShort(frame + PacketRing.MAC_OFFSET) & 0xFFFF), capturedLength);
            }
            rx.putIntRelease(frame + PacketRing.STATUS_OFFSET, PacketRing.RX_STATUS_KERNEL);
            rxIndex = rxIndex + 1 == rxRing.frameCount ? 0 : rxIndex + 1;
            taken++;
        }
        return taken;
    }

    /**
     * {@inheritDoc}
     * <p>
     * The receive ring's stamp is the kernel's wall clock when the frame entered the ring (for a veth, as its peer
     * sent it), moved onto {@link System#nanoTime()}'s clock by the offset between the two read at the start of the
     * batch.
     */
    public long arrivalNs()
    {
        return arrivalNs;
    }

    /**
     * Place a frame in the transmit ring; it leaves at the next {@link #flush()}.
     *
     * @param src       holding the frame.
     * @param srcOffset of the frame.
     * @param length    of the frame, without FCS, at most {@link #maxFrameLength()}.
     * @return false if the ring is full (or the frame too long) and nothing was placed.
     */
    public boolean transmit(final DirectBuffer src, final int srcOffset, final int length)
    {
        if (length <= 0 || length > maxFrameLength)
        {
            return false;
        }
        final int frame = txRing.frameOffset(txIndex);
        if (PacketRing.TX_STATUS_AVAILABLE != tx.getIntVolatile(frame + PacketRing.STATUS_OFFSET))
        {
            return false;
        }
        // virtio_net_hdr: no offloads, and the whole frame as the header, so the kernel copies it into the socket
        // buffer's own memory instead of pointing page fragments at the ring.
        tx.putLong(frame + PacketRing.TX_DATA_OFFSET, (long)length << 16);
        tx.putShort(frame + PacketRing.TX_DATA_OFFSET + 8, (short)0);
        tx.putBytes(frame + PacketRing.TX_DATA_OFFSET + VNET_HEADER_LENGTH, src, srcOffset, length);
        tx.putInt(frame + PacketRing.LEN_OFFSET, length + VNET_HEADER_LENGTH);
        tx.putInt(frame + PacketRing.SNAPLEN_OFFSET, length + VNET_HEADER_LENGTH);
        tx.putIntRelease(frame + PacketRing.STATUS_OFFSET, PacketRing.TX_STATUS_SEND_REQUEST);
        txIndex = txIndex + 1 == txRing.frameCount ? 0 : txIndex + 1;
        txPending++;
        return true;
    }

    /**
     * Whether the transmit ring has room for a frame now.
     *
     * @return true if {@link #transmit} would find a free ring frame.
     */
    public boolean canTransmit()
    {
        return PacketRing.TX_STATUS_AVAILABLE ==
            tx.getIntVolatile(txRing.frameOffset(txIndex) + PacketRing.STATUS_OFFSET);
    }

    /**
     * Ask the kernel to send the frames placed since the last flush, and again for frames it left in the ring at an
     * earlier one: one system call per batch. The kernel stops walking the ring, without an error, when the socket's
     * send buffer is full (its earlier frames not yet freed by the peer, as happens when the machine is busy), and
     * only the next call sends the rest; without it a ring full of such frames would never drain.
     *
     * @return frames placed since the last flush.
     */
    public int flush()
    {
        final int pending = txPending;
        if (pending > 0 || lastPlacedFrameWaiting())
        {
            if (0 == pending)
            {
                transmitRetries++;
            }
            txPending = 0;
            LibC.sendto(txFd, null, 0, LibC.MSG_DONTWAIT, null, 0);
        }
        return pending;
    }

    /**
     * Flushes that asked the kernel again for frames it had left in the transmit ring.
     *
     * @return the count since open; owner thread only.
     */
    public long transmitRetries()
    {
        return transmitRetries;
    }

    private boolean lastPlacedFrameWaiting()
    {
        final int last = 0 == txIndex ? txRing.frameCount - 1 : txIndex - 1;
        return PacketRing.TX_STATUS_SEND_REQUEST ==
            tx.getIntVolatile(txRing.frameOffset(last) + PacketRing.STATUS_OFFSET);
    }

    /**
     * Wait until a frame may be waiting or the timeout passes.
     *
     * @param timeoutMs longest wait.
     * @return true if the receive ring may hold frames.
     */
    public boolean awaitReceive(final int timeoutMs)
    {
        return awaitReceiveNs(timeoutMs * 1_000_000L);
    }

    /**
     * Wait until a frame may be waiting, {@link #wakeup()} is called or the timeout passes, to the nanosecond (as
     * the thread's timer slack allows).
     *
     * @param timeoutNs longest wait.
     * @return true if the receive ring may hold frames.
     */
    public boolean awaitReceiveNs(final long timeoutNs)
    {
        return waitSet.await(timeoutNs);
    }

    /**
     * {@inheritDoc}
     */
    public boolean frameWaiting()
    {
        return 0 != (rx.getIntVolatile(rxRing.frameOffset(rxIndex) + PacketRing.STATUS_OFFSET) &
            PacketRing.RX_STATUS_USER);
    }

    /**
     * {@inheritDoc}
     */
    public int receiveFd()
    {
        return rxFd;
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
    public void drainWakeup()
    {
        LibC.read(wakeFd, wakeDrain, 8);
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
     * Read the socket's own statistics into {@link #kernelDrops()} and {@link #kernelPackets()}; the kernel resets
     * its counts on every read, so call from the owning thread only. Cold path.
     */
    public void updateKernelStatistics()
    {
        statisticsLength.setInt(0, 8);
        if (0 == LibC.getsockopt(rxFd, LibC.SOL_PACKET, LibC.PACKET_STATISTICS, statistics, statisticsLength))
        {
            kernelPackets += statistics.getInt(0) & 0xFFFF_FFFFL;
            kernelDrops += statistics.getInt(4) & 0xFFFF_FFFFL;
        }
    }

    /**
     * {@inheritDoc}
     * <p>
     * {@code SIOCGIFFLAGS} on the port's socket, so the interface is looked up in the socket's network namespace: up
     * means {@code IFF_UP} and {@code IFF_RUNNING} (carrier; a veth whose peer is down has none). If the kernel does
     * not answer (the interface is gone), the link is down. The request holds the interface's name from the start (the
     * kernel writes only the flags), so asking allocates nothing.
     */
    public boolean linkUp()
    {
        if (0 != LibC.ioctl(rxFd, LibC.SIOCGIFFLAGS, flagsRequest))
        {
            return false;
        }
        final int flags = flagsRequest.getShort(LibC.IFNAMSIZ) & 0xFFFF;
        return (flags & (LibC.IFF_UP | LibC.IFF_RUNNING)) == (LibC.IFF_UP | LibC.IFF_RUNNING);
    }

    /**
     * Frames the kernel dropped because the receive ring was full, as of the last
     * {@link #updateKernelStatistics()}.
     *
     * @return the count.
     */
    public long kernelDrops()
    {
        return kernelDrops;
    }

    /**
     * Frames the kernel delivered to the receive socket, drops included, as of the last
     * {@link #updateKernelStatistics()}.
     *
     * @return the count.
     */
    public long kernelPackets()
    {
        return kernelPackets;
    }

    /**
     * Frames dropped because they were longer than {@link #maxFrameLength()} or did not fit a ring frame.
     *
     * @return the count.
     */
    public long oversizeDrops()
    {
        return oversizeDrops;
    }

    /**
     * Longest frame accepted, without FCS.
     *
     * @return bytes.
     */
    public int maxFrameLength()
    {
        return maxFrameLength;
    }

    /**
     * The interface's MTU.
     *
     * @return bytes.
     */
    public int mtu()
    {
        return mtu;
    }

    /**
     * The interface's MAC address, 48 bits.
     *
     * @return the address.
     */
    public long macAddress()
    {
        return macAddress;
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
     * {@inheritDoc}
     */
    public int interfaceIndex()
    {
        return interfaceIndex;
    }

    /**
     * Unmap the rings and close the sockets.
     */
    public void close()
    {
        if (!closed)
        {
            closed = true;
            rxRing.unmap();
            txRing.unmap();
            LibC.close(rxFd);
            LibC.close(txFd);
            LibC.close(wakeFd);
        }
    }

    private static int openSocket(final String interfaceName, final int protocol) throws PacketSocketException
    {
        final int fd = LibC.socket(LibC.AF_PACKET, LibC.SOCK_RAW | LibC.SOCK_NONBLOCK | LibC.SOCK_CLOEXEC, protocol);
        if (fd < 0)
        {
            throw PacketSocketException.fromErrno("opening a packet socket", interfaceName, Native.getLastError());
        }
        return fd;
    }

    private static void setInt(final int fd, final int option, final int value, final String interfaceName)
        throws PacketSocketException
    {
        final Memory memory = new Memory(4);
        memory.setInt(0, value);
        if (0 != LibC.setsockopt(fd, LibC.SOL_PACKET, option, memory, 4))
        {
            throw PacketSocketException.fromErrno("setting packet socket option " + option, interfaceName,
                Native.getLastError());
        }
    }

    private static void bind(final int fd, final int index, final int protocol, final String interfaceName)
        throws PacketSocketException
    {
        final Memory address = new Memory(SOCKADDR_LL_LENGTH);
        address.clear();
        address.setShort(0, (short)LibC.AF_PACKET);
        address.setShort(2, (short)protocol);
        address.setInt(4, index);
        if (0 != LibC.bind(fd, address, SOCKADDR_LL_LENGTH))
        {
            throw PacketSocketException.fromErrno("binding a packet socket", interfaceName, Native.getLastError());
        }
    }

    /**
     * Ask the kernel about an interface with an {@code ioctl} that fills a {@code struct ifreq}.
     */
    static Memory ifreq(final int fd, final int request, final String interfaceName)
        throws PacketSocketException
    {
        final Memory ifreq = new Memory(LibC.IFREQ_LENGTH);
        ifreq.clear();
        ifreq.setString(0, interfaceName, "US-ASCII");
        if (0 != LibC.ioctl(fd, request, ifreq))
        {
            throw PacketSocketException.fromErrno("reading interface settings", interfaceName, Native.getLastError());
        }
        return ifreq;
    }

    private static int ifreqInt(final int fd, final int request, final String interfaceName)
        throws PacketSocketException
    {
        return ifreq(fd, request, interfaceName).getInt(LibC.IFNAMSIZ);
    }

    private static long macAddress(final int fd, final String interfaceName) throws PacketSocketException
    {
        final Pointer hardware = ifreq(fd, LibC.SIOCGIFHWADDR, interfaceName).share(LibC.IFNAMSIZ + 2);
        long mac = 0;
        for (int i = 0; i < 6; i++)
        {
            mac = (mac << 8) | (hardware.getByte(i) & 0xFF);
        }
        return mac;
    }
}
