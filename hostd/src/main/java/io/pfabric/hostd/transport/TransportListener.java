package io.pfabric.hostd.transport;

import org.agrona.DirectBuffer;

/**
 * Told by a {@link HostTransport}, on its own thread, of whole messages received and flows finished.
 */
public interface TransportListener
{
    /**
     * A whole message arrived, once per flow. Only when the transport keeps payloads; the buffer is valid during the
     * call only.
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
     * A flow this host sent had every byte acknowledged, or was abandoned when the transport closed.
     *
     * @param record what to log.
     */
    default void onFlowFinished(FlowRecord record)
    {
    }
}
