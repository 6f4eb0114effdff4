package io.pfabric.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.code_intelligence.jazzer.mutation.annotation.NotNull;
import io.pfabric.hostd.app.AppProtocol;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a client of hostd's application socket may send, read as hostd reads it: frames until the stream ends, each
 * decoded as a request. The only failures are IOExceptions (a frame out of range, a stream ending inside a frame, a
 * malformed request), a SEND's payload is exactly the size it gives, and reading allocates in proportion to the bytes
 * that arrived, never to a length a frame announces (measured on a second reading of the same stream, so that the
 * JVM's one-off costs of a first call, such as linking a string concatenation, are not counted).
 */
class AppProtocolFuzzTest
{
    private static final long ALLOCATION_SLACK_BYTES = 64 * 1024;
    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();

    @FuzzTest
    void aClientStreamIsReadIntoRequestsOrRefused(@NotNull final byte[] stream)
    {
        read(stream);
        final long beforeBytes = THREADS.getCurrentThreadAllocatedBytes();
        read(stream);
        final long allocatedBytes = THREADS.getCurrentThreadAllocatedBytes() - beforeBytes;
        assertTrue(allocatedBytes < ALLOCATION_SLACK_BYTES + 8L * stream.length,
            () -> allocatedBytes + " bytes allocated reading " + stream.length);
    }

    private static void read(final byte[] stream)
    {
        final DataInputStream in = new DataInputStream(new ByteArrayInputStream(stream));
        try
        {
            byte[] body;
            while (null != (body = AppProtocol.readFrame(in)))
            {
                assertTrue(body.length >= 1 && body.length <= AppProtocol.MAX_FRAME_LENGTH);
                if (AppProtocol.parseRequest(body) instanceof AppProtocol.Send send && null != send.payload())
                {
                    assertEquals(send.sizeBytes(), send.payload().length);
                }
            }
        }
        catch (final IOException ex)
        {
            assertTrue(null != ex.getMessage() && !ex.getMessage().isEmpty());
        }
    }
}
