/**
 * Raw-socket ports: {@code AF_PACKET} sockets with memory-mapped TPACKET_V2 rings, bound with JNA.
 */
package io.pfabric.common.packet;
