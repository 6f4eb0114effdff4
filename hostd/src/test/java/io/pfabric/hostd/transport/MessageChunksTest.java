package io.pfabric.hostd.transport;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

class MessageChunksTest
{
    private static final int SEGMENT = 1_460;

    private static byte[] random(final int length, final long seed)
    {
        final byte[] bytes = new byte[length];
        final SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < length; i++)
        {
            bytes[i] = (byte)random.nextInt(256);
        }
        return bytes;
    }

    @Test
    void segmentsPutInAnyOrderAcrossChunkBoundariesMakeTheMessage()
    {
        final int length = 2 * MessageChunks.CHUNK_LENGTH + 12_345;
        final byte[] original = random(length, 7);
        final UnsafeBuffer source = new UnsafeBuffer(original);
        final MessageChunks message = new MessageChunks(length);
        final List<Integer> offsets = new ArrayList<>();
        for (int offset = 0; offset < length; offset += SEGMENT)
        {
            offsets.add(offset);
        }
        Collections.shuffle(offsets, new java.util.Random(3));
        for (final int offset : offsets)
        {
            message.putBytes(offset, source, offset, Math.min(SEGMENT, length - offset));
        }
        assertEquals(3, message.chunkCount());
        assertEquals(MessageChunks.CHUNK_LENGTH, message.chunk(0).length);
        assertEquals(12_345, message.chunk(2).length);
        assertArrayEquals(original, message.toArray());
        final byte[] written = new byte[length];
        int at = 0;
        for (int i = 0; i < message.chunkCount(); i++)
        {
            System.arraycopy(message.chunk(i), 0, written, at, message.chunk(i).length);
            at += message.chunk(i).length;
        }
        assertArrayEquals(original, written, "the chunks one after another are the message");
    }

    @Test
    void aMessageOfOneChunkIsHandedOverWithoutACopy()
    {
        final byte[] original = random(1_000, 1);
        final MessageChunks message = new MessageChunks(original.length);
        message.putBytes(0, new UnsafeBuffer(original), 0, original.length);
        assertSame(message.chunk(0), message.toArray());
        final byte[] whole = random(MessageChunks.CHUNK_LENGTH * 2, 2);
        assertSame(whole, MessageChunks.of(whole).toArray(), "an array given whole stays one chunk");
        assertEquals(1, MessageChunks.of(whole).chunkCount());
    }

    @Test
    void anEmptyMessageHasNoChunkAndBytesOutsideTheMessageAreRefused()
    {
        assertEquals(0, new MessageChunks(0).chunkCount());
        assertEquals(0, new MessageChunks(0).toArray().length);
        final MessageChunks message = new MessageChunks(100);
        final UnsafeBuffer source = new UnsafeBuffer(new byte[200]);
        assertThrows(IndexOutOfBoundsException.class, () -> message.putBytes(50, source, 0, 51));
        assertThrows(IndexOutOfBoundsException.class, () -> message.putBytes(-1, source, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new MessageChunks(-1));
    }
}
