/**
 * SYN, Fastpass-style timeslot allocation: per-pair demand ({@link io.pfabric.controllerd.syn.DemandTable}), a greedy
 * maximal matching per timeslot in the order of a {@link io.pfabric.controllerd.syn.Metric}, computed a batch of slots
 * at a time over free-slot bitmaps ({@link io.pfabric.controllerd.syn.TimeslotAllocator}), and the choice of a spine
 * for every grant that crosses the spine layer ({@link io.pfabric.controllerd.syn.PathColourer}).
 */
package io.pfabric.controllerd.syn;
