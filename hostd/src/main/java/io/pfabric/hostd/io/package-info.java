/**
 * The transport's packet I/O: pFabric packets over UDP (port 7253) or directly in IPv4 as protocol 253.
 */
package io.pfabric.hostd.io;
