#!/usr/bin/env python3
"""Recompute summary.csv's throughput and goodput columns from the FCT logs and traces of a sync sweep, with
SyncRun's steady-window definition: wire bytes (frame bytes + 24 per packet) of flows completing in
[arrival of flow n/10, last arrival) over wire bytes of flows arriving in it; goodput = the completed wire bytes as a
share of all host links over the window."""
import csv, sys, os
MEAN = {'fixed': 1500.0, 'bimodal': 0.4 * 40 + 0.6 * 1500,
        'web': 0.30 * 40 + 0.25 * 150 + 0.15 * 300 + 0.15 * 576 + 0.15 * 1500}
d, hosts, rate = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
rows = list(csv.DictReader(open(os.path.join(d, 'summary.csv'))))
for r in rows:
    label = f"{r['traffic']}-{r['packet_sizes']}-{float(r['load']):g}"
    trace = list(csv.DictReader(open(os.path.join(d, f'trace-{label}.csv'))))
    fct = {int(f['flow_id']): f for f in csv.DictReader(open(os.path.join(d, f"fct-{r['scheme']}-{label}.csv")))}
    ws, we = int(trace[len(trace) // 10]['start_ns']), int(trace[-1]['start_ns'])
    offered = completed = 0.0
    for t in trace:
        seg = int(t['size_bytes']) // 1460
        f = fct[int(t['flow_id'])]
        end = int(f['end_ns']) if f['end_ns'] not in ('', '-1') else -1
        wire = seg * 24 + (seg * MEAN[r['packet_sizes']] if end < 0 else int(f['size_bytes']))
        if ws <= int(t['start_ns']) < we:
            offered += wire
        if end >= 0 and ws <= end < we:
            completed += wire
    r['throughput'] = f"{completed / max(1, offered):.4f}"
    r['goodput'] = f"{completed * 8e9 / ((we - ws) * rate * hosts):.4f}"
w = csv.DictWriter(sys.stdout, fieldnames=rows[0].keys(), lineterminator='\n')
w.writeheader()
w.writerows(rows)
