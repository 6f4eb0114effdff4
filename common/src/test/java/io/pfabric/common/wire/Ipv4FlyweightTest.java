package io.pfabric.common.wire;

import java.util.Random;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static java.nio.ByteOrder.BIG_ENDIAN;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class Ipv4FlyweightTest
{
    private static final int[] CLASSIC_HEADER_WORDS =
        { 0x4500, 0x0073, 0x0000, 0x4000, 0x4011, 0x0000, 0xC0A8, 0x0001, 0xC0A8, 0x00C7 };

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[128]);
    private final Ipv4Flyweight ip = new Ipv4Flyweight();

    @Test
    void shouldRoundTripEveryField()
    {
        ip.wrap(buffer, 14)
            .version(4)
            .ihl(15)
            .dscp(63)
            .ecn(Ipv4Flyweight.ECN_CE)
            .totalLength(0xFFFF)
            .identification(0xFFFF)
            .dontFragment(true)
            .moreFragments(true)
            .fragmentOffset(0x1FFF)
            .ttl(255)
            .protocol(Ipv4Flyweight.PROTOCOL_PFABRIC)
            .headerChecksum(0xFFFF)
            .sourceAddress(0xFFFF_FFFF)
            .destinationAddress(0x8000_0000);

        assertEquals(14, ip.offset());
        assertEquals(4, ip.version());
        assertEquals(15, ip.ihl());
        assertEquals(60, ip.headerLength());
        assertEquals(63, ip.dscp());
        assertEquals(Ipv4Flyweight.ECN_CE, ip.ecn());
        assertEquals(0xFFFF, ip.totalLength());
        assertEquals(0xFFFF, ip.identification());
        assertTrue(ip.dontFragment());
        assertTrue(ip.moreFragments());
        assertEquals(0x1FFF, ip.fragmentOffset());
        assertEquals(0x7FFF, ip.flagsAndFragmentOffset());
        assertEquals(255, ip.ttl());
        assertEquals(253, ip.protocol());
        assertEquals(0xFFFF, ip.headerChecksum());
        assertEquals(0xFFFF_FFFF, ip.sourceAddress());
        assertEquals(0x8000_0000, ip.destinationAddress());
    }

    @Test
    void shouldKeepNeighbouringBitsWhenSettingSubFields()
    {
        ip.wrap(buffer, 0).version(4).ihl(5).dscp(46).ecn(Ipv4Flyweight.ECN_ECT1);
        ip.ihl(6);
        assertEquals(4, ip.version());
        ip.version(6);
        assertEquals(6, ip.ihl());
        ip.ecn(Ipv4Flyweight.ECN_ECT0);
        assertEquals(46, ip.dscp());
        ip.dscp(0);
        assertEquals(Ipv4Flyweight.ECN_ECT0, ip.ecn());

        ip.dontFragment(true).moreFragments(false).fragmentOffset(100);
        assertTrue(ip.dontFragment());
        assertFalse(ip.moreFragments());
        assertEquals(100, ip.fragmentOffset());
        ip.dontFragment(false).moreFragments(true);
        assertFalse(ip.dontFragment());
        assertTrue(ip.moreFragments());
        assertEquals(100, ip.fragmentOffset());
        ip.fragmentOffset(0);
        assertEquals(Ipv4Flyweight.MORE_FRAGMENTS_FLAG, ip.flagsAndFragmentOffset());
    }

    @Test
    void shouldComputeChecksumOfKnownVector()
    {
        writeClassicHeader(0);
        ip.wrap(buffer, 0).computeChecksum();

        assertEquals(0xB861, ip.headerChecksum());
        assertTrue(ip.checksumValid());
        assertEquals(0x0073, ip.totalLength());
        assertEquals(0xC0A8_00C7, ip.destinationAddress());
    }

    @Test
    void shouldTakeChecksumFieldAsZeroWhenComputing()
    {
        writeClassicHeader(7);
        ip.wrap(buffer, 7).headerChecksum(0x1234).computeChecksum();

        assertEquals(0xB861, ip.headerChecksum());
    }

    @Test
    void shouldDetectEveryFlippedBit()
    {
        writeClassicHeader(0);
        ip.wrap(buffer, 0).computeChecksum();
        for (int bit = 0; bit < Ipv4Flyweight.HEADER_LENGTH * 8; bit++)
        {
            flipBit(bit);
            assertFalse(ip.checksumValid(), "bit " + bit);
            flipBit(bit);
        }
        assertTrue(ip.checksumValid());
    }

    @Test
    void shouldCoverOptionsInChecksum()
    {
        ip.wrap(buffer, 0).version(4).ihl(6).totalLength(24).ttl(1).protocol(17);
        buffer.putInt(20, 0x9404_0000);
        ip.computeChecksum();
        assertTrue(ip.checksumValid());

        buffer.putByte(23, (byte)1);
        assertFalse(ip.checksumValid());
    }

    @Test
    void shouldMarkCongestionExperiencedKeepingChecksumValid()
    {
        for (final int ecn : new int[]{ Ipv4Flyweight.ECN_ECT0, Ipv4Flyweight.ECN_ECT1 })
        {
            writeClassicHeader(0);
            ip.wrap(buffer, 0).dscp(46).ecn(ecn).computeChecksum();

            assertTrue(Ipv4Flyweight.markCongestionExperienced(buffer, 0));
            assertEquals(Ipv4Flyweight.ECN_CE, ip.ecn());
            assertEquals(46, ip.dscp());
            assertTrue(ip.checksumValid());
            final int incremental = ip.headerChecksum();
            ip.computeChecksum();
            assertEquals(ip.headerChecksum(), incremental);
        }
    }

    @Test
    void shouldMarkCongestionExperiencedOnRandomHeaders()
    {
        final Random random = new Random(1624);
        for (int i = 0; i < 20_000; i++)
        {
            for (int j = 0; j < Ipv4Flyweight.HEADER_LENGTH; j++)
            {
                buffer.putByte(j, (byte)random.nextInt());
            }
            ip.wrap(buffer, 0).version(4).ihl(5).ecn(1 + random.nextInt(2)).computeChecksum();

            assertTrue(Ipv4Flyweight.markCongestionExperienced(buffer, 0));
            assertEquals(Ipv4Flyweight.ECN_CE, ip.ecn());
            assertTrue(ip.checksumValid(), "header " + i);
        }
    }

    @Test
    void shouldNotMarkNotEctOrAlreadyMarkedPackets()
    {
        for (final int ecn : new int[]{ Ipv4Flyweight.ECN_NOT_ECT, Ipv4Flyweight.ECN_CE })
        {
            writeClassicHeader(0);
            ip.wrap(buffer, 0).ecn(ecn).computeChecksum();
            final byte[] before = new byte[Ipv4Flyweight.HEADER_LENGTH];
            buffer.getBytes(0, before);

            assertFalse(Ipv4Flyweight.markCongestionExperienced(buffer, 0));

            final byte[] after = new byte[Ipv4Flyweight.HEADER_LENGTH];
            buffer.getBytes(0, after);
            assertArrayEquals(before, after);
        }
    }

    @Test
    void shouldRejectChecksumOfHeaderWithBadIhl()
    {
        buffer.setMemory(0, 64, (byte)0);
        ip.wrap(buffer, 0).version(4).ihl(0);

        assertFalse(ip.checksumValid());
    }

    @Test
    void shouldSumOddLengthWithZeroPadding()
    {
        buffer.putByte(0, (byte)0x12);
        buffer.putByte(1, (byte)0x34);
        buffer.putByte(2, (byte)0x56);

        assertEquals(0x1234 + 0x5600, Ipv4Flyweight.onesComplementSum(buffer, 0, 3));
    }

    private void writeClassicHeader(final int offset)
    {
        for (int i = 0; i < CLASSIC_HEADER_WORDS.length; i++)
        {
            buffer.putShort(offset + 2 * i, (short)CLASSIC_HEADER_WORDS[i], BIG_ENDIAN);
        }
    }

    private void flipBit(final int bit)
    {
        final int index = bit / 8;
        buffer.putByte(index, (byte)(buffer.getByte(index) ^ (0x80 >>> (bit % 8))));
    }
}
