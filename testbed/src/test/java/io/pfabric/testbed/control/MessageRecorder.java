package io.pfabric.testbed.control;

import io.pfabric.hostd.transport.TransportListener;
import org.agrona.DirectBuffer;

import java.util.Map;

/**
 * A host's listener that keeps every whole message it receives, by flow id, for the test to compare.
 */
final class MessageRecorder
{
    private MessageRecorder()
    {
    }

    static TransportListener into(final Map<Long, byte[]> messages)
    {
        return new TransportListener()
        {
            public void onMessage(final int sourceHost, final long flowId, final DirectBuffer message, final int length)
            {
                final byte[] bytes = new byte[length];
                message.getBytes(0, bytes);
                messages.put(flowId, bytes);
            }
        };
    }
}
