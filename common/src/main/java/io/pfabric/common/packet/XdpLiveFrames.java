package io.pfabric.common.packet;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

/**
 * A frame generator in the kernel, without a socket: an XDP program that transmits the frames it is given
 * ({@code XDP_TX}), run by {@code BPF_PROG_TEST_RUN} in live-frames mode on one frame, repeated, as if the frame had
 * arrived on an interface. Each repetition leaves through that interface's XDP transmit, from a page pool, without a
 * socket buffer or a system call per frame. On a veth the frames go straight into the peer's receive ring, which
 * exists only while the peer has an XDP program or GRO on; a full ring drops the frame, and the interface counts
 * it as a transmit drop, not a transmitted frame. The test run works in the calling thread's network namespace and
 * on its CPU, which also runs the peer's receive (a veth schedules it there).
 * <p>
 * Unpaced, every repetition is sent, as fast as the kernel runs them. Paced, the program keeps a schedule in a BPF
 * array: a repetition is sent if its time has come, and the next is due one interval later; the others are dropped
 * in the program, which costs a fraction of a send. The kernel flushes what a batch of 16 repetitions sent together,
 * so frames leave at most a few at a time. A repetition up to 256 intervals late (the receive the kernel runs on this
 * CPU between batches, or another thread holding the CPU, delays the program) is sent and the schedule kept, so the
 * rate holds at the price of a burst; later, the schedule moves rather than a longer burst catching up. The schedule
 * is the only way to pace: each run of the program costs a few hundred microseconds of set-up, so a rate cannot come
 * from how often it is run, and a caller runs many repetitions at a time.
 */
public final class XdpLiveFrames implements AutoCloseable
{
    private static final int BPF_MAP_CREATE = 0;
    private static final int BPF_MAP_UPDATE_ELEM = 2;
    private static final int BPF_PROG_TEST_RUN = 10;
    private static final int BPF_MAP_TYPE_ARRAY = 2;
    private static final int BPF_PSEUDO_MAP_FD = 1;
    private static final int BPF_FUNC_MAP_LOOKUP_ELEM = 1;
    private static final int BPF_FUNC_KTIME_GET_NS = 5;
    private static final int XDP_DROP = 1;
    private static final int XDP_TX = 3;
    private static final int EINTR = 4;
    private static final int BPF_F_TEST_XDP_LIVE_FRAMES = 1 << 1;
    private static final int MAP_CREATE_ATTRIBUTES_LENGTH = 72;
    private static final int MAP_UPDATE_ATTRIBUTES_LENGTH = 32;
    private static final int TEST_RUN_ATTRIBUTES_LENGTH = 80;
    private static final int XDP_MD_LENGTH = 24;
    private static final int UNPACED_BATCH_FRAMES = 64;
    private static final int PACED_BATCH_FRAMES = 16;
    private static final int MAX_LATE_INTERVALS = 256;
    private static final int SCHEDULE_LENGTH = 24;
    private static final int MAX_FRAME_LENGTH = 1514;
    private static final int REPEAT_OFFSET = 32;

    /**
     * The pacing program. Its array's one value is {next due, interval, most lateness kept}, in nanoseconds:
     * <pre>
     *  0  *(u32 *)(r10 - 4) = 0             key
     *  1  r1 = the array                    (two instructions)
     *  3  r2 = r10; r2 += -4
     *  5  call map_lookup_elem
     *  6  if r0 == 0 goto drop
     *  7  r7 = r0
     *  8  call ktime_get_ns                 r0 = now
     *  9  r1 = *(u64 *)(r7 + 0)             due
     * 10  if r0 &lt; r1 goto drop
     * 11  r2 = r0; r2 -= r1                 lateness
     * 13  r3 = *(u64 *)(r7 + 16)
     * 14  if r2 &lt;= r3 goto +1
     * 15  r1 = r0                           too late: the schedule starts again now
     * 16  r4 = *(u64 *)(r7 + 8); r1 += r4
     * 18  *(u64 *)(r7 + 0) = r1
     * 19  r0 = XDP_TX; exit
     * 21  drop: r0 = XDP_DROP; exit
     * </pre>
     */
    private static final long[][] PACING_PROGRAM = {
        {0x62, 10, 0, -4, 0},
        {0x18, 1, BPF_PSEUDO_MAP_FD, 0, -1},
        {0x00, 0, 0, 0, 0},
        {0xbf, 2, 10, 0, 0},
        {0x07, 2, 0, 0, -4},
        {0x85, 0, 0, 0, BPF_FUNC_MAP_LOOKUP_ELEM},
        {0x15, 0, 0, 14, 0},
        {0xbf, 7, 0, 0, 0},
        {0x85, 0, 0, 0, BPF_FUNC_KTIME_GET_NS},
        {0x79, 1, 7, 0, 0},
        {0xad, 0, 1, 10, 0},
        {0xbf, 2, 0, 0, 0},
        {0x1f, 2, 1, 0, 0},
        {0x79, 3, 7, 16, 0},
        {0xbd, 2, 3, 1, 0},
        {0xbf, 1, 0, 0, 0},
        {0x79, 4, 7, 8, 0},
        {0x0f, 1, 4, 0, 0},
        {0x7b, 7, 1, 0, 0},
        {0xb7, 0, 0, 0, XDP_TX},
        {0x95, 0, 0, 0, 0},
        {0xb7, 0, 0, 0, XDP_DROP},
        {0x95, 0, 0, 0, 0},
    };
    private static final int MAP_FD_INSTRUCTION = 1;

    private final String interfaceName;
    private final int programFd;
    private final int mapFd;
    private final Memory frame;
    private final Memory context;
    private final Memory attributes;
    private boolean closed;

    private XdpLiveFrames(
        final String interfaceName, final int programFd, final int mapFd, final Memory frame, final Memory context,
        final Memory attributes)
    {
        this.interfaceName = interfaceName;
        this.programFd = programFd;
        this.mapFd = mapFd;
        this.frame = frame;
        this.context = context;
        this.attributes = attributes;
    }

    /**
     * Load the program for one frame out of an interface of the calling thread's network namespace.
     *
     * @param interfaceName the interface the frames leave by.
     * @param bytes         the frame, Ethernet header first, without FCS.
     * @param intervalNs    time between frames sent; 0 for as fast as the kernel runs them.
     * @return the generator; {@link #send(int)} sends.
     * @throws PacketSocketException naming the interface and why (no such interface, not root, no BPF).
     */
    public static XdpLiveFrames open(final String interfaceName, final byte[] bytes, final long intervalNs)
        throws PacketSocketException
    {
        if (bytes.length < 60 || bytes.length > MAX_FRAME_LENGTH)
        {
            throw new IllegalArgumentException("frame length must be 60 to " + MAX_FRAME_LENGTH + " bytes: " +
                bytes.length);
        }
        if (intervalNs < 0)
        {
            throw new IllegalArgumentException("interval must not be negative: " + intervalNs);
        }
        final int index = LibC.if_nametoindex(interfaceName);
        if (0 == index)
        {
            throw new PacketSocketException("no interface named '" + interfaceName + "' in this network namespace");
        }
        final int mapFd = 0 == intervalNs ? -1 : schedule(interfaceName, intervalNs);
        final int programFd = 0 == intervalNs ?
            XdpDrop.load(XdpDrop.BPF_PROG_TYPE_XDP, XdpDrop.BPF_XDP, XDP_TX) : loadPacing(mapFd);
        if (programFd < 0)
        {
            if (mapFd >= 0)
            {
                LibC.close(mapFd);
            }
            throw PacketSocketException.fromErrno("loading an XDP program to send from", interfaceName, -programFd);
        }
        final Memory frame = new Memory(bytes.length);
        frame.write(0, bytes, 0, bytes.length);
        final Memory context = new Memory(XDP_MD_LENGTH);
        context.clear();
        context.setInt(4, bytes.length);
        context.setInt(12, index);
        final Memory attributes = new Memory(TEST_RUN_ATTRIBUTES_LENGTH);
        attributes.clear();
        attributes.setInt(0, programFd);
        attributes.setInt(8, bytes.length);
        attributes.setLong(16, Pointer.nativeValue(frame));
        attributes.setInt(40, XDP_MD_LENGTH);
        attributes.setLong(48, Pointer.nativeValue(context));
        attributes.setInt(64, BPF_F_TEST_XDP_LIVE_FRAMES);
        attributes.setInt(72, 0 == intervalNs ? UNPACED_BATCH_FRAMES : PACED_BATCH_FRAMES);
        return new XdpLiveFrames(interfaceName, programFd, mapFd, frame, context, attributes);
    }

    private static int schedule(final String interfaceName, final long intervalNs) throws PacketSocketException
    {
        try (Memory create = new Memory(MAP_CREATE_ATTRIBUTES_LENGTH);
            Memory key = new Memory(4);
            Memory value = new Memory(SCHEDULE_LENGTH);
            Memory update = new Memory(MAP_UPDATE_ATTRIBUTES_LENGTH))
        {
            create.clear();
            create.setInt(0, BPF_MAP_TYPE_ARRAY);
            create.setInt(4, 4);
            create.setInt(8, SCHEDULE_LENGTH);
            create.setInt(12, 1);
            final int mapFd = (int)LibC.syscall(LibC.SYS_BPF, BPF_MAP_CREATE, create, MAP_CREATE_ATTRIBUTES_LENGTH);
            if (mapFd < 0)
            {
                throw PacketSocketException.fromErrno("creating the pacing array of an XDP generator", interfaceName,
                    Native.getLastError());
            }
            key.setInt(0, 0);
            value.setLong(0, 0);
            value.setLong(8, intervalNs);
            value.setLong(16, MAX_LATE_INTERVALS * intervalNs);
            update.clear();
            update.setInt(0, mapFd);
            update.setLong(8, Pointer.nativeValue(key));
            update.setLong(16, Pointer.nativeValue(value));
            if (LibC.syscall(LibC.SYS_BPF, BPF_MAP_UPDATE_ELEM, update, MAP_UPDATE_ATTRIBUTES_LENGTH) < 0)
            {
                final int errno = Native.getLastError();
                LibC.close(mapFd);
                throw PacketSocketException.fromErrno("setting the pace of an XDP generator", interfaceName, errno);
            }
            return mapFd;
        }
    }

    private static int loadPacing(final int mapFd)
    {
        try (Memory instructions = new Memory(PACING_PROGRAM.length * 8L))
        {
            for (int i = 0; i < PACING_PROGRAM.length; i++)
            {
                final long[] instruction = PACING_PROGRAM[i];
                final long offset = i * 8L;
                instructions.setByte(offset, (byte)instruction[0]);
                instructions.setByte(offset + 1, (byte)(instruction[1] | instruction[2] << 4));
                instructions.setShort(offset + 2, (short)instruction[3]);
                instructions.setInt(offset + 4, MAP_FD_INSTRUCTION == i ? mapFd : (int)instruction[4]);
            }
            return XdpDrop.load(XdpDrop.BPF_PROG_TYPE_XDP, XdpDrop.BPF_XDP, instructions, PACING_PROGRAM.length,
                "pfabric_pace");
        }
    }

    /**
     * Run the program on the frame a number of times; returns when the kernel has handed what it sent to the
     * interface (those its peer had no room for are dropped). A signal to the thread cuts the run short, without an
     * error.
     *
     * @param count repetitions, at least 1.
     * @throws PacketSocketException if the kernel refuses the run (an interface without XDP transmit, for one).
     */
    public void send(final int count) throws PacketSocketException
    {
        if (closed)
        {
            throw new IllegalStateException("closed");
        }
        attributes.setInt(REPEAT_OFFSET, count);
        final long result = LibC.syscall(LibC.SYS_BPF, BPF_PROG_TEST_RUN, attributes, TEST_RUN_ATTRIBUTES_LENGTH);
        if (result < 0)
        {
            final int errno = Native.getLastError();
            if (EINTR != errno)
            {
                throw PacketSocketException.fromErrno("sending live frames", interfaceName, errno);
            }
        }
    }

    /**
     * Unload the program.
     */
    public void close()
    {
        if (!closed)
        {
            closed = true;
            LibC.close(programFd);
            if (mapFd >= 0)
            {
                LibC.close(mapFd);
            }
            frame.close();
            context.close();
            attributes.close();
        }
    }
}
