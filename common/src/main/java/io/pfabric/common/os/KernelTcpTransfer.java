package io.pfabric.common.os;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * Sends seeded random bytes over the kernel's TCP from one network namespace to a listener in another, with plain
 * Python sockets, and reports what each side saw as {@code "<bytes> <sha256>"}: equal reports mean the data arrived
 * intact. A check of the fabric between the namespaces, not part of it.
 */
public final class KernelTcpTransfer
{
    private static final String PYTHON = "/usr/bin/python3";

    private KernelTcpTransfer()
    {
    }

    /**
     * Run one transfer.
     *
     * @param serverNamespace namespace of the listener.
     * @param clientNamespace namespace of the sender.
     * @param serverAddress   IPv4 address the listener binds.
     * @param port            TCP port.
     * @param length          bytes to send.
     * @param seed            of the random bytes.
     * @param executor        runs the listener while this thread runs the sender.
     * @return {sent report, received report}.
     * @throws IOException if either side fails.
     */
    public static String[] run(
        final String serverNamespace,
        final String clientNamespace,
        final String serverAddress,
        final int port,
        final int length,
        final long seed,
        final Executor executor) throws IOException
    {
        final String server = "import socket,hashlib\n" +
            "s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)\n" +
            "s.bind(('" + serverAddress + "', " + port + ")); s.listen(1); s.settimeout(60)\n" +
            "c,_=s.accept(); h=hashlib.sha256(); n=0\n" +
            "while True:\n" +
            "  b=c.recv(65536)\n" +
            "  if not b: break\n" +
            "  h.update(b); n+=len(b)\n" +
            "print(n, h.hexdigest())\n";
        final String client = "import socket,hashlib,random,time\n" +
            "random.seed(" + seed + "); data=bytes(random.getrandbits(8) for _ in range(" + length + "))\n" +
            "c=None\n" +
            "for i in range(100):\n" +
            "  try:\n" +
            "    c=socket.create_connection(('" + serverAddress + "', " + port + "), timeout=60); break\n" +
            "  except OSError as e: error=e; time.sleep(0.1)\n" +
            "if c is None: raise SystemExit('could not connect: %s' % error)\n" +
            "c.sendall(data); c.close()\n" +
            "print(len(data), hashlib.sha256(data).hexdigest())\n";
        final CompletableFuture<String> received = CompletableFuture.supplyAsync(() ->
        {
            try
            {
                return Commands.inNamespace(serverNamespace, PYTHON, "-c", server).trim();
            }
            catch (final IOException ex)
            {
                throw new CompletionException(ex);
            }
        }, executor);
        final String sent = Commands.inNamespace(clientNamespace, PYTHON, "-c", client).trim();
        try
        {
            return new String[]{ sent, received.get(90, TimeUnit.SECONDS) };
        }
        catch (final Exception ex)
        {
            throw new IOException("the listener in " + serverNamespace + " failed", ex);
        }
    }
}
