package io.pfabric.hostd.transport;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Told by a {@link HostTransport}, on its own thread, of whole messages received and flows finished.
 */
public interface TransportListener
{
    /**
     * A whole message arrived, once per flow. Only when the transport keeps payloads, and only through the default
     * {@link #onMessage(int, long, MessageChunks)}. The buffer wraps an array the transport never touches again: the
     * listener may keep it ({@link #messageArray}) rather than copy it.
     *
     * @param sourceHost index of the sender.
     * @param flowId     the flow that carried it.
     * @param message    the message.
     * @param length     its length.
     */
    default void onMessage(int sourceHost, long flowId, DirectBuffer message, int length)
    {
    }

    /**
     * A message arrived complete, as the transport assembled it, now the listener's own. By default it is joined into
     * one array and given to {@link #onMessage(int, long, DirectBuffer, int)}, on the transport's thread; a listener
     * that hands messages on to another thread overrides this and joins or writes the chunks there.
     *
     * @param sourceHost the sender's host index.
     * @param flowId     the flow that carried it.
     * @param message    its bytes.
     */
    default void onMessage(final int sourceHost, final long flowId, final MessageChunks message)
    {
        onMessage(sourceHost, flowId, new UnsafeBuffer(message.toArray()), message.length());
    }

    /**
     * The array a message given to {@link #onMessage} was assembled in, exactly its length, now the listener's own;
     * a copy when the buffer is not such an array (a buffer someone else made).
     *
     * @param message the message's buffer.
     * @param length  its length.
     * @return the message's bytes.
     */
    static byte[] messageArray(final DirectBuffer message, final int length)
    {
        final byte[] array = message.byteArray();
        if (null != array && array.length == length && 0 == message.wrapAdjustment() && message.capacity() == length)
        {
            return array;
        }
        final byte[] copy = new byte[length];
        message.getBytes(0, copy);
        return copy;
    }

    /**
     * A flow this host sent had every byte acknowledged, or was abandoned when the transport closed.
     *
     * @param record what to log.
     */
    default void onFlowFinished(FlowRecord record)
    {
    }
}
