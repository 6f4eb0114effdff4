package io.pfabric.hostd.app;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The frames of the application socket. Every frame is a big-endian u32 length (of what follows), a u8 type and
 * the type's fields, all big-endian:
 * <pre>
 * 1 SEND       u32 request id, u16 name length, destination host name (UTF-8), u64 size in bytes,
 *              u8 flags (bit 0: the payload follows; bit 1: a DSCP follows; bit 2: a deadline follows),
 *              u8 DSCP (0 to 63, when flagged), u64 deadline in ns from the SEND's arrival (positive, when flagged),
 *              payload (size bytes, when flagged)
 * 2 COMPLETED  u32 request id, u64 flow id, u64 flow completion time in ns, u32 timeouts, u64 retransmitted bytes
 * 3 FAILED     u32 request id, u16 length, reason (UTF-8)
 * 4 SUBSCRIBE  (nothing): from now on the server sends a MESSAGE for every whole message this host receives
 * 5 MESSAGE    u16 name length, source host name (UTF-8), u64 flow id, u32 length, the message
 * 6 CLOSING    u16 length, reason (UTF-8): the server disconnects the client, and says why
 * </pre>
 * A SEND without the DSCP flag is the frame of earlier versions, and its flow's packets carry DSCP 0; one without the
 * deadline flag has no deadline. A deadline is the time the message has to complete; under hostd's deadline priority
 * (pFabric-EDF) its packets carry it. A client sends
 * SEND and SUBSCRIBE; the server answers each SEND with COMPLETED or FAILED (in completion order,
 * matched by request id) and pushes MESSAGE frames to subscribers. A frame longer than {@link #MAX_FRAME_LENGTH}
 * ends the connection; a frame's memory grows with the bytes that arrived, never with the length announced.
 */
public final class AppProtocol
{
    /**
     * Send a message.
     */
    public static final int SEND = 1;

    /**
     * A send completed.
     */
    public static final int COMPLETED = 2;

    /**
     * A send failed.
     */
    public static final int FAILED = 3;

    /**
     * Ask for received messages.
     */
    public static final int SUBSCRIBE = 4;

    /**
     * A received message.
     */
    public static final int MESSAGE = 5;

    /**
     * The server disconnects the client.
     */
    public static final int CLOSING = 6;

    /**
     * Flag of SEND: the payload follows.
     */
    public static final int FLAG_PAYLOAD = 1;

    /**
     * Flag of SEND: a u8 DSCP follows the flags, which the flow's packets carry.
     */
    public static final int FLAG_DSCP = 2;

    /**
     * Flag of SEND: a u64 deadline in nanoseconds follows the DSCP (or the flags, without one).
     */
    public static final int FLAG_DEADLINE = 4;

    /**
     * Longest frame accepted: a 1 GiB message and its fields.
     */
    public static final int MAX_FRAME_LENGTH = (1 << 30) + 1024;

    private AppProtocol()
    {
    }

    /**
     * A frame whose announced length is out of range.
     */
    public static final class FrameLengthException extends IOException
    {
        private static final long serialVersionUID = 1L;

        FrameLengthException(final long length)
        {
            super("frame length " + length + " out of range (1 to " + MAX_FRAME_LENGTH + ")");
        }
    }

    /**
     * A frame that does not parse as what its type says.
     */
    public static final class MalformedFrameException extends IOException
    {
        private static final long serialVersionUID = 1L;

        MalformedFrameException(final String message)
        {
            super(message);
        }
    }

    /**
     * A request a client sends.
     */
    public sealed interface Request permits Send, Subscribe
    {
    }

    /**
     * SEND.
     *
     * @param requestId   the client's id for the answer.
     * @param destination the receiving host's name.
     * @param sizeBytes   the message's size.
     * @param payload     the message, or null for one whose content does not matter.
     * @param dscp        IPv4 DSCP of the flow's packets, 0 to 63.
     * @param deadlineNs  the time the message has to complete from its arrival; 0 for none.
     */
    public record Send(long requestId, String destination, long sizeBytes, byte[] payload, int dscp, long deadlineNs)
        implements Request
    {
        /**
         * SEND without a deadline.
         *
         * @param requestId   the client's id for the answer.
         * @param destination the receiving host's name.
         * @param sizeBytes   the message's size.
         * @param payload     the message, or null for one whose content does not matter.
         * @param dscp        IPv4 DSCP of the flow's packets, 0 to 63.
         */
        public Send(final long requestId, final String destination, final long sizeBytes, final byte[] payload,
            final int dscp)
        {
            this(requestId, destination, sizeBytes, payload, dscp, 0);
        }

        /**
         * SEND with DSCP 0.
         *
         * @param requestId   the client's id for the answer.
         * @param destination the receiving host's name.
         * @param sizeBytes   the message's size.
         * @param payload     the message, or null for one whose content does not matter.
         */
        public Send(final long requestId, final String destination, final long sizeBytes, final byte[] payload)
        {
            this(requestId, destination, sizeBytes, payload, 0, 0);
        }
    }

    /**
     * SUBSCRIBE.
     */
    public record Subscribe() implements Request
    {
    }

    /**
     * Decode a request frame's body.
     *
     * @param body type and fields, as {@link #readFrame(DataInputStream)} returned them.
     * @return the request.
     * @throws MalformedFrameException if the type is not a request's or the fields do not fill the frame exactly:
     *                                 too short, or a payload other than the size it gives.
     */
    public static Request parseRequest(final byte[] body) throws MalformedFrameException
    {
        if (0 == body.length)
        {
            throw new MalformedFrameException("an empty frame");
        }
        final DataInputStream fields = new DataInputStream(new ByteArrayInputStream(body));
        final int type = body[0] & 0xFF;
        try
        {
            fields.readUnsignedByte();
            switch (type)
            {
                case SEND ->
                {
                    final long requestId = fields.readInt() & 0xFFFF_FFFFL;
                    final String destination = readString(fields);
                    final long sizeBytes = fields.readLong();
                    final int flags = fields.readUnsignedByte();
                    final boolean withPayload = 0 != (flags & FLAG_PAYLOAD);
                    final int dscp = 0 != (flags & FLAG_DSCP) ? fields.readUnsignedByte() : 0;
                    if (dscp > 63)
                    {
                        throw new MalformedFrameException("a SEND with DSCP " + dscp + "; a DSCP is 0 to 63");
                    }
                    final long deadlineNs = 0 != (flags & FLAG_DEADLINE) ? fields.readLong() : 0;
                    if (0 != (flags & FLAG_DEADLINE) && deadlineNs <= 0)
                    {
                        throw new MalformedFrameException("a SEND with deadline " + deadlineNs + " ns; a deadline " +
                            "is positive");
                    }
                    if (withPayload ? sizeBytes != fields.available() : 0 != fields.available())
                    {
                        throw new MalformedFrameException("a SEND of " + sizeBytes + " bytes " +
                            (withPayload ? "with" : "without") + " payload carries " + fields.available() +
                            " bytes after its fields");
                    }
                    return new Send(requestId, destination, sizeBytes,
                        withPayload ? fields.readNBytes((int)sizeBytes) : null, dscp, deadlineNs);
                }
                case SUBSCRIBE ->
                {
                    if (0 != fields.available())
                    {
                        throw new MalformedFrameException("a SUBSCRIBE carries " + fields.available() + " bytes");
                    }
                    return new Subscribe();
                }
                default -> throw new MalformedFrameException("unknown frame type " + type);
            }
        }
        catch (final MalformedFrameException ex)
        {
            throw ex;
        }
        catch (final IOException ex)
        {
            throw new MalformedFrameException("frame of type " + type + " ends before its fields");
        }
    }

    /**
     * Read one frame's body (type and fields).
     *
     * @param in the stream.
     * @return the body, or null at a clean end of stream.
     * @throws IOException if the stream ends inside a frame or the frame is too long.
     */
    public static byte[] readFrame(final DataInputStream in) throws IOException
    {
        final int first = in.read();
        return first < 0 ? null : readFrame(first, in);
    }

    /**
     * Read the rest of a frame whose first byte was read.
     *
     * @param firstByte the length's first byte.
     * @param in        the stream.
     * @return the body.
     * @throws IOException if the stream ends inside the frame or the frame is too long.
     */
    public static byte[] readFrame(final int firstByte, final DataInputStream in) throws IOException
    {
        try
        {
            final long length = ((long)firstByte << 24) | (in.readUnsignedByte() << 16) |
                (in.readUnsignedByte() << 8) | in.readUnsignedByte();
            if (length < 1 || length > MAX_FRAME_LENGTH)
            {
                throw new FrameLengthException(length);
            }
            final byte[] body = in.readNBytes((int)length);
            if (body.length < length)
            {
                throw new EOFException();
            }
            return body;
        }
        catch (final EOFException ex)
        {
            throw new IOException("the stream ended inside a frame", ex);
        }
    }

    /**
     * Write one frame: its length, then the body. The caller serializes writers of one stream.
     *
     * @param out  the stream.
     * @param body type and fields.
     * @throws IOException if writing fails.
     */
    public static void writeFrame(final OutputStream out, final byte[] body) throws IOException
    {
        out.write(lengthOf(body));
        out.write(body);
        out.flush();
    }

    /**
     * The length that starts a frame.
     *
     * @param body type and fields.
     * @return its length, big-endian u32.
     */
    static byte[] lengthOf(final byte[] body)
    {
        return new byte[]{
            (byte)(body.length >>> 24), (byte)(body.length >>> 16), (byte)(body.length >>> 8), (byte)body.length };
    }

    static void writeString(final DataOutputStream out, final String text) throws IOException
    {
        final byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > 0xFFFF)
        {
            throw new IOException("string too long for the protocol: " + bytes.length + " bytes");
        }
        out.writeShort(bytes.length);
        out.write(bytes);
    }

    static String readString(final DataInputStream in) throws IOException
    {
        final int length = in.readUnsignedShort();
        final byte[] bytes = in.readNBytes(length);
        if (bytes.length < length)
        {
            throw new EOFException("a string of " + length + " bytes ends after " + bytes.length);
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
