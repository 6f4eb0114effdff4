package io.pfabric.hostd.app;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * SEND with and without the deadline flag: a frame without it has no deadline.
 */
class AppProtocolDeadlineTest
{
    private static byte[] send(final int flags, final long deadlineNs, final byte[] payload) throws IOException
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final DataOutputStream frame = new DataOutputStream(bytes);
        frame.writeByte(AppProtocol.SEND);
        frame.writeInt(9);
        AppProtocol.writeString(frame, "h3");
        frame.writeLong(null == payload ? 4_000 : payload.length);
        frame.writeByte(flags);
        if (0 != (flags & AppProtocol.FLAG_DSCP))
        {
            frame.writeByte(8);
        }
        if (0 != (flags & AppProtocol.FLAG_DEADLINE))
        {
            frame.writeLong(deadlineNs);
        }
        if (null != payload)
        {
            frame.write(payload);
        }
        return bytes.toByteArray();
    }

    @Test
    void aSendCarriesItsDeadlineAfterTheDscpAndBeforeThePayload() throws IOException
    {
        final byte[] payload = { 4, 5 };
        final AppProtocol.Send send = (AppProtocol.Send)AppProtocol.parseRequest(send(
            AppProtocol.FLAG_DSCP | AppProtocol.FLAG_DEADLINE | AppProtocol.FLAG_PAYLOAD, 2_000_000, payload));
        assertEquals(2_000_000, send.deadlineNs());
        assertEquals(8, send.dscp());
        assertArrayEquals(payload, send.payload());
        assertEquals(750, ((AppProtocol.Send)AppProtocol.parseRequest(
            send(AppProtocol.FLAG_DEADLINE, 750, null))).deadlineNs());
    }

    @Test
    void aSendWithoutTheFlagHasNoDeadline() throws IOException
    {
        assertEquals(0, ((AppProtocol.Send)AppProtocol.parseRequest(send(0, 0, null))).deadlineNs());
    }

    @Test
    void aDeadlineThatIsNotPositiveIsMalformed()
    {
        assertThrows(AppProtocol.MalformedFrameException.class,
            () -> AppProtocol.parseRequest(send(AppProtocol.FLAG_DEADLINE, 0, null)));
        assertThrows(AppProtocol.MalformedFrameException.class,
            () -> AppProtocol.parseRequest(send(AppProtocol.FLAG_DEADLINE, -5, null)));
    }
}
