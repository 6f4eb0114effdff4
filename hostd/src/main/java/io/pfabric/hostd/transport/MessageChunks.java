package io.pfabric.hostd.transport;

import org.agrona.DirectBuffer;

/**
 * A message's bytes in arrays of {@link #CHUNK_LENGTH} (the last one shorter), each made when the first segment that
 * falls in it arrives. A receiver that made one array of the whole message when the flow's first packet came stopped
 * its transport thread for as long as the allocation took: 2.6-3.1 ms for 10 MB on the 2-core VM, long enough for the
 * sender's timeout (0.55-0.9 ms at 1 Gb/s) to fire two to four times at the start of every such flow (hostd's README,
 * "A lone flow"). A 256 KiB array takes a few tens of microseconds.
 * <p>
 * Whoever the receiver hands a complete message to owns it; {@link #toArray()} joins it when one array is needed,
 * and a writer may write it chunk by chunk instead ({@link #chunkCount()}, {@link #chunk(int)}).
 */
public final class MessageChunks
{
    /**
     * Bytes in every chunk but the last.
     */
    public static final int CHUNK_LENGTH = 256 * 1024;

    private final byte[][] chunks;
    private final int length;

    /**
     * An empty message of a length, no chunk made yet.
     *
     * @param length the message's bytes, 0 or more.
     */
    public MessageChunks(final int length)
    {
        if (length < 0)
        {
            throw new IllegalArgumentException("message length must not be negative: " + length);
        }
        this.length = length;
        this.chunks = new byte[(int)(((long)length + CHUNK_LENGTH - 1) / CHUNK_LENGTH)][];
    }

    private MessageChunks(final byte[] whole)
    {
        this.length = whole.length;
        this.chunks = new byte[][] { whole };
    }

    /**
     * A message that is one array already, given up by the caller: its only chunk.
     *
     * @param message the bytes.
     * @return the message.
     */
    public static MessageChunks of(final byte[] message)
    {
        return new MessageChunks(message);
    }

    /**
     * Copy bytes into the message, making the chunks they fall in. Only for a message made by
     * {@link #MessageChunks(int)}.
     *
     * @param offset    where in the message.
     * @param src       holding the bytes.
     * @param srcOffset of the bytes in src.
     * @param count     bytes to copy; offset + count at most the length.
     */
    public void putBytes(final int offset, final DirectBuffer src, final int srcOffset, final int count)
    {
        if (offset < 0 || count < 0 || (long)offset + count > length)
        {
            throw new IndexOutOfBoundsException("bytes " + offset + "+" + count + " outside a message of " + length);
        }
        int done = 0;
        while (done < count)
        {
            final int at = offset + done;
            final int index = at / CHUNK_LENGTH;
            final int within = at - index * CHUNK_LENGTH;
            byte[] chunk = chunks[index];
            if (null == chunk)
            {
                chunk = new byte[Math.min(CHUNK_LENGTH, length - index * CHUNK_LENGTH)];
                chunks[index] = chunk;
            }
            final int step = Math.min(count - done, chunk.length - within);
            src.getBytes(srcOffset + done, chunk, within, step);
            done += step;
        }
    }

    /**
     * The message's length.
     *
     * @return bytes.
     */
    public int length()
    {
        return length;
    }

    /**
     * How many chunks the message has.
     *
     * @return the count.
     */
    public int chunkCount()
    {
        return chunks.length;
    }

    /**
     * One chunk, in order; all of them together, one after another, are the message. A chunk no byte was put in is
     * made then, all zeros.
     *
     * @param index from 0.
     * @return the chunk's array, exactly its length.
     */
    public byte[] chunk(final int index)
    {
        if (null == chunks[index])
        {
            chunks[index] = new byte[Math.min(CHUNK_LENGTH, length - index * CHUNK_LENGTH)];
        }
        return chunks[index];
    }

    /**
     * The message as one array: its only chunk if it has one, else a copy of them all.
     *
     * @return the bytes, exactly the length.
     */
    public byte[] toArray()
    {
        if (1 == chunks.length)
        {
            return chunk(0);
        }
        final byte[] whole = new byte[length];
        int at = 0;
        for (int i = 0; i < chunks.length; i++)
        {
            final byte[] chunk = chunk(i);
            System.arraycopy(chunk, 0, whole, at, chunk.length);
            at += chunk.length;
        }
        return whole;
    }
}
