package io.pfabric.hostd.transport;

import org.agrona.DirectBuffer;

/**
 * Told by a {@link HostTransport}, on its own thread, of whole messages received and flows finished.
 */
public interface TransportListener
{
    /**
     * A whole message arrived, once per flow. Only when the transport keeps payloads. The buffer wraps the array the
     * flow's receiver assembled the message in, which the transport drops with the flow's state before this call and
     * never touches again: the listener may keep it ({@link #messageArray}) rather than copy it.
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
