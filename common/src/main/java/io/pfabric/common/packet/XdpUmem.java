package io.pfabric.common.packet;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.ref.Reference;

/**
 * A UMEM that all of a switch's AF_XDP ports share ({@link XdpPort#openShared(String, XdpUmem)}): one anonymous
 * mapping of {@link XdpPort#FRAME_LENGTH}-byte frames registered with the kernel once through libxdp, and the pool
 * that says who holds each frame ({@link UmemFramePool}). Each port's socket has its own fill and completion rings on
 * it, since each is on its own interface. A frame received on one port can then be queued by its address and sent on
 * another port as it is: forwarding moves a descriptor and copies nothing. The fill rings are stocked from the pool,
 * frames the kernel has sent come back to it through the completion rings, and a frame a queue drops goes back at
 * once ({@link #give(long)}). Single-threaded: the data path's thread, once the ports are open.
 * <p>
 * The first socket created on the UMEM owns its registration: libxdp binds it on the UMEM's own descriptor. The
 * kernel lets another socket share the UMEM only while that one is bound, so a port opened again after the first
 * port's interface went cannot share it and has a UMEM of its own ({@link XdpPort#umemDescription()}).
 */
public final class XdpUmem implements AutoCloseable
{
    /**
     * Where a frame's bytes start in its UMEM frame: where the kernel places a received frame (its XDP headroom), and
     * where {@link #copyIn} places one.
     */
    public static final int DATA_OFFSET = 256;

    /**
     * Frames a port's rings may hold at once: its fill and receive rings together (a port stocks its fill ring so),
     * and its transmit and completion rings together.
     */
    public static final int PORT_FRAMES = XdpPort.RECEIVE_FRAMES + XdpPort.TRANSMIT_FRAMES;

    private final Pointer area;
    private final long length;
    private final Pointer umem;
    private final Memory ringStructs;
    private final UnsafeBuffer frames;
    private final UmemFramePool pool;
    private boolean anchored;
    private boolean closed;

    private XdpUmem(final Pointer area, final long length, final Pointer umem, final Memory ringStructs,
        final int frameCount)
    {
        this.area = area;
        this.length = length;
        this.umem = umem;
        this.ringStructs = ringStructs;
        this.frames = new UnsafeBuffer(Pointer.nativeValue(area), (int)length);
        this.pool = new UmemFramePool(frameCount, XdpPort.FRAME_LENGTH);
    }

    /**
     * Map and register a UMEM.
     *
     * @param frameCount frames of {@link XdpPort#FRAME_LENGTH} bytes: enough for every port's rings
     *                   ({@link #PORT_FRAMES} each) and the frames its queues may hold.
     * @return the UMEM, with every frame free.
     * @throws PacketSocketException if libxdp is missing or the kernel refuses, saying to use AF_PACKET ports.
     */
    public static XdpUmem create(final int frameCount) throws PacketSocketException
    {
        if (frameCount < 1 || (long)frameCount * XdpPort.FRAME_LENGTH > Integer.MAX_VALUE)
        {
            throw new IllegalArgumentException("a UMEM of " + frameCount + " frames");
        }
        if (null != LibXdp.LOAD_ERROR)
        {
            throw new PacketSocketException("creating a shared AF_XDP UMEM: libxdp cannot be loaded (" +
                LibXdp.LOAD_ERROR + "); " + XdpPort.USE_PACKET_PORTS);
        }
        final long length = (long)frameCount * XdpPort.FRAME_LENGTH;
        final Pointer area = LibC.mmap(null, length, LibC.PROT_READ | LibC.PROT_WRITE,
            LibC.MAP_PRIVATE | LibC.MAP_ANONYMOUS | LibC.MAP_POPULATE, -1, 0);
        if (null == area || -1 == Pointer.nativeValue(area))
        {
            throw PacketSocketException.fromErrno("mapping a shared AF_XDP UMEM", "the switch", Native.getLastError());
        }
        try
        {
            final Memory ringStructs = new Memory(2L * LibXdp.RING_STRUCT_LENGTH);
            ringStructs.clear();
            final Pointer umem = XdpPort.createUmem(area, length, ringStructs.share(0, LibXdp.RING_STRUCT_LENGTH),
                ringStructs.share(LibXdp.RING_STRUCT_LENGTH, LibXdp.RING_STRUCT_LENGTH), "the switch's ports");
            return new XdpUmem(area, length, umem, ringStructs, frameCount);
        }
        catch (final PacketSocketException | RuntimeException ex)
        {
            LibC.munmap(area, length);
            throw ex;
        }
    }

    /**
     * libxdp's UMEM, for creating a socket on it.
     */
    Pointer umem()
    {
        return umem;
    }

    /**
     * The fill ring struct a socket is to be given, or null for one of its own: the first socket takes over the
     * rings libxdp made with the UMEM (given the same struct, libxdp keeps them if the socket cannot be created).
     */
    Pointer firstFill()
    {
        return anchored ? null : ringStructs.share(0, LibXdp.RING_STRUCT_LENGTH);
    }

    /**
     * The completion ring struct a socket is to be given, or null for one of its own; as {@link #firstFill()}.
     */
    Pointer firstCompletion()
    {
        return anchored ? null : ringStructs.share(LibXdp.RING_STRUCT_LENGTH, LibXdp.RING_STRUCT_LENGTH);
    }

    /**
     * Record that a socket was created on the UMEM; the next ones have fill and completion rings of their own.
     */
    void anchor()
    {
        anchored = true;
    }

    /**
     * The whole UMEM; a frame's bytes are at its address.
     *
     * @return the buffer.
     */
    public UnsafeBuffer frames()
    {
        return frames;
    }

    /**
     * Who holds each frame.
     *
     * @return the pool.
     */
    public UmemFramePool pool()
    {
        return pool;
    }

    /**
     * Copy a frame into a free UMEM frame, which the process then holds, for a port of the UMEM to send: a frame
     * that arrived on a port of another kind, or one the switch built.
     *
     * @param src       holding the frame.
     * @param srcOffset of the frame.
     * @param length    of the frame, at most {@link XdpPort#FRAME_LENGTH} less {@link #DATA_OFFSET}.
     * @return the frame's address, or {@link UmemFramePool#NO_FRAME} if no frame is free.
     */
    public long copyIn(final DirectBuffer src, final int srcOffset, final int length)
    {
        final long frame = pool.take(UmemFramePool.PROCESS);
        if (UmemFramePool.NO_FRAME == frame)
        {
            return frame;
        }
        final long address = frame + DATA_OFFSET;
        frames.putBytes((int)address, src, srcOffset, length);
        return address;
    }

    /**
     * Give back a frame the process held: a queue dropped it, or a port could not take it.
     *
     * @param address any address inside the frame.
     */
    public void give(final long address)
    {
        pool.give(address);
    }

    /**
     * Unregister and unmap the UMEM, once every socket on it is deleted (libxdp refuses while one is not).
     */
    public void close()
    {
        if (!closed)
        {
            closed = true;
            final int error = LibXdp.xsk_umem__delete(umem);
            Reference.reachabilityFence(ringStructs);
            if (0 == error)
            {
                LibC.munmap(area, length);
            }
        }
    }
}
