/**
 * Wire formats: flyweights over Ethernet II, ARP, IPv4, UDP, VXLAN and the pFabric transport header, and a reusable
 * {@link io.pfabric.common.wire.FrameParser} that classifies a received frame without allocating.
 * <p>
 * Every multi-byte field is big-endian (network order) so that tcpdump and tshark read the frames. The flyweights
 * follow the composition style of Aeron's command flyweights: {@code wrap(buffer, offset)} returns {@code this},
 * getters have no prefix, setters are fluent, and unsigned fields are returned widened ({@code u16 → int},
 * {@code u32 → long}). None of these classes allocates after construction.
 */
package io.pfabric.common.wire;
