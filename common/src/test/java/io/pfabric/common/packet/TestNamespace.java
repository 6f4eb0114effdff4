package io.pfabric.common.packet;

import io.pfabric.common.os.Commands;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A network namespace a packet test makes for itself before its tests, with veth pairs in it, and deletes after them
 * (registered as a static extension); and the frames those tests send.
 */
final class TestNamespace implements BeforeAllCallback, AfterAllCallback
{
    private static final long CALL_TIMEOUT_SECONDS = 50;

    private final String name;
    private final List<String[]> pairs = new ArrayList<>();
    private boolean created;

    /**
     * A namespace to be made before the test class's tests.
     *
     * @param prefix the test's own prefix of the namespace's name ({@link #uniqueName}).
     */
    TestNamespace(final String prefix)
    {
        this.name = uniqueName(prefix);
    }

    /**
     * Have a veth pair made in the namespace, both ends up.
     *
     * @param a   one end's name.
     * @param b   the other's.
     * @param mtu both ends' MTU, or 0 for the default.
     * @return this.
     */
    TestNamespace veth(final String a, final String b, final int mtu)
    {
        pairs.add(new String[] { a, b, Integer.toString(mtu) });
        return this;
    }

    /**
     * The namespace's name.
     *
     * @return the name.
     */
    String name()
    {
        return name;
    }

    /**
     * {@inheritDoc}
     */
    public void beforeAll(final ExtensionContext context) throws Exception
    {
        create(name);
        created = true;
        for (final String[] pair : pairs)
        {
            addVethPair(name, pair[0], pair[1], Integer.parseInt(pair[2]));
        }
    }

    /**
     * {@inheritDoc}
     */
    public void afterAll(final ExtensionContext context) throws Exception
    {
        if (created)
        {
            delete(name);
        }
    }

    /**
     * Run a task on a new thread inside the namespace ({@link #call(String, Callable)}).
     *
     * @param task what to run.
     * @param <T>  what it returns.
     * @return what it returned.
     * @throws Exception what it threw, or the wait's failure.
     */
    <T> T call(final Callable<T> task) throws Exception
    {
        return call(name, task);
    }

    /**
     * A namespace name no other test run uses: the prefix, this process's id and a random part.
     *
     * @param prefix the test's own prefix.
     * @return the name.
     */
    static String uniqueName(final String prefix)
    {
        return prefix + ProcessHandle.current().pid() + "-" +
            Integer.toHexString(ThreadLocalRandom.current().nextInt(0x10000));
    }

    /**
     * Make a namespace without IPv6, so that no router solicitation or neighbour discovery frame crosses its links.
     *
     * @param namespace its name.
     * @throws IOException if ip fails.
     */
    static void create(final String namespace) throws IOException
    {
        Commands.run("ip", "netns", "add", namespace);
        Commands.run("ip", "netns", "exec", namespace, "sysctl", "-qw", "net.ipv6.conf.default.disable_ipv6=1");
        Commands.run("ip", "netns", "exec", namespace, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1");
    }

    /**
     * Add a veth pair to a namespace, both ends up.
     *
     * @param namespace the namespace.
     * @param a         one end's name.
     * @param b         the other's.
     * @param mtu       both ends' MTU, or 0 for the default.
     * @throws IOException if ip fails.
     */
    static void addVethPair(final String namespace, final String a, final String b, final int mtu) throws IOException
    {
        if (0 == mtu)
        {
            Commands.run("ip", "-n", namespace, "link", "add", a, "type", "veth", "peer", "name", b);
        }
        else
        {
            final String value = Integer.toString(mtu);
            Commands.run("ip", "-n", namespace, "link", "add", a, "mtu", value, "type", "veth", "peer", "name", b,
                "mtu", value);
        }
        Commands.run("ip", "-n", namespace, "link", "set", a, "up");
        Commands.run("ip", "-n", namespace, "link", "set", b, "up");
    }

    /**
     * Delete a namespace and every link in it.
     *
     * @param namespace its name.
     * @throws IOException if ip fails.
     */
    static void delete(final String namespace) throws IOException
    {
        Commands.run("ip", "netns", "del", namespace);
    }

    /**
     * Run a task on a new thread that has entered a namespace, and wait for it (at most 50 s).
     *
     * @param namespace the namespace.
     * @param task      what to run.
     * @param <T>       what it returns.
     * @return what it returned.
     * @throws Exception what it threw, or the wait's failure.
     */
    static <T> T call(final String namespace, final Callable<T> task) throws Exception
    {
        final ExecutorService thread = Executors.newSingleThreadExecutor();
        try
        {
            return thread.submit(() ->
            {
                NetworkNamespace.enterOnCurrentThread(namespace);
                return task.call();
            }).get(CALL_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        finally
        {
            thread.shutdownNow();
        }
    }

    /**
     * A broadcast frame of the local experimental EtherType 0x88B5 carrying a number, its bytes after the number
     * following from the number, so that a frame received can be checked against the one sent.
     *
     * @param id     the number.
     * @param length the frame's length, at least 18.
     * @return the frame.
     */
    static UnsafeBuffer numberedFrame(final int id, final int length)
    {
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[length]);
        frame.putLong(0, 0xFFFF_FFFF_FFFFL << 16, ByteOrder.BIG_ENDIAN);
        frame.putShort(12, (short)0x88B5, ByteOrder.BIG_ENDIAN);
        frame.putInt(14, id, ByteOrder.BIG_ENDIAN);
        for (int i = 18; i < length; i++)
        {
            frame.putByte(i, (byte)(id * 7 + i));
        }
        return frame;
    }
}
