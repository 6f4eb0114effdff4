package io.pfabric.bench.forwarding;

import io.pfabric.common.topology.Addresses;
import io.pfabric.common.wire.EthernetFlyweight;
import io.pfabric.common.wire.Ipv4Flyweight;
import io.pfabric.common.wire.UdpFlyweight;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * netsniff-ng's trafgen sending one UDP frame over and over from a host's interface, as fast as it can on CPU 0 (where
 * it is pinned): the same generator whatever forwards the frames.
 */
final class Trafgen implements AutoCloseable
{
    static final int HEADERS_LENGTH =
        EthernetFlyweight.HEADER_LENGTH + Ipv4Flyweight.HEADER_LENGTH + UdpFlyweight.HEADER_LENGTH;

    private final Process process;
    private final Path config;

    private Trafgen(final Process process, final Path config)
    {
        this.process = process;
        this.config = config;
    }

    /**
     * Start sending.
     *
     * @param namespace     of the sending host.
     * @param interfaceName to send from.
     * @param frame         what to send.
     * @return the running generator.
     * @throws IOException if trafgen cannot start or stops at once.
     */
    static Trafgen start(final String namespace, final String interfaceName, final UdpFrame frame) throws IOException
    {
        if (!isInstalled())
        {
            throw new IOException("trafgen is not installed; apt-get install netsniff-ng");
        }
        final Path config = Files.createTempFile("pfabric-trafgen-", ".cfg");
        Files.writeString(config, frame.trafgenConfig(), StandardCharsets.US_ASCII);
        final Process process = new ProcessBuilder("ip", "netns", "exec", namespace, "taskset", "-c", "0", "trafgen",
            "--dev", interfaceName, "--conf", config.toString(), "--cpus", "1", "--no-sock-mem", "--no-cpu-stats")
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
        final Trafgen trafgen = new Trafgen(process, config);
        try
        {
            if (process.waitFor(300, TimeUnit.MILLISECONDS))
            {
                trafgen.close();
                throw new IOException("trafgen stopped at once (exit " + process.exitValue() +
                    "); try: ip netns exec " + namespace + " trafgen --dev " + interfaceName + " --conf " + config);
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            trafgen.close();
            throw new IOException("interrupted while starting trafgen", ex);
        }
        return trafgen;
    }

    private static boolean isInstalled()
    {
        for (final String directory : System.getenv().getOrDefault("PATH", "/usr/sbin:/usr/bin").split(":"))
        {
            if (Files.isExecutable(Path.of(directory, "trafgen")))
            {
                return true;
            }
        }
        return Files.isExecutable(Path.of("/usr/sbin/trafgen"));
    }

    /**
     * Stop sending: SIGINT, as trafgen expects, then SIGKILL if it lingers.
     */
    public void close()
    {
        try
        {
            if (process.isAlive())
            {
                new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).start().waitFor(5, TimeUnit.SECONDS);
                if (!process.waitFor(5, TimeUnit.SECONDS))
                {
                    process.descendants().forEach(ProcessHandle::destroyForcibly);
                    process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            }
            Files.deleteIfExists(config);
        }
        catch (final IOException ex)
        {
            process.destroyForcibly();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    /**
     * A UDP/IPv4 frame between two hosts.
     *
     * @param sourceMac      as {@code aa:bb:cc:dd:ee:ff}.
     * @param destinationMac as {@code aa:bb:cc:dd:ee:ff}.
     * @param sourceIp       dotted quad.
     * @param destinationIp  dotted quad.
     * @param frameLength    Ethernet frame length without FCS, 60 to 1514.
     */
    record UdpFrame(String sourceMac, String destinationMac, String sourceIp, String destinationIp, int frameLength)
    {
        static final int DISCARD_PORT = 9;

        UdpFrame
        {
            if (frameLength < 60 || frameLength > 1514)
            {
                throw new IllegalArgumentException("frame length must be 60 to 1514 bytes: " + frameLength);
            }
        }

        /**
         * The frame itself, IPv4 checksum computed, UDP checksum zero (none), payload zeros.
         *
         * @return its bytes, without FCS.
         */
        byte[] bytes()
        {
            final byte[] bytes = new byte[frameLength];
            final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
            new EthernetFlyweight().wrap(buffer, 0)
                .destinationMac(Addresses.parseMac(destinationMac))
                .sourceMac(Addresses.parseMac(sourceMac))
                .etherType(EthernetFlyweight.ETHERTYPE_IPV4);
            new Ipv4Flyweight().wrap(buffer, EthernetFlyweight.HEADER_LENGTH)
                .version(Ipv4Flyweight.VERSION)
                .ihl(Ipv4Flyweight.MIN_IHL)
                .totalLength(frameLength - EthernetFlyweight.HEADER_LENGTH)
                .ttl(64)
                .protocol(Ipv4Flyweight.PROTOCOL_UDP)
                .sourceAddress(Addresses.parseIpv4(sourceIp))
                .destinationAddress(Addresses.parseIpv4(destinationIp))
                .computeChecksum();
            new UdpFlyweight().wrap(buffer, EthernetFlyweight.HEADER_LENGTH + Ipv4Flyweight.HEADER_LENGTH)
                .sourcePort(DISCARD_PORT)
                .destinationPort(DISCARD_PORT)
                .length(frameLength - EthernetFlyweight.HEADER_LENGTH - Ipv4Flyweight.HEADER_LENGTH);
            return bytes;
        }

        String trafgenConfig()
        {
            return "{ eth(da=" + destinationMac + ", sa=" + sourceMac + "), ipv4(sa=" + sourceIp + ", da=" +
                destinationIp + ", ttl=64), udp(sp=" + DISCARD_PORT + ", dp=" + DISCARD_PORT + "), fill(0, " +
                (frameLength - HEADERS_LENGTH) + ") }\n";
        }
    }
}
