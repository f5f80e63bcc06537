#!/usr/bin/env python3
"""glsnap against MapLibre Native on the same cameras, in one run.

Runs `glsnap bench --json` and `../shared/peers/maplibre.py bench` alternately for several rounds on
the same seeded cameras (shared/peers/cameras.py), then prints the medians of each renderer's
throughput and p95 latency and their ratios (glsnap / MapLibre Native; MapLibre's best: the mapli
pool). Peak resident memory is compared too.

usage: tools/peer-bench.py [--style S] [--cameras N] [--size WxH] [--ratio R] [--workers N] [--rounds K]
                           [--glsnap PATH] [--peer-python PATH]
The peer venv comes from shared/peers/setup.sh (default ~/.cache/glsnap-peers).
"""
import argparse, json, os, statistics, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
shared = os.path.normpath(os.path.join(root, '..', 'shared'))

ap = argparse.ArgumentParser()
ap.add_argument('--style', default=os.path.join(shared, 'fixtures/styles/bright-v9-chicago.json'))
ap.add_argument('--cameras', type=int, default=30)
ap.add_argument('--seed', type=int, default=7)
ap.add_argument('--size', default='512x512')
ap.add_argument('--ratio', type=float, default=1)
ap.add_argument('--workers', type=int, default=2)
ap.add_argument('--rounds', type=int, default=3)
ap.add_argument('--glsnap', default=os.path.join(root, '.build/release/glsnap'))
ap.add_argument('--peer-python', default=os.path.expanduser('~/.cache/glsnap-peers/bin/python'))
a = ap.parse_args()

cams = subprocess.run([sys.executable, os.path.join(shared, 'peers/cameras.py'), a.style, str(a.cameras), '--seed', str(a.seed)],
                      check=True, capture_output=True, text=True).stdout
camfile = tempfile.NamedTemporaryFile('w', suffix='.json', delete=False)
camfile.write(cams)
camfile.close()

def last_json(text):
    lines = [l for l in text.splitlines() if l.startswith('{')]
    return [json.loads(l) for l in lines]

def peak_rss_of(cmd):
    """Runs cmd under /usr/bin/time -v when present; returns (stdout, peak RSS bytes or None)."""
    if os.path.exists('/usr/bin/time'):
        r = subprocess.run(['/usr/bin/time', '-v'] + cmd, capture_output=True, text=True)
        rss = None
        for line in r.stderr.splitlines():
            if 'Maximum resident set size' in line:
                rss = int(line.split(':')[1]) * 1024
        if r.returncode != 0:
            sys.exit(f'failed: {" ".join(cmd)}\n{r.stderr[-2000:]}')
        return r.stdout, rss
    r = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return r.stdout, None

glsnap, peer = [], []
for k in range(a.rounds):
    out, _ = peak_rss_of([a.glsnap, 'bench', '--style', a.style, '--cameras', camfile.name, '--size', a.size,
                          '--ratio', str(a.ratio), '--workers', str(a.workers), '--json'])
    g = last_json(out)[-1]
    glsnap.append(g)
    out, rss = peak_rss_of([a.peer_python, os.path.join(shared, 'peers/maplibre.py'), 'bench', a.style, '--cameras', camfile.name,
                            '--size', a.size, '--ratio', str(a.ratio), '--workers', str(a.workers)])
    p = last_json(out)
    best = max(p, key=lambda r: r['snapshots_per_s'])
    best['peak_rss_bytes'] = rss
    peer.append(best)
    print(f"round {k + 1}: glsnap {g['snapshots_per_s']}/s p95 {g['ms_p95']} ms | {best['renderer']} "
          f"{best['snapshots_per_s']}/s p95 {best['ms_p95']} ms", flush=True)

def med(rows, key):
    vals = [r[key] for r in rows if r.get(key) is not None]
    return statistics.median(vals) if vals else None

summary = {
    'style': os.path.basename(a.style), 'size': a.size, 'ratio': a.ratio, 'workers': a.workers, 'rounds': a.rounds,
    'glsnap_snapshots_per_s': med(glsnap, 'snapshots_per_s'), 'peer_snapshots_per_s': med(peer, 'snapshots_per_s'),
    'glsnap_ms_p95': med(glsnap, 'ms_p95'), 'peer_ms_p95': med(peer, 'ms_p95'),
    'glsnap_peak_rss_bytes': med(glsnap, 'peak_rss_bytes'), 'peer_peak_rss_bytes': med(peer, 'peak_rss_bytes'),
    'glsnap_png_bytes_avg': med(glsnap, 'png_bytes_avg'), 'peer_png_bytes_avg': med(peer, 'png_bytes_avg'),
}
summary['throughput_ratio'] = round(summary['glsnap_snapshots_per_s'] / summary['peer_snapshots_per_s'], 2)
summary['p95_ratio'] = round(summary['glsnap_ms_p95'] / summary['peer_ms_p95'], 2)
print(json.dumps(summary))
os.unlink(camfile.name)
