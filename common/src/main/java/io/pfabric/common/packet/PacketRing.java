package io.pfabric.common.packet;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One TPACKET_V2 ring mapped from a packet socket: fixed-size frames, each starting with a {@code tpacket2_hdr}
 * whose status word the kernel and this process hand back and forth.
 */
final class PacketRing
{
    static final int STATUS_OFFSET = 0;
    static final int LEN_OFFSET = 4;
    static final int SNAPLEN_OFFSET = 8;
    static final int MAC_OFFSET = 12;
    static final int SECONDS_OFFSET = 16;
    static final int NANOSECONDS_OFFSET = 20;
    static final int TX_DATA_OFFSET = 32;

    static final int RX_STATUS_KERNEL = 0;
    static final int RX_STATUS_USER = 1;
    static final int TX_STATUS_AVAILABLE = 0;
    static final int TX_STATUS_SEND_REQUEST = 1;

    private static final int PAGE_LENGTH = 4096;

    final int frameLength;
    final int frameCount;
    final long ringLength;
    final Pointer address;
    final UnsafeBuffer buffer;

    private PacketRing(final int frameLength, final int frameCount, final Pointer address)
    {
        this.frameLength = frameLength;
        this.frameCount = frameCount;
        this.ringLength = (long)frameLength * frameCount;
        this.address = address;
        this.buffer = new UnsafeBuffer(Pointer.nativeValue(address), (int)ringLength);
    }

    /**
     * Ask the kernel for a ring on the socket and map it.
     */
    static PacketRing map(
        final int fd, final int ringOption, final int frameLength, final int frameCount, final String interfaceName)
        throws PacketSocketException
    {
        final int framesPerBlock = Math.max(1, PAGE_LENGTH / frameLength);
        final int blockLength = Math.max(PAGE_LENGTH, frameLength);
        final Memory request = new Memory(16);
        request.setInt(0, blockLength);
        request.setInt(4, frameCount / framesPerBlock);
        request.setInt(8, frameLength);
        request.setInt(12, frameCount);
        if (0 != LibC.setsockopt(fd, LibC.SOL_PACKET, ringOption, request, 16))
        {
            throw PacketSocketException.fromErrno("setting up a packet ring", interfaceName,
                Native.getLastError());
        }
        final Pointer address = LibC.mmap(null, (long)frameLength * frameCount,
            LibC.PROT_READ | LibC.PROT_WRITE, LibC.MAP_SHARED | LibC.MAP_POPULATE, fd, 0);
        if (null == address || -1 == Pointer.nativeValue(address))
        {
            throw PacketSocketException.fromErrno("mapping a packet ring", interfaceName,
                Native.getLastError());
        }
        return new PacketRing(frameLength, frameCount, address);
    }

    int frameOffset(final int index)
    {
        return index * frameLength;
    }

    void unmap()
    {
        LibC.munmap(address, ringLength);
    }
}
