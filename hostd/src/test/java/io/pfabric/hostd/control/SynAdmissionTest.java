package io.pfabric.hostd.control;

import io.pfabric.common.control.ControlMessageFlyweight;
import io.pfabric.hostd.transport.Admission;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SYN admission on scripted time: a grant admits exactly one packet toward its destination on its spine; without a
 * grant nothing; a grant past its lifetime is dropped; a slot grant admits from its slot's start until it closes, in
 * slot order.
 */
class SynAdmissionTest
{
    @Test
    void aGrantAdmitsExactlyOnePacketOnItsSpine()
    {
        final SynAdmission syn = new SynAdmission(4, 10_000);
        assertFalse(syn.mayAdmit(1, 0), "no grant, no packet");
        syn.onGrant(1, 3, 100);
        syn.onGrant(2, ControlMessageFlyweight.NO_SPINE, 100);
        assertFalse(syn.mayAdmit(3, 200), "a grant is for its destination only");
        assertTrue(syn.mayAdmit(1, 200));
        assertEquals(3, syn.pathHint(1));
        syn.onAdmitted(1);
        assertFalse(syn.mayAdmit(1, 300), "one grant, one packet");
        assertTrue(syn.mayAdmit(2, 300));
        assertEquals(Admission.NO_PATH, syn.pathHint(2), "a grant within the leaf names no spine");
        syn.onAdmitted(2);
        assertEquals(2, syn.grantsUsed());
        assertEquals(0, syn.grantsExpired());
    }

    @Test
    void grantsAreUsedInArrivalOrderAndExpireAfterTheirLifetime()
    {
        final SynAdmission syn = new SynAdmission(2, 10_000);
        syn.onGrant(1, 0, 0);
        syn.onGrant(1, 1, 5_000);
        syn.onGrant(1, 2, 12_000);
        assertTrue(syn.mayAdmit(1, 12_000));
        assertEquals(1, syn.pathHint(1), "the first grant expired at 10 us");
        assertEquals(1, syn.grantsExpired());
        syn.onAdmitted(1);
        assertFalse(syn.mayAdmit(1, 30_000), "the last one expired too");
        assertEquals(2, syn.grantsExpired());
        assertEquals(0, syn.queued(1));
    }

    @Test
    void aFullQueueDropsAndCounts()
    {
        final SynAdmission syn = new SynAdmission(2, Long.MAX_VALUE);
        for (int i = 0; i < SynAdmission.MAX_QUEUED_GRANTS + 5; i++)
        {
            syn.onGrant(1, 0, i);
        }
        assertEquals(SynAdmission.MAX_QUEUED_GRANTS, syn.queued(1));
        assertEquals(5, syn.grantsOverflowed());
    }

    @Test
    void aSlotGrantAdmitsOnlyFromItsSlotsStartUntilItCloses()
    {
        final SynAdmission syn = new SynAdmission(3, 10_000);
        syn.onSlotGrant(1, 2, 100_000, 110_000);
        assertFalse(syn.mayAdmit(1, 99_999), "not before its slot");
        assertEquals(100_000, syn.nextOpensNs(50_000));
        assertTrue(syn.mayAdmit(1, 100_000));
        assertEquals(2, syn.pathHint(1));
        assertTrue(syn.mayAdmit(1, 110_000), "until it closes");
        assertFalse(syn.mayAdmit(1, 110_001), "not after");
        assertEquals(1, syn.grantsExpired());
        assertEquals(0, syn.queued(1), "the expired grant no longer covers a packet");
        assertEquals(Long.MAX_VALUE, syn.nextOpensNs(110_001));
    }

    @Test
    void slotGrantsThatArriveOutOfOrderAreUsedInSlotOrder()
    {
        final SynAdmission syn = new SynAdmission(3, 10_000);
        syn.onSlotGrant(1, 3, 300_000, 310_000);
        syn.onSlotGrant(1, 1, 100_000, 110_000);
        syn.onSlotGrant(1, 2, 200_000, 210_000);
        syn.onSlotGrant(2, 0, 150_000, 160_000);
        assertEquals(100_000, syn.nextOpensNs(0), "the earliest over all destinations");
        assertTrue(syn.mayAdmit(1, 100_000));
        assertEquals(1, syn.pathHint(1));
        syn.onAdmitted(1);
        assertFalse(syn.mayAdmit(1, 120_000), "one packet per slot: the next opens at 200 us");
        assertEquals(150_000, syn.nextOpensNs(120_000));
        assertFalse(syn.mayAdmit(1, 250_000), "the slot at 200 us closed unused at 210 us");
        assertEquals(1, syn.grantsExpired());
        assertTrue(syn.mayAdmit(1, 300_000));
        assertEquals(3, syn.pathHint(1));
    }
}
