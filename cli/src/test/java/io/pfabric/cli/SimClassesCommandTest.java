package io.pfabric.cli;

import io.pfabric.hostd.workload.FctLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code pfabric sim classes} where the fabric is the bottleneck: four hosts, each alone under its leaf, whose
 * uplinks to the one spine run at a quarter of the host rate, and two applications of the same 50-packet flows, each
 * at 0.25 of the host link, so that together they offer twice what an uplink carries. On classes of weights 3 and 1
 * the first application's share of the bytes delivered while both arrive is well above half, and above plain
 * pFabric's, which does not see classes. The receivers' counts cover every byte of every flow and exceed them by no
 * more than the retransmissions; every flow completes and every promised file is written.
 */
class SimClassesCommandTest
{
    private static final int MAX_FRAME = 1514;

    @TempDir
    Path out;

    @Test
    void classesSplitAnOverloadedCoreByWeightAndPlainPfabricDoesNot() throws Exception
    {
        final Path sizes = out.resolve("fixed50.cdf");
        Files.writeString(sizes, "50 0\n50 1\n");
        final PrintStream original = System.out;
        final PrintStream originalErr = System.err;
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        final ByteArrayOutputStream capturedErr = new ByteArrayOutputStream();
        final int status;
        try (PrintStream capture = new PrintStream(captured, true, StandardCharsets.UTF_8);
            PrintStream captureErr = new PrintStream(capturedErr, true, StandardCharsets.UTF_8))
        {
            System.setOut(capture);
            System.setErr(captureErr);
            status = new CommandLine(new PfabricCommand()).execute("sim", "classes", "--topo", "leafspine:4x1x1",
                "--core-rate", "2.5g", "--app", sizes + ":0.25:dscp=0", "--app", sizes + ":0.25:dscp=8",
                "--duration", "5ms",
                "--discipline", "pfabric-classes", "--classes", "3:0-7;1:8-15", "--out", out.toString());
        }
        finally
        {
            System.setOut(original);
            System.setErr(originalErr);
        }
        assertEquals(0, status);
        final List<String> lines = List.of(captured.toString(StandardCharsets.UTF_8).strip().split("\n"));
        assertEquals(SimClassesCommand.CLASSES_HEADER, lines.get(0));
        assertEquals(5, lines.size(), String.join("\n", lines));
        final String progress = capturedErr.toString(StandardCharsets.UTF_8);
        assertTrue(progress.lines().anyMatch(line -> line.startsWith("both-backlogged share under pfabric-classes: ")),
            progress);
        final Map<String, Double> shares = new HashMap<>();
        final Map<String, Double> backloggedShares = new HashMap<>();
        for (final String line : lines.subList(1, 5))
        {
            final String[] fields = line.split(",", -1);
            shares.put(fields[0] + ":" + fields[1], Double.parseDouble(fields[8]));
            assertTrue(Integer.parseInt(fields[9]) > 0, "small flows counted: " + line);
            if ("pfabric-classes".equals(fields[0]))
            {
                assertTrue(Long.parseLong(fields[14]) > 0, line);
                backloggedShares.put(fields[1], Double.parseDouble(fields[15]));
            }
            else
            {
                assertEquals("", fields[14] + fields[15], line);
            }
        }
        assertTrue(backloggedShares.get("0") > 0.6 && backloggedShares.get("0") < 0.8, backloggedShares.toString());
        assertEquals(1.0, backloggedShares.get("0") + backloggedShares.get("8"), 1e-3);
        final List<String> ports = Files.readAllLines(out.resolve("ports.csv"));
        assertEquals(SimClassesCommand.PORTS_HEADER, ports.get(0));
        long portBytes = 0;
        for (int i = 1; i + 1 < ports.size(); i += 2)
        {
            final String[] class0 = ports.get(i).split(",");
            final String[] class1 = ports.get(i + 1).split(",");
            assertEquals(class0[0] + class0[1] + "0", class1[0] + class1[1] + (Integer.parseInt(class1[3]) - 1));
            final long bytes0 = Long.parseLong(class0[6]);
            final long bytes1 = Long.parseLong(class1[6]);
            portBytes += bytes0 + bytes1;
            final long bound = 3 * Long.parseLong(class0[8]) * MAX_FRAME;
            assertTrue(Math.abs(bytes0 / 3.0 - bytes1) <= bound, "deficit round robin's bound per stretch: " +
                ports.get(i) + " / " + ports.get(i + 1));
        }
        assertTrue(portBytes > 0 && ports.get(1).matches("\\d+,\\d+,(leaf-down|leaf-up|spine|nic),0,0\\.7500,.*"),
            ports.get(1));
        assertTrue(shares.get("pfabric-classes:0") > 0.6, shares.toString());
        assertTrue(shares.get("pfabric-classes:0") - shares.get("pfabric:0") > 0.15, shares.toString());
        assertEquals(1.0, shares.get("pfabric-classes:0") + shares.get("pfabric-classes:8"), 1e-3);
        assertEquals(1.0, shares.get("pfabric:0") + shares.get("pfabric:8"), 1e-3);
        final Map<String, Long> delivered = new HashMap<>();
        final List<String> throughput = Files.readAllLines(out.resolve("throughput.csv"));
        for (final String line : throughput.subList(1, throughput.size()))
        {
            final String[] fields = line.split(",");
            delivered.merge(fields[0] + ":" + fields[2], Long.parseLong(fields[3]), Long::sum);
        }
        for (final String scheme : List.of("pfabric-classes", "pfabric", "ideal", "ideal-class"))
        {
            final List<FctLogReader.Row> rows = FctLogReader.read(out.resolve("fct-" + scheme + "-0.5.csv"));
            assertTrue(rows.size() > 100, scheme);
            assertTrue(rows.stream().allMatch(FctLogReader.Row::isComplete), scheme);
            for (final int dscp : List.of(0, 8))
            {
                final long bytes = rows.stream().filter(row -> dscp == row.dscp())
                    .mapToLong(FctLogReader.Row::sizeBytes).sum();
                final long retransmitted = rows.stream().filter(row -> dscp == row.dscp())
                    .mapToLong(FctLogReader.Row::retransmittedBytes).sum();
                assertTrue(bytes > 0, scheme);
                if (delivered.containsKey(scheme + ":" + dscp))
                {
                    final long counted = delivered.get(scheme + ":" + dscp);
                    assertTrue(counted >= bytes && counted <= bytes + retransmitted,
                        scheme + " DSCP " + dscp + ": " + counted + " counted, " + bytes + " in flows, " +
                        retransmitted + " retransmitted");
                }
            }
        }
        assertEquals(4, delivered.size());
        for (final String file : List.of("classes.csv", "throughput.csv", "classes.png", "summary.csv", "ports.csv",
            "trace-0.5.csv", "base-rtt.csv"))
        {
            assertTrue(Files.isRegularFile(out.resolve(file)), file);
        }
    }
}
