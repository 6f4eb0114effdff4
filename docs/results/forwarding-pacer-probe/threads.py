# Usage: python3 threads.py DELAY_S SECONDS: each thread's run time, wait time (runnable, not running) and time slices
# from /proc/PID/task/TID/schedstat over SECONDS, starting DELAY_S from now; threads that ran over 5 ms.
import os, sys, time
def snap():
    d = {}
    for pid in os.listdir('/proc'):
        if not pid.isdigit(): continue
        try:
            for tid in os.listdir(f'/proc/{pid}/task'):
                try:
                    ss = open(f'/proc/{pid}/task/{tid}/schedstat').read().split()
                    st = open(f'/proc/{pid}/task/{tid}/stat').read()
                    name = st[st.index('(')+1:st.rindex(')')]
                    f = st[st.rindex(')')+2:].split()
                    d[(pid, tid)] = (name, int(ss[0]), int(ss[1]), int(ss[2]), f[36], f[38])
                except OSError: pass
        except OSError: pass
    return d
time.sleep(float(sys.argv[1]))
a = snap(); t0 = time.time(); time.sleep(float(sys.argv[2])); b = snap(); t = time.time() - t0
rows = []
for k, v in b.items():
    if k in a:
        r = v[1] - a[k][1]; w = v[2] - a[k][2]; n = v[3] - a[k][3]
        if r > 5e6: rows.append((r, k, v[0], w, n, v[4], v[5]))
rows.sort(reverse=True)
print(f"interval {t:.2f}s")
for r, k, name, w, n, cpu, pol in rows[:15]:
    print(f"{name:20s} tid {k[1]:>7} run {r/1e6:8.1f} ms wait {w/1e6:8.1f} ms slices {n:7d} lastcpu {cpu} policy {pol}")
