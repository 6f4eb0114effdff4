package io.pfabric.controllerd;

import io.pfabric.common.control.ControlInbox;
import io.pfabric.common.control.ControlMode;
import io.pfabric.common.control.Timeslots;
import io.pfabric.common.packet.NetworkNamespace;
import io.pfabric.common.packet.PacketSocketException;
import io.pfabric.common.packet.TimerSlack;
import io.pfabric.controllerd.session.AsyControl;
import io.pfabric.controllerd.session.ControlPolicy;
import io.pfabric.controllerd.session.ControllerCounters;
import io.pfabric.controllerd.session.ControllerSession;
import io.pfabric.controllerd.session.SynControl;
import org.agrona.concurrent.SystemNanoClock;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The controller: one thread running a {@link ControllerSession} and a {@link ControlPolicy} (SYN or ASY) as an
 * Agrona {@link Agent}. The thread spins while there is work or the next deadline is near, and otherwise waits in the
 * socket for a message or the deadline, at most 100 µs. Several controllers can live in one JVM.
 */
public final class ControllerDaemon implements AutoCloseable
{
    private static final long START_TIMEOUT_SECONDS = 30;
    private static final long MAX_WAIT_NS = 100_000;
    private static final long SPIN_NS = 20_000;

    private final ControllerConfiguration.Context context;
    private final ControllerCounters counters = new ControllerCounters();
    private final Thread thread;
    private final CompletableFuture<ControllerSession> started = new CompletableFuture<>();
    private final CompletableFuture<Void> stopped = new CompletableFuture<>();
    private volatile boolean running = true;
    private volatile long slotNs;
    private volatile Throwable failure;

    private ControllerDaemon(final ControllerConfiguration.Context context)
    {
        this.context = context;
        this.thread = new Thread(this::run, "controllerd-" + context.mode().name().toLowerCase(Locale.ROOT));
        this.thread.setDaemon(true);
    }

    /**
     * Start a controller on its own thread.
     *
     * @param context its settings; concluded here.
     * @return the running controller.
     * @throws IOException if its socket cannot be bound.
     */
    public static ControllerDaemon start(final ControllerConfiguration.Context context) throws IOException
    {
        context.conclude();
        final ControllerDaemon daemon = new ControllerDaemon(context);
        daemon.thread.start();
        try
        {
            daemon.started.get(START_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        catch (final ExecutionException ex)
        {
            if (ex.getCause() instanceof IOException cause)
            {
                throw cause;
            }
            throw new IOException(ex.getCause().getMessage(), ex.getCause());
        }
        catch (final TimeoutException | InterruptedException ex)
        {
            daemon.close();
            throw new IOException("the controller did not start", ex);
        }
        return daemon;
    }

    private void run()
    {
        final ControllerSession session;
        final ControlPolicy policy;
        try
        {
            if (null != context.namespace())
            {
                NetworkNamespace.enterOnCurrentThread(context.namespace());
            }
            session = ControllerSession.open(
                context.listen(), context.transport(), context.key(), context.hostAddresses());
            final long startNs = System.nanoTime();
            if (ControlMode.SYN == context.mode())
            {
                slotNs = Timeslots.synSlotNs(context.linkRateBitsPerSec());
                policy = new SynControl(session, counters, context.fabric(), context.metric(), context.batchSlots(),
                    context.lookaheadBatches(), context.emitAheadSlots(), slotNs, context.heartbeatNs(), startNs);
            }
            else
            {
                policy = new AsyControl(session, counters, context.fabric().hostCount(),
                    context.linkRateBitsPerSec(), context.intervalNs(), startNs);
            }
        }
        catch (final IOException | PacketSocketException | RuntimeException ex)
        {
            started.completeExceptionally(ex instanceof IOException ? ex : new IOException(ex.getMessage(), ex));
            stopped.complete(null);
            return;
        }
        started.complete(session);
        TimerSlack.setForCurrentThread(1);
        final ControllerAgent agent = new ControllerAgent(session, policy, thread.getName(), SystemNanoClock.INSTANCE);
        try
        {
            while (running)
            {
                if (agent.doWork() > 0)
                {
                    continue;
                }
                final long waitNs = Math.min(MAX_WAIT_NS, policy.nextDeadlineNs() - System.nanoTime());
                if (waitNs > SPIN_NS)
                {
                    policy.time(System.nanoTime());
                    session.await(policy, waitNs - SPIN_NS / 2);
                }
                else
                {
                    Thread.onSpinWait();
                }
            }
        }
        catch (final RuntimeException | Error ex)
        {
            failure = ex;
            throw ex;
        }
        finally
        {
            session.close();
            stopped.complete(null);
        }
    }

    private ControllerSession session()
    {
        return started.join();
    }

    /**
     * @return the address the controller's socket is bound to.
     */
    public InetSocketAddress localAddress()
    {
        return session().localAddress();
    }

    /**
     * @return what the controller has done (possibly stale).
     */
    public ControllerCounters counters()
    {
        return counters;
    }

    /**
     * @return messages accepted and refused by reason (possibly stale).
     */
    public ControlInbox inbox()
    {
        return session().inbox();
    }

    /**
     * @return the settings.
     */
    public ControllerConfiguration.Context context()
    {
        return context;
    }

    /**
     * @return what stopped the controller's thread, or null if it is running or was closed.
     */
    public Throwable failure()
    {
        return failure;
    }

    /**
     * @return SYN's slot length in ns, 0 under ASY.
     */
    public long slotNs()
    {
        return slotNs;
    }

    /**
     * One line of counters, as printed when the daemon stops.
     *
     * @return the line.
     */
    public String summary()
    {
        final ControlInbox inbox = session().inbox();
        final StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
            "accepted %,d, refused malformed %,d, unauthenticated %,d, duplicate %,d, stale %,d; sent %,d messages " +
            "(%,d send failures)", inbox.accepted(), inbox.malformed(), inbox.unauthenticated(), inbox.duplicates(),
            inbox.stale(), session().messagesSent(), session().sendFailures()));
        if (ControlMode.SYN == context.mode())
        {
            line.append(String.format(Locale.ROOT, "; %,d demand entries, %,d batches, %,d slots granted, %,d grants " +
                "sent in %,d messages, %,d dropped late, %,d heartbeats", counters.demandEntries(),
                counters.batchesAllocated(), counters.grantsAllocated(), counters.grantsSent(),
                counters.grantMessagesSent(), counters.grantsDroppedLate(), counters.heartbeatsSent()));
        }
        else
        {
            line.append(String.format(Locale.ROOT, "; %,d offer entries, %,d normalizations (%,d iterations), %,d " +
                "rate messages", counters.offerEntries(), counters.normalizations(),
                counters.normalizationIterations(), counters.rateMessagesSent()));
        }
        if (counters.invalidEntries() > 0)
        {
            line.append(String.format(Locale.ROOT, "; %,d invalid entries", counters.invalidEntries()));
        }
        return line.toString();
    }

    /**
     * Stop the controller's thread and close its socket; waits for the thread.
     */
    public void close()
    {
        running = false;
        try
        {
            stopped.get(10, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        catch (final ExecutionException | TimeoutException ex)
        {
            thread.interrupt();
        }
    }
}
