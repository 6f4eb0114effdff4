package io.pfabric.common.wire;

import java.util.Random;
import java.util.function.IntSupplier;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static io.pfabric.common.wire.PfabricHeaderFlyweight.TYPE_ACK;
import static io.pfabric.common.wire.PfabricHeaderFlyweight.TYPE_DATA;
import static io.pfabric.common.wire.PfabricHeaderFlyweight.TYPE_PROBE;
import static java.nio.ByteOrder.BIG_ENDIAN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Feeds random and mutated frames to the parser: it must never throw, and what it reports must be consistent with
 * the bytes. Agrona's bounds checks are on in tests, so any read outside the buffer would throw.
 */
class FrameParserFuzzTest
{
    private static final long SEED = 0x5EED_2013L;
    private static final int ITERATIONS = 200_000;
    private static final int MAX_FRAME_LENGTH = 1_600;
    private static final int[] INTERESTING_BYTES = { 0x00, 0x01, 0x04, 0x05, 0x06, 0x0F, 0x11, 0x12, 0x1C, 0x20,
        0x40, 0x45, 0x7F, 0x80, 0xFD, 0xFE, 0xFF };

    private final Random random = new Random(SEED);
    private final UnsafeBuffer templateBuffer = new UnsafeBuffer(new byte[MAX_FRAME_LENGTH]);
    private final TestFrames frames = new TestFrames(templateBuffer);
    private final FrameParser parser = new FrameParser();
    private final UnsafeBuffer view = new UnsafeBuffer(new byte[0]);
    private final int[] kindCounts = new int[FrameKind.COUNT];
    private final int[] reasonCounts = new int[ParseReason.COUNT];

    @Test
    void shouldNeverThrowAndAlwaysReportAKnownKind()
    {
        final byte[][] templates = templates();
        final byte[] frame = new byte[MAX_FRAME_LENGTH + 64];

        for (int i = 0; i < ITERATIONS; i++)
        {
            final int length;
            final int offset = 0 == random.nextInt(4) ? random.nextInt(64) : 0;
            if (0 == random.nextInt(8))
            {
                length = random.nextInt(128);
                for (int j = 0; j < length; j++)
                {
                    frame[offset + j] = (byte)random.nextInt();
                }
            }
            else
            {
                final byte[] template = templates[random.nextInt(templates.length)];
                System.arraycopy(template, 0, frame, offset, template.length);
                length = mutate(frame, offset, template.length);
            }

            final int capacity = offset + length + (0 == random.nextInt(4) ? random.nextInt(32) : 0);
            view.wrap(frame, 0, capacity);
            final int claimedLength = 0 == random.nextInt(16) ? length + random.nextInt(64) : length;
            final int kind = parser.parse(view, offset, claimedLength);

            assertConsistent(kind, offset, Math.min(claimedLength, capacity - offset), i);
        }

        for (int kind = 0; kind < FrameKind.COUNT; kind++)
        {
            assertNotEquals(0, kindCounts[kind], FrameKind.name(kind));
        }
        for (int reason = 0; reason < ParseReason.COUNT; reason++)
        {
            assertNotEquals(0, reasonCounts[reason], ParseReason.name(reason));
        }
    }

    private void assertConsistent(final int kind, final int offset, final int length, final int iteration)
    {
        assertTrue(kind >= 0 && kind < FrameKind.COUNT, "iteration " + iteration);
        assertEquals(kind, parser.kind());
        kindCounts[kind]++;
        reasonCounts[parser.reason()]++;
        if (FrameKind.MALFORMED == kind)
        {
            assertTrue(parser.reason() > ParseReason.NONE && parser.reason() < ParseReason.COUNT);
            return;
        }

        assertEquals(ParseReason.NONE, parser.reason());
        if (FrameKind.PFABRIC_IP == kind || FrameKind.PFABRIC_UDP == kind || FrameKind.IPV4_OTHER == kind)
        {
            assertEquals(offset + EthernetFlyweight.HEADER_LENGTH, parser.ipOffset());
            assertTrue(parser.ipOffset() + parser.ipTotalLength() <= offset + length);
        }
        if (FrameKind.PFABRIC_IP == kind || FrameKind.PFABRIC_UDP == kind)
        {
            final int pfabricOffset = parser.pfabricOffset();
            final int packetEnd = parser.ipOffset() + parser.ipTotalLength();
            final int headerLength = view.getShort(pfabricOffset + 2, BIG_ENDIAN) & 0xFFFF;
            final int payloadLength = view.getShort(pfabricOffset + 24, BIG_ENDIAN) & 0xFFFF;
            assertTrue(pfabricOffset + headerLength + payloadLength <= packetEnd);
            assertEquals(PfabricHeaderFlyweight.priority(view, pfabricOffset), parser.priority());
            assertEquals(PfabricHeaderFlyweight.flowId(view, pfabricOffset), parser.flowHash());
            assertEquals(PfabricHeaderFlyweight.type(view, pfabricOffset), parser.pfabricType());
        }
    }

    private int mutate(final byte[] frame, final int offset, final int length)
    {
        int newLength = length;
        final int mutations = random.nextInt(4);
        for (int m = 0; m < mutations; m++)
        {
            switch (random.nextInt(5))
            {
                case 0 -> frame[offset + random.nextInt(length)] = (byte)random.nextInt();
                case 1 -> frame[offset + headerByte(length)] = (byte)INTERESTING_BYTES[random.nextInt(
                    INTERESTING_BYTES.length)];
                case 2 -> frame[offset + headerByte(length)] ^= (byte)(1 << random.nextInt(8));
                case 3 -> newLength = random.nextInt(length + 1);
                default -> newLength = Math.min(length + random.nextInt(40), MAX_FRAME_LENGTH);
            }
        }
        return newLength;
    }

    private int headerByte(final int length)
    {
        return random.nextInt(Math.min(length, 14 + 60 + 8 + 64));
    }

    private byte[][] templates()
    {
        final IntSupplier[] builders =
        {
            () -> frames.pfabricUdpFrame(0, TYPE_ACK, 4, 0),
            () -> frames.pfabricUdpFrame(0, TYPE_ACK, 1, 0),
            () -> frames.pfabricUdpFrame(0, TYPE_DATA, 0, 1_460),
            () -> frames.pfabricIpFrame(0, TYPE_ACK, 2, 0),
            () -> frames.pfabricIpFrame(0, TYPE_DATA, 0, 200),
            () -> frames.pfabricIpFrame(0, TYPE_PROBE, 0, 1),
            () -> frames.udpFrame(0, 1000, 2000, 30),
            () -> frames.tcpFrame(0, 1000, 5201, 60),
            () -> frames.arpFrame(0),
            () -> frames.otherFrame(0, 0x86DD, 60),
            this::pfabricUdpAckWithIpOptions,
        };
        final byte[][] templates = new byte[builders.length][];
        for (int i = 0; i < builders.length; i++)
        {
            templates[i] = new byte[builders[i].getAsInt()];
            templateBuffer.getBytes(0, templates[i]);
        }
        return templates;
    }

    private int pfabricUdpAckWithIpOptions()
    {
        final int ipOffset = frames.ethernet(0, EthernetFlyweight.ETHERTYPE_IPV4);
        final int pfabricLength = TestFrames.pfabricLength(TYPE_ACK, 3, 0);
        final int l4 = frames.ipv4(ipOffset, 8, Ipv4Flyweight.PROTOCOL_UDP, UdpFlyweight.HEADER_LENGTH + pfabricLength);
        final int payload = frames.udp(l4, 1, UdpFlyweight.PFABRIC_DEFAULT_PORT, pfabricLength);
        return frames.pfabric(payload, TYPE_ACK, 3, 0);
    }
}
