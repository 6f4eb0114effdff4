package io.pfabric.sim;

import io.pfabric.common.control.Timeslots;
import io.pfabric.controllerd.syn.Metric;
import io.pfabric.hostd.transport.FlowRecord;
import io.pfabric.hostd.workload.WorkloadTrace;
import io.pfabric.dataplane.pacer.EgressPacer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SyncSchemesTest
{
    private static final long GBPS = 1_000_000_000L;

    /** 2 leaves of 4 hosts, 2 spines, 1 Gb/s everywhere: a spine link carries one packet per slot. */
    private static SimFabric small()
    {
        return new SimFabric(2, 4, 2, GBPS, GBPS, 2_700, 200, 36_000, "pfabric");
    }

    private static Simulator syn(final SimFabric fabric, final SynControl control)
    {
        final Simulator simulator = new Simulator(fabric, Simulator.Scheme.CONTROLLED,
            SyncRun.configuration(fabric, true), 1, control, PacketSizeMix.FIXED);
        control.attach(simulator);
        return simulator;
    }

    /** ASY on a fabric of 1 Gb/s hosts, rates every slot applied one slot later. */
    private static Simulator asy(final SimFabric fabric, final PacketSizeMix mix)
    {
        final long slotNs = Timeslots.slotNs(GBPS);
        final AsyControl control = new AsyControl(fabric, slotNs, slotNs);
        final Simulator simulator = new Simulator(fabric, Simulator.Scheme.CONTROLLED,
            SyncRun.configuration(fabric, true), 1, control, mix);
        control.attach(simulator);
        return simulator;
    }

    @Test
    void loneSynFlowTakesTheSlotsItNeedsAndCompletes()
    {
        final SimFabric fabric = small();
        final SynControl control = new SynControl(fabric, Metric.OCF, Timeslots.slotNs(GBPS));
        final Simulator simulator = syn(fabric, control);
        final int segments = 20;
        final Simulator.Result result = simulator.run(
            List.of(new WorkloadTrace.FlowSpec(0, 0, 5, segments * 1460L, 1_000)), 100_000_000L);
        final FlowRecord record = result.records()[0];
        assertNotNull(record);
        assertEquals(segments, control.grants());
        assertEquals(segments, control.grantsUsed());
        assertEquals(0, result.droppedPackets());
        // One report delay, one slot boundary, the grant lead, then one packet per slot.
        final long slotNs = control.slotNs();
        final long fct = record.endNs() - 1_000;
        assertTrue(fct >= (segments + 2) * slotNs && fct <= (segments + 8) * slotNs, "fct " + fct);
    }

    @Test
    void synNeverPutsTwoPacketsOnOneSpineLinkInASlot()
    {
        final SimFabric fabric = small();
        final SynControl control = new SynControl(fabric, Metric.SRJF, Timeslots.slotNs(GBPS));
        final Simulator simulator = syn(fabric, control);
        final long slotNs = control.slotNs();
        final long dataWireNs = new EgressPacer(GBPS, 1).wireTimeNs(1_500);
        final Map<Long, Integer> perUplinkSlot = new HashMap<>();
        simulator.transmitObserver((switchIndex, port, nowNs, payload) ->
        {
            if (switchIndex < fabric.leaves() && port >= fabric.hostsPerLeaf() && payload > 0)
            {
                final long slot = (nowNs - fabric.edgeDelayNs() - dataWireNs) / slotNs;
                perUplinkSlot.merge((switchIndex * 16L + port) << 40 | slot, 1, Integer::sum);
            }
        });
        final List<WorkloadTrace.FlowSpec> trace = SyncWorkload.generate(fabric.hosts(), 0.9, GBPS,
            PacketSizeMix.FIXED, SyncWorkload.Traffic.UNIFORM, 1, 3, 200);
        final Simulator.Result result = simulator.run(trace, 10_000_000_000L);
        for (final FlowRecord record : result.records())
        {
            assertNotNull(record);
        }
        assertTrue(perUplinkSlot.size() > 100);
        for (final Map.Entry<Long, Integer> entry : perUplinkSlot.entrySet())
        {
            assertEquals(1, entry.getValue(), "uplink and slot " + Long.toHexString(entry.getKey()));
        }
    }

    @Test
    void asyNeverExceedsAHostLinksRate()
    {
        final SimFabric fabric = new SimFabric(2, 4, 2, GBPS, 10 * GBPS, 2_700, 200, 36_000, "pfabric");
        final long slotNs = Timeslots.slotNs(GBPS);
        final Simulator simulator = asy(fabric, PacketSizeMix.BIMODAL);
        // Bytes of data each host's NIC starts sending, by window of 100 slots.
        final long windowNs = 100 * slotNs;
        final Map<Long, Long> bytesByWindow = new HashMap<>();
        final int nics = fabric.leaves() + fabric.spines();
        simulator.transmitObserver((switchIndex, port, nowNs, payload) ->
        {
            if (switchIndex == nics && payload > 0)
            {
                bytesByWindow.merge((long)port << 40 | nowNs / windowNs, 1L, Long::sum);
            }
        });
        final List<WorkloadTrace.FlowSpec> trace = SyncWorkload.generate(fabric.hosts(), 0.9, GBPS,
            PacketSizeMix.BIMODAL, SyncWorkload.Traffic.INCAST, 3, 5, 300);
        simulator.sampleTiers(10_000);
        final Simulator.Result result = simulator.run(trace, 10_000_000_000L);
        for (final FlowRecord record : result.records())
        {
            assertNotNull(record);
        }
        assertEquals(0, result.droppedPackets());
        // The buckets never let a host exceed its link: data packets per window at most a window of 40-byte
        // packets' worth, and the NIC queues never overflow.
        final long maxPackets = windowNs / (64 * 8) + 1;
        for (final long packets : bytesByWindow.values())
        {
            assertTrue(packets <= maxPackets);
        }
        for (int host = 0; host < fabric.hosts(); host++)
        {
            assertEquals(0, simulator.queue(nics, host).counters().droppedPackets());
        }
        assertTrue(simulator.meanTierQueueBytes(0) < 3_000, "nic " + simulator.meanTierQueueBytes(0));
    }

    @Test
    void asyGivesATenToOneIncastItsFairShares()
    {
        final SimFabric fabric = new SimFabric(2, 8, 2, GBPS, 10 * GBPS, 2_700, 200, 36_000, "pfabric");
        final long slotNs = Timeslots.slotNs(GBPS);
        final Simulator simulator = asy(fabric, PacketSizeMix.FIXED);
        final int segments = 30;
        final List<WorkloadTrace.FlowSpec> trace = new ArrayList<>();
        for (int i = 0; i < 10; i++)
        {
            trace.add(new WorkloadTrace.FlowSpec(i, 1 + i, 0, segments * 1460L, 1_000));
        }
        final Simulator.Result result = simulator.run(trace, 1_000_000_000L);
        // Fair sharing of the destination's link, filled to the headroom: all 300 packets through it, and a flow
        // no later than that plus a few control delays and round trips.
        final long packetNs = new EgressPacer(GBPS, 1).wireTimeNs(1_500);
        final long allNs = (long)(10 * segments * packetNs / AsyControl.HEADROOM);
        for (final FlowRecord record : result.records())
        {
            assertNotNull(record);
            final long fctNs = record.endNs() - 1_000;
            assertTrue(fctNs <= allNs + 20 * slotNs, "fct " + fctNs + " against " + allNs);
            assertTrue(fctNs >= 0.8 * allNs, "fct " + fctNs + " against " + allNs);
        }
        assertEquals(0, result.droppedPackets());
    }

    @Test
    void synWithFullPacketsDropsNothingAndKeepsEdgeQueuesWithinTwoFrames()
    {
        final SimFabric fabric = new SimFabric(4, 30, 3, GBPS, 10 * GBPS, 2_700, 200, 36_000, "pfabric");
        final SynControl control = new SynControl(fabric, Metric.OCF, Timeslots.slotNs(GBPS));
        final Simulator simulator = syn(fabric, control);
        final int nics = fabric.leaves() + fabric.spines();
        final long[] maxEdgeBytes = new long[1];
        final long[] maxCoreBytes = new long[1];
        simulator.transmitObserver((switchIndex, port, nowNs, payload) ->
        {
            final long queued = simulator.queue(switchIndex, port).byteCount();
            if (switchIndex == nics || (switchIndex < fabric.leaves() && port < fabric.hostsPerLeaf()))
            {
                maxEdgeBytes[0] = Math.max(maxEdgeBytes[0], queued);
            }
            else
            {
                maxCoreBytes[0] = Math.max(maxCoreBytes[0], queued);
            }
        });
        final List<WorkloadTrace.FlowSpec> trace = SyncWorkload.generate(fabric.hosts(), 0.8, GBPS,
            PacketSizeMix.FIXED, SyncWorkload.Traffic.UNIFORM, 1, 1, 1_000);
        final Simulator.Result result = simulator.run(trace, 10_000_000_000L);
        for (final FlowRecord record : result.records())
        {
            assertNotNull(record);
        }
        assertEquals(0, result.droppedPackets());
        assertEquals(control.grants(), control.grantsUsed());
        assertTrue(maxEdgeBytes[0] <= 2 * 1_500, "edge " + maxEdgeBytes[0]);
        // A leaf-spine link at ten times the host rate takes up to ten packets in a slot, all sent at its start.
        assertTrue(maxCoreBytes[0] <= 11 * 1_500, "core " + maxCoreBytes[0]);
    }

    @Test
    void sameSeedSameResult() throws Exception
    {
        final SimFabric fabric = small();
        final List<WorkloadTrace.FlowSpec> trace = SyncWorkload.generate(fabric.hosts(), 0.6, GBPS,
            PacketSizeMix.WEB, SyncWorkload.Traffic.UNIFORM, 1, 9, 100);
        assertEquals(trace, SyncWorkload.generate(fabric.hosts(), 0.6, GBPS, PacketSizeMix.WEB,
            SyncWorkload.Traffic.UNIFORM, 1, 9, 100));
        for (final String scheme : SyncRun.SCHEMES)
        {
            final SyncRun.Metrics a = SyncRun.run(fabric, scheme, trace, PacketSizeMix.WEB, 4, 12_192, 12_192, null);
            final SyncRun.Metrics b = SyncRun.run(fabric, scheme, trace, PacketSizeMix.WEB, 4, 12_192, 12_192, null);
            assertEquals(0, a.incomplete(), scheme);
            assertEquals(a.meanNormalizedFct(), b.meanNormalizedFct(), scheme);
            assertEquals(a.events(), b.events(), scheme);
        }
    }
}
