#!/usr/bin/env python3
"""glsnap's Python pool (glsnap.Renderer) against `glsnap bench` and MapLibre Native's mapli pool, on
the same seeded cameras (shared/peers/cameras.py), alternately for several rounds.

Each round runs `glsnap bench --cameras F --workers N --json`, then the Python pool with N threads
calling Renderer.render (PNG at zlib level 1 without filters, as bench's default; drawing on the
calling threads, as bench does), then, with --mapli, shared/peers/maplibre.py bench (its mapli pool
line). Prints each round and the medians with the ratios python/bench and python/mapli.

usage: tools/python-bench.py [--style S] [--cameras N] [--size WxH] [--workers N] [--rounds K] [--mapli]
                             [--glsnap PATH] [--python PATH] [--peer-python PATH]
--python: a Python with glsnap installed (default .build/python-venv/bin/python, from tools/test-python.sh).
"""
import argparse, json, os, statistics, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
shared = os.path.normpath(os.path.join(root, '..', 'shared'))

POOL = r'''
import concurrent.futures as cf, json, sys, time
import glsnap
style, cams, w, h, workers = sys.argv[1], json.load(open(sys.argv[2])), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
r = glsnap.Renderer(style, workers=workers, width=w, height=h, draw_on_calling_thread=True)
def one(c):
    return len(r.render(lon=c['center'][0], lat=c['center'][1], zoom=c['zoom'], bearing=c.get('bearing', 0),
                        pitch=c.get('pitch', 0), quality=1))
with cf.ThreadPoolExecutor(workers) as ex:
    list(ex.map(one, cams[:workers]))
    t = time.perf_counter()
    sizes = list(ex.map(one, cams))
    wall = time.perf_counter() - t
r.close()
print(json.dumps({'renderer': f'glsnap (Python pool, {workers} threads)', 'n': len(cams),
                  'snapshots_per_s': round(len(cams) / wall, 2), 'png_bytes_avg': int(sum(sizes) / len(sizes))}))
'''

ap = argparse.ArgumentParser()
ap.add_argument('--style', default=os.path.join(shared, 'fixtures/styles/bright-v9-chicago.json'))
ap.add_argument('--cameras', type=int, default=120)
ap.add_argument('--seed', type=int, default=7)
ap.add_argument('--size', default='512x512')
ap.add_argument('--workers', type=int, default=2)
ap.add_argument('--rounds', type=int, default=3)
ap.add_argument('--mapli', action='store_true')
ap.add_argument('--glsnap', default=os.path.join(root, '.build/release/glsnap'))
ap.add_argument('--python', default=os.path.join(root, '.build/python-venv/bin/python'))
ap.add_argument('--peer-python', default=os.path.expanduser('~/.cache/glsnap-peers/bin/python'))
a = ap.parse_args()
w, h = a.size.split('x')

cams = subprocess.run([sys.executable, os.path.join(shared, 'peers/cameras.py'), a.style, str(a.cameras), '--seed', str(a.seed)],
                      check=True, capture_output=True, text=True).stdout
camfile = tempfile.NamedTemporaryFile('w', suffix='.json', delete=False)
camfile.write(cams)
camfile.close()

def last_json(cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return [json.loads(l) for l in out.splitlines() if l.startswith('{')]

rows = {'bench': [], 'python': [], 'mapli': []}
for k in range(a.rounds):
    rows['bench'].append(last_json([a.glsnap, 'bench', '--style', a.style, '--cameras', camfile.name, '--size', a.size,
                                    '--workers', str(a.workers), '--json'])[-1]['snapshots_per_s'])
    rows['python'].append(last_json([a.python, '-c', POOL, a.style, camfile.name, w, h, str(a.workers)])[-1]['snapshots_per_s'])
    line = f"round {k + 1}: glsnap bench {rows['bench'][-1]}/s | Python pool {rows['python'][-1]}/s"
    if a.mapli:
        peer = last_json([a.peer_python, os.path.join(shared, 'peers/maplibre.py'), 'bench', a.style, '--cameras', camfile.name,
                          '--size', a.size, '--workers', str(a.workers)])
        rows['mapli'].append(next(r for r in peer if 'mapli' in r['renderer'])['snapshots_per_s'])
        line += f" | mapli pool {rows['mapli'][-1]}/s"
    print(line, flush=True)

med = {k: statistics.median(v) for k, v in rows.items() if v}
summary = {'style': os.path.basename(a.style), 'cameras': a.cameras, 'size': a.size, 'workers': a.workers, 'rounds': a.rounds,
           'bench_snapshots_per_s': med['bench'], 'python_snapshots_per_s': med['python'],
           'python_over_bench': round(med['python'] / med['bench'], 3)}
if 'mapli' in med:
    summary['mapli_snapshots_per_s'] = med['mapli']
    summary['python_over_mapli'] = round(med['python'] / med['mapli'], 2)
print(json.dumps(summary))
os.unlink(camfile.name)
