/**
 * pFabric's minimal transport as pure state machines on an injected clock: {@link
 * io.pfabric.hostd.transport.FlowSender} (line-rate start, priority = remaining size, fixed timeout, SACK, probe
 * mode), {@link io.pfabric.hostd.transport.FlowReceiver} (reassembly, cumulative ack and SACK blocks, exactly-once
 * delivery) and {@link io.pfabric.hostd.transport.HostTransport}, the host's agent that sends the most urgent flow's
 * next packet at the NIC's rate.
 */
package io.pfabric.hostd.transport;
