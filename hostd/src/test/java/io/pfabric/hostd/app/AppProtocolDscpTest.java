package io.pfabric.hostd.app;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * SEND with and without the DSCP flag: a frame of earlier versions reads as DSCP 0.
 */
class AppProtocolDscpTest
{
    private static byte[] send(final int flags, final int dscp, final byte[] payload) throws IOException
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final DataOutputStream frame = new DataOutputStream(bytes);
        frame.writeByte(AppProtocol.SEND);
        frame.writeInt(7);
        AppProtocol.writeString(frame, "h2");
        frame.writeLong(null == payload ? 5_000 : payload.length);
        frame.writeByte(flags);
        if (0 != (flags & AppProtocol.FLAG_DSCP))
        {
            frame.writeByte(dscp);
        }
        if (null != payload)
        {
            frame.write(payload);
        }
        return bytes.toByteArray();
    }

    @Test
    void aSendWithoutTheFlagHasDscpZero() throws IOException
    {
        final AppProtocol.Send send =
            assertInstanceOf(AppProtocol.Send.class, AppProtocol.parseRequest(send(0, 0, null)));
        assertEquals(0, send.dscp());
        assertEquals(5_000, send.sizeBytes());
        assertNull(send.payload());
    }

    @Test
    void aSendWithTheFlagCarriesItsDscpBeforeThePayload() throws IOException
    {
        final byte[] payload = { 1, 2, 3 };
        final AppProtocol.Send send = assertInstanceOf(AppProtocol.Send.class, AppProtocol.parseRequest(
            send(AppProtocol.FLAG_DSCP | AppProtocol.FLAG_PAYLOAD, 46, payload)));
        assertEquals(46, send.dscp());
        assertEquals("h2", send.destination());
        assertArrayEquals(payload, send.payload());
        assertEquals(63, ((AppProtocol.Send)AppProtocol.parseRequest(send(AppProtocol.FLAG_DSCP, 63, null))).dscp());
    }

    @Test
    void aDscpAbove63IsMalformed()
    {
        assertThrows(AppProtocol.MalformedFrameException.class,
            () -> AppProtocol.parseRequest(send(AppProtocol.FLAG_DSCP, 64, null)));
    }
}
