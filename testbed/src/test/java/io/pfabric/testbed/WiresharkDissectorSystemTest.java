package io.pfabric.testbed;

import io.pfabric.common.topology.Topologies;
import io.pfabric.common.topology.Topology;
import io.pfabric.common.wire.EthernetFlyweight;
import io.pfabric.common.wire.Ipv4Flyweight;
import io.pfabric.common.wire.PfabricHeaderFlyweight;
import io.pfabric.hostd.HostDaemon;
import io.pfabric.hostd.io.PacketIos;
import io.pfabric.hostd.transport.FlowRecord;
import io.pfabric.hostd.transport.TransportConfiguration;
import io.pfabric.hostd.transport.TransportCounters;
import io.pfabric.hostd.transport.TransportListener;
import io.pfabric.switchd.SwitchDaemon;
import io.pfabric.testsupport.Await;
import io.pfabric.testsupport.RequiresNetns;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The Wireshark dissector {@code tools/wireshark/pfabric.lua} on real hostd traffic: two hosts in network namespaces
 * on a switchd star, over UDP port 7253 and over raw IPv4 protocol 253, exchange one message each way while dumpcap
 * (tshark's capture engine) records h1's interface; tshark with the dissector then decodes the capture. Checked: every
 * packet is recognised as pFabric over the mode's carrier (IP protocol 17 or 253), version 1, checksum good, no expert
 * info; each flow's DATA packets carry its flow id (source half the sender's host index), flow size = message size,
 * priorities between the segment's length and the flow size, offsets and payload lengths that tile [0, size) in
 * full-sized segments, and FIN exactly on the last segment; its ACKs have priority 0, no payload, the INC flag alone
 * and the receiving host's incarnation in the flow size's place, a header of 32 bytes plus 8 per SACK block, and a
 * cumulative ack that reaches the size. Skipped where tshark or dumpcap is missing.
 */
@RequiresNetns
@Timeout(90)
class WiresharkDissectorSystemTest
{
    private static final long RATE_BPS = 100_000_000L;
    private static final long BASE_RTT_NS = 1_000_000L;
    private static final int FORWARD_SIZE = 20_000;
    private static final int REVERSE_SIZE = 3_000;
    private static final int MTU = 1_500;
    private static final String DUMPCAP_LOG = "dumpcap.log";
    private static final Duration PATIENCE = Duration.ofSeconds(20);
    private static final Path DISSECTOR =
        Path.of("..", "tools", "wireshark", "pfabric.lua").toAbsolutePath().normalize();
    private static final String[] FIELDS = {
        "ip.proto", "pfabric.version", "pfabric.type", "pfabric.flow_id", "pfabric.flow.src_host", "pfabric.hdr_len",
        "pfabric.offset", "pfabric.ack", "pfabric.payload_len", "pfabric.flow_size", "pfabric.priority",
        "pfabric.flags", "pfabric.flags.fin", "pfabric.flow.counter", "pfabric.sack_count", "pfabric.checksum.status",
        "pfabric.flow.incarnation", "pfabric.flags.inc", "pfabric.ack.incarnation", "_ws.expert.message" };

    private final List<HostDaemon> hosts = new ArrayList<>();
    private NetnsFabric fabric;
    private FabricRunner switches;
    private Process capture;
    private Path workDirectory;

    /**
     * One packet as tshark decoded it, in the order of {@link #FIELDS}.
     */
    private record Decoded(
        int ipProtocol,
        int version,
        int type,
        long flowId,
        long sourceHost,
        int headerLength,
        long offset,
        long ack,
        int payloadLength,
        long flowSize,
        long priority,
        int flags,
        boolean fin,
        long counter,
        int sackCount,
        int checksumStatus,
        int incarnation,
        boolean incarnationFlag,
        int ackIncarnation,
        String expert,
        String line)
    {
        static Decoded parse(final String line)
        {
            final String[] columns = line.split(",", FIELDS.length);
            assertEquals(FIELDS.length, columns.length, "one column per field: " + line);
            return new Decoded(
                number(columns[0]), number(columns[1]), number(columns[2]),
                Long.parseUnsignedLong(columns[3].substring(2), 16), unsigned(columns[4]), number(columns[5]),
                unsigned(columns[6]), unsigned(columns[7]), number(columns[8]), unsigned(columns[9]),
                unsigned(columns[10]), Integer.decode(columns[11]), bool(columns[12]), unsigned(columns[13]),
                number(columns[14]), number(columns[15]), number(columns[16]), bool(columns[17]), number(columns[18]),
                columns[19], line);
        }

        private static int number(final String column)
        {
            return column.isEmpty() ? -1 : Integer.parseInt(column);
        }

        private static boolean bool(final String column)
        {
            return "1".equals(column) || "true".equalsIgnoreCase(column);
        }

        private static long unsigned(final String column)
        {
            return column.isEmpty() ? -1 : Long.parseLong(column);
        }
    }

    @AfterEach
    void tearDown() throws Exception
    {
        try
        {
            stopCapture();
            hosts.forEach(HostDaemon::close);
            if (null != switches)
            {
                switches.close();
            }
        }
        finally
        {
            try
            {
                if (null != fabric)
                {
                    fabric.close();
                }
            }
            finally
            {
                if (null != workDirectory)
                {
                    try (Stream<Path> files = Files.walk(workDirectory))
                    {
                        for (final Path file : files.sorted(Comparator.reverseOrder()).toList())
                        {
                            Files.deleteIfExists(file);
                        }
                    }
                }
            }
        }
    }

    @ParameterizedTest(name = "io={0}")
    @ValueSource(strings = { PacketIos.UDP, PacketIos.RAW })
    void tsharkDecodesWhatHostdSent(final String io) throws Exception
    {
        assumeTrue(onPath("tshark") && onPath("dumpcap"),
            "tshark (with its dumpcap) is not installed: apt-get install tshark, or run ./pfabric test");
        assertTrue(Files.isRegularFile(DISSECTOR), "the dissector is at " + DISSECTOR);
        workDirectory = Files.createTempDirectory("pfabric-dissector");
        start(io);
        final Path pcap = workDirectory.resolve("h1.pcap");
        startCapture(fabric.namespace("h1"), pcap);

        final CompletableFuture<FlowRecord> forward = hosts.get(0).send("h2", FORWARD_SIZE);
        final CompletableFuture<FlowRecord> reverse = hosts.get(1).send("h1", REVERSE_SIZE);
        Await.await(() -> forward.isDone() && reverse.isDone(), PATIENCE, "both messages are acknowledged in full");
        final FlowRecord forwardRecord = forward.join();
        final FlowRecord reverseRecord = reverse.join();
        final TransportCounters h1 = hosts.get(0).counters();
        final long seenByH1 = h1.packetsSent() + h1.acksSent() + h1.packetsReceived();
        Await.await(() -> pcapPackets(pcap) >= seenByH1, PATIENCE,
            "the capture holds the " + seenByH1 + " pFabric packets h1 sent and received");
        final int captureStatus = stopCapture();
        assertEquals(0, captureStatus, "dumpcap stops cleanly on SIGTERM: " + read(workDirectory.resolve(DUMPCAP_LOG)));

        final List<Decoded> packets = decode(pcap);
        assertTrue(packets.size() >= seenByH1, "tshark found " + packets.size() + " pFabric packets of " + seenByH1);
        final int carrier = PacketIos.UDP.equals(io) ? Ipv4Flyweight.PROTOCOL_UDP : Ipv4Flyweight.PROTOCOL_PFABRIC;
        for (final Decoded packet : packets)
        {
            assertEquals(carrier, packet.ipProtocol(), "carried in IP protocol " + carrier + ": " + packet.line());
            assertEquals(PfabricHeaderFlyweight.VERSION, packet.version(), packet.line());
            assertEquals(1, packet.checksumStatus(), "checksum good: " + packet.line());
            assertEquals("", packet.expert(), "no expert info: " + packet.line());
            assertEquals(PfabricHeaderFlyweight.hostId(packet.flowId()), packet.sourceHost(),
                "source host bits of the flow id: " + packet.line());
            assertEquals(PfabricHeaderFlyweight.incarnation(packet.flowId()), packet.incarnation(),
                "incarnation bits: " + packet.line());
            assertEquals(PfabricHeaderFlyweight.flowCounter(packet.flowId()), packet.counter(),
                "counter bits: " + packet.line());
        }
        final int maxSegment = MTU - (PacketIos.wireOverheadLength(io) - EthernetFlyweight.HEADER_LENGTH) -
            PfabricHeaderFlyweight.HEADER_LENGTH;
        checkFlow(packets, forwardRecord, 0, FORWARD_SIZE, maxSegment, hosts.get(1).incarnation());
        checkFlow(packets, reverseRecord, 1, REVERSE_SIZE, maxSegment, hosts.get(0).incarnation());
    }

    private static void checkFlow(final List<Decoded> packets, final FlowRecord record, final int sourceHost,
        final int size, final int maxSegment, final int receiverIncarnation)
    {
        final String flow = "flow 0x" + Long.toHexString(record.flowId());
        assertEquals(sourceHost, record.sourceHost());
        assertEquals(sourceHost, PfabricHeaderFlyweight.hostId(record.flowId()), flow + " made by its sender");
        final List<Decoded> data = packets.stream()
            .filter(p -> p.flowId() == record.flowId() && PfabricHeaderFlyweight.TYPE_DATA == p.type()).toList();
        final List<Decoded> acks = packets.stream()
            .filter(p -> p.flowId() == record.flowId() && PfabricHeaderFlyweight.TYPE_ACK == p.type()).toList();
        assertFalse(data.isEmpty(), flow + " has DATA packets in the capture");
        assertFalse(acks.isEmpty(), flow + " has ACKs in the capture");

        final TreeMap<Long, Decoded> segments = new TreeMap<>();
        for (final Decoded packet : data)
        {
            assertEquals(sourceHost, packet.sourceHost(), packet.line());
            assertEquals(size, packet.flowSize(), "flow size = message size: " + packet.line());
            assertEquals(PfabricHeaderFlyweight.HEADER_LENGTH, packet.headerLength(), packet.line());
            assertTrue(packet.priority() >= packet.payloadLength() && packet.priority() <= size,
                "priority (remaining size) between the segment's length and the flow size: " + packet.line());
            final boolean last = packet.offset() + packet.payloadLength() == size;
            assertEquals(last ? PfabricHeaderFlyweight.FLAG_FIN : 0, packet.flags(),
                "FIN on the last segment only: " + packet.line());
            assertEquals(last, packet.fin(), "the FIN bit field: " + packet.line());
            segments.putIfAbsent(packet.offset(), packet);
        }
        long covered = 0;
        for (final Decoded segment : segments.values())
        {
            assertEquals(covered, segment.offset(), flow + ": segments tile the message");
            assertEquals(Math.min(maxSegment, size - covered), segment.payloadLength(),
                flow + ": full-sized segments but the last: " + segment.line());
            covered += segment.payloadLength();
        }
        assertEquals(size, covered, flow + ": the payload lengths sum to the message size");
        assertEquals(maxSegment, segments.firstEntry().getValue().payloadLength(), flow + ": first segment");

        long highestAck = 0;
        for (final Decoded ack : acks)
        {
            assertTrue(ack.incarnationFlag(), "ACKs carry the INC flag: " + ack.line());
            assertEquals(receiverIncarnation, ack.ackIncarnation(), "the receiver's incarnation: " + ack.line());
            assertEquals(-1, ack.flowSize(), "no flow size in its place: " + ack.line());
            assertEquals(PfabricHeaderFlyweight.FLAG_INCARNATION, ack.flags(), "no other flag: " + ack.line());
            assertEquals(0, ack.priority(), "ACKs go at priority 0: " + ack.line());
            assertEquals(0, ack.payloadLength(), ack.line());
            final int sackBytes = ack.sackCount() * PfabricHeaderFlyweight.SACK_BLOCK_LENGTH;
            assertEquals(PfabricHeaderFlyweight.HEADER_LENGTH + sackBytes, ack.headerLength(),
                "ACK header length: " + ack.line());
            assertTrue(ack.ack() <= size, ack.line());
            highestAck = Math.max(highestAck, ack.ack());
        }
        assertEquals(size, highestAck, flow + ": the cumulative ack reaches the message size");
    }

    private void start(final String io) throws Exception
    {
        final String prefix = "pfh" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0x10000));
        final Topology topology = Topologies.star(2, "", RATE_BPS, "pfabric");
        fabric = NetnsFabric.build(topology, prefix);
        switches = FabricRunner.start(fabric, SwitchDaemon.Overrides.NONE);
        final TransportConfiguration configuration = TransportConfiguration.forFabric(RATE_BPS, BASE_RTT_NS, 36_000);
        for (final String name : List.of("h1", "h2"))
        {
            hosts.add(HostDaemon.start(topology, name,
                new HostDaemon.Options(configuration, RATE_BPS, PacketIos.wireOverheadLength(io),
                    fabric.namespace(name), false),
                PacketIos.factory(io), new TransportListener()
                {
                }));
        }
    }

    private void startCapture(final String namespace, final Path pcap) throws IOException
    {
        final Path log = workDirectory.resolve(DUMPCAP_LOG);
        capture = new ProcessBuilder("ip", "netns", "exec", namespace, "dumpcap", "-i", "eth0", "-P", "-w",
            pcap.toString())
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(log.toFile())
            .start();
        Await.await(() -> !capture.isAlive() || read(log).contains("File: "), PATIENCE, "dumpcap is capturing");
        assertTrue(capture.isAlive(), "dumpcap runs: " + read(log));
    }

    /**
     * Stop dumpcap with SIGTERM, which makes it flush and close the file, or kill it if it does not stop.
     *
     * @return its exit status, 0 when it stopped cleanly; -1 if it was not running.
     */
    private int stopCapture() throws InterruptedException
    {
        if (null == capture)
        {
            return -1;
        }
        capture.destroy();
        if (!capture.waitFor(10, TimeUnit.SECONDS))
        {
            capture.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        final int status = capture.isAlive() ? -1 : capture.exitValue();
        capture = null;
        return status;
    }

    private List<Decoded> decode(final Path pcap) throws IOException
    {
        final List<String> command = new ArrayList<>(List.of("tshark", "-n", "-X", "lua_script:" + DISSECTOR,
            "-r", pcap.toString(), "-Y", "pfabric", "-T", "fields", "-E", "separator=,", "-E", "aggregator=/"));
        for (final String field : FIELDS)
        {
            command.add("-e");
            command.add(field);
        }
        final Path out = workDirectory.resolve("tshark.out");
        final Path err = workDirectory.resolve("tshark.err");
        final Process tshark = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
            .start();
        Await.await(() -> !tshark.isAlive(), PATIENCE, "tshark has decoded the capture");
        final String errors = read(err);
        assertEquals(0, tshark.exitValue(), "tshark exit status; stderr: " + errors);
        assertFalse(errors.toLowerCase(Locale.ROOT).contains("lua"), "no Lua error: " + errors);
        return Files.readAllLines(out, StandardCharsets.UTF_8).stream()
            .filter(line -> !line.isBlank()).map(Decoded::parse).toList();
    }

    /**
     * Packets wholly written to a classic pcap file so far.
     */
    private static int pcapPackets(final Path pcap)
    {
        final byte[] bytes;
        try
        {
            bytes = Files.readAllBytes(pcap);
        }
        catch (final IOException ex)
        {
            return 0;
        }
        if (bytes.length < 24)
        {
            return 0;
        }
        final ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        final int magic = buffer.getInt(0);
        if (magic != 0xA1B2C3D4 && magic != 0xA1B23C4D)
        {
            buffer.order(ByteOrder.BIG_ENDIAN);
        }
        int packets = 0;
        int position = 24;
        while (position + 16 <= bytes.length)
        {
            final long captured = buffer.getInt(position + 8) & 0xFFFF_FFFFL;
            if (position + 16 + captured > bytes.length)
            {
                break;
            }
            position += 16 + (int)captured;
            packets++;
        }
        return packets;
    }

    private static String read(final Path file)
    {
        try
        {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        }
        catch (final IOException ex)
        {
            return "";
        }
    }

    private static boolean onPath(final String program)
    {
        final String path = System.getenv("PATH");
        final List<String> directories = new ArrayList<>(List.of("/usr/sbin", "/usr/bin", "/sbin", "/bin"));
        if (null != path)
        {
            directories.addAll(0, List.of(path.split(File.pathSeparator)));
        }
        return directories.stream().anyMatch(directory -> Files.isExecutable(Path.of(directory, program)));
    }
}
