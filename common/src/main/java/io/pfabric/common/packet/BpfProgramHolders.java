package io.pfabric.common.packet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether another running process holds a BPF program open, from {@code /proc/PID/fd} and {@code fdinfo} (the
 * program's {@code prog_id}). An XDP program stays on its interface after the process that attached it ended, but then
 * no process holds it open: a program libxdp attached for an AF_XDP socket is held open by the process for as long as
 * the socket lives. This process is left out, as libxdp's lookups leave programs open in it.
 */
final class BpfProgramHolders
{
    private static final Path PROC = Path.of("/proc");
    private static final String PROGRAM_LINK = "anon_inode:bpf-prog";
    private static final String PROGRAM_ID_FIELD = "prog_id:";
    private static final String SELF = Long.toString(ProcessHandle.current().pid());

    private BpfProgramHolders()
    {
    }

    /**
     * @param programId a program's id.
     * @return true if a process other than this one has the program open; false if none has or {@code /proc} cannot
     * be read.
     */
    static boolean heldElsewhere(final int programId)
    {
        try (DirectoryStream<Path> processes = Files.newDirectoryStream(PROC, "[0-9]*"))
        {
            for (final Path process : processes)
            {
                if (!SELF.equals(process.getFileName().toString()) && heldBy(process, programId))
                {
                    return true;
                }
            }
        }
        catch (final IOException ex)
        {
            return false;
        }
        return false;
    }

    private static boolean heldBy(final Path process, final int programId)
    {
        try (DirectoryStream<Path> descriptors = Files.newDirectoryStream(process.resolve("fd")))
        {
            for (final Path descriptor : descriptors)
            {
                if (PROGRAM_LINK.equals(target(descriptor)) &&
                    programId == programId(process.resolve("fdinfo").resolve(descriptor.getFileName())))
                {
                    return true;
                }
            }
        }
        catch (final IOException | SecurityException ex)
        {
            return false;
        }
        return false;
    }

    private static String target(final Path descriptor)
    {
        try
        {
            return Files.readSymbolicLink(descriptor).toString();
        }
        catch (final IOException ex)
        {
            return "";
        }
    }

    private static int programId(final Path fdinfo)
    {
        try
        {
            for (final String line : Files.readAllLines(fdinfo, StandardCharsets.US_ASCII))
            {
                if (line.startsWith(PROGRAM_ID_FIELD))
                {
                    return Integer.parseInt(line.substring(PROGRAM_ID_FIELD.length()).trim());
                }
            }
        }
        catch (final IOException | NumberFormatException ex)
        {
            return -1;
        }
        return -1;
    }
}
