#!/usr/bin/env python3
"""Two `glsnap serve` replicas behind nginx (deploy/nginx/glsnap.conf.template), on loopback, checked.

Starts both replicas and nginx as an unprivileged user (the caller, or `nobody` when run as root;
the replicas stay the caller's when `nobody` cannot reach the checkout) with every file under one
temporary prefix, then checks:

1. cache: a tile asked twice through nginx is a MISS then a HIT, and the hit renders nothing
   (the replicas' glsnap_renders_total and tile counts do not move);
2. hashing: each URL goes to one replica (nginx's access log records the upstream), both get some;
3. failover: a load loop of THREADS threads asks tiles through nginx for SECONDS seconds; a replica
   is killed (SIGKILL) a third of the way in; every request must still answer 200 (nginx retries
   on the other replica) and the URLs of the dead one are served by the live one afterwards.

Exits 0 when all pass, 1 otherwise (naming what failed). Python standard library only.

    tools/nginx-recipe.py [--glsnap .build/debug/glsnap] [--style examples/chicago/style.json]
                          [--seconds 8] [--threads 6] [--keep]

--keep leaves the prefix (configuration, logs, cache) for reading. `nginx` is the Debian package
(tools/install-deps.sh installs it).
"""
from __future__ import annotations

import argparse
import http.client
import os
import pwd
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEMPLATE = os.path.join(ROOT, "deploy", "nginx", "glsnap.conf.template")
# The access log: who answered (a comma between two addresses: nginx retried) and the cache's word.
LOG_FORMAT = "log_format glsnap '$request_uri $status $upstream_cache_status [$upstream_addr]';"
# The example's data is Chicago at z13-z14 (tiles are overzoomed past 14): z15 tiles over the city.
TILE_Z, TILE_X0, TILE_Y0, TILE_SPAN = 15, 8404, 12182, 24
FAIL_TIMEOUT = "5s"


def fail(message: str) -> None:
    print(f"nginx recipe: FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def unprivileged():
    """preexec_fn and environment that run a child as `nobody` when we are root, else as ourselves."""
    if os.getuid() != 0:
        return None, None
    user = pwd.getpwnam("nobody")

    def drop():
        os.setgroups([])
        os.setgid(user.pw_gid)
        os.setuid(user.pw_uid)
    return drop, user


def get(port: int, path: str, timeout: float = 30):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        c.request("GET", path)
        r = c.getresponse()
        return r.status, dict((k.lower(), v) for k, v in r.getheaders()), r.read()
    finally:
        c.close()


def metric(port: int, name: str) -> float:
    """The sum of a Prometheus series (all label sets) on a replica's /metrics."""
    status, _, body = get(port, "/metrics")
    if status != 200:
        fail(f"/metrics on port {port} answered {status}")
    total = 0.0
    for line in body.decode().splitlines():
        if line.startswith(name) and (line[len(name)] in " {"):
            total += float(line.rsplit(" ", 1)[1])
    return total


class Recipe:
    def __init__(self, args):
        self.args = args
        self.prefix = tempfile.mkdtemp(prefix="glsnap-nginx-")
        self.procs: dict[str, subprocess.Popen] = {}
        self.drop, self.user = unprivileged()
        for d in ("tmp", "cache"):
            os.makedirs(os.path.join(self.prefix, d))
        if self.user:
            for d, _, _ in os.walk(self.prefix):
                os.chown(d, self.user.pw_uid, self.user.pw_gid)
        self.env = dict(os.environ, XDG_CACHE_HOME=os.path.join(self.prefix, "tmp"), HOME=self.prefix)
        self.replicas_as_nobody = self.replicas_unprivileged()

    def replicas_unprivileged(self) -> bool:
        """Whether `nobody` can run glsnap on the style (a checkout under a private home cannot be
        reached by it: then the replicas run as the caller; nginx, which reads only its prefix,
        is always unprivileged)."""
        if not self.drop:
            return True
        try:
            probe = subprocess.run([self.args.glsnap, "validate", self.args.style], preexec_fn=self.drop, env=self.env,
                                   cwd=self.prefix, capture_output=True, timeout=60)
        except (OSError, subprocess.SubprocessError):
            return False
        return probe.returncode == 0

    def spawn(self, name: str, argv: list[str], unprivileged: bool = True) -> subprocess.Popen:
        out = open(os.path.join(self.prefix, f"{name}.log"), "wb")
        p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=out, preexec_fn=self.drop if unprivileged else None, env=self.env,
                             cwd=self.prefix)
        self.procs[name] = p
        return p

    def start_replica(self, name: str) -> int:
        """Starts `glsnap serve` on a free port (--port 0) and returns the port it printed."""
        p = self.spawn(name, [self.args.glsnap, "serve", self.args.style, "--port", "0", "--workers", "1",
                              "--quiet", "--cache-control", "public, max-age=3600"], unprivileged=self.replicas_as_nobody)
        line = p.stdout.readline().decode()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not m:
            fail(f"replica {name} did not start: {line.strip() or 'no output'} (see {self.prefix}/{name}.log)")
        return int(m.group(1))

    def start_nginx(self, upstreams: list[int]) -> int:
        """Writes the configuration from the template and starts nginx in the foreground (daemon off)."""
        for attempt in range(5):
            port = free_port()
            servers = "\n".join(f"        server 127.0.0.1:{u} max_fails=1 fail_timeout={FAIL_TIMEOUT};" for u in upstreams)
            text = open(TEMPLATE).read()
            for key, value in {"@PREFIX@": self.prefix, "@SERVERS@": servers, "@LISTEN@": f"127.0.0.1:{port}",
                               "@FAIL_TIMEOUT@": FAIL_TIMEOUT}.items():
                text = text.replace(key, value)
            text = text.replace("    access_log @PREFIX@/access.log;".replace("@PREFIX@", self.prefix),
                                f"    {LOG_FORMAT}\n    access_log {self.prefix}/access.log glsnap;")
            conf = os.path.join(self.prefix, "nginx.conf")
            with open(conf, "w") as f:
                f.write(text)
            nginx = shutil.which("nginx") or "/usr/sbin/nginx"
            argv = [nginx, "-p", self.prefix, "-c", conf, "-e", os.path.join(self.prefix, "error.log"), "-g", "daemon off;"]
            p = self.spawn("nginx", argv)
            for _ in range(100):
                if p.poll() is not None:
                    break
                try:
                    get(port, "/health", timeout=2)
                    return port
                except OSError:
                    time.sleep(0.1)
            if p.poll() is None:
                fail(f"nginx did not answer on port {port} (see {self.prefix}/error.log)")
            # The port was taken between free_port() and nginx's bind: try another.
        fail(f"nginx would not start (see {self.prefix}/error.log and nginx.log)")

    def stop(self) -> None:
        for p in self.procs.values():
            if p.poll() is None:
                p.terminate()
        for p in self.procs.values():
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
        if not self.args.keep:
            shutil.rmtree(self.prefix, ignore_errors=True)
        else:
            print(f"nginx recipe: kept {self.prefix}")


def free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tile(style_id: str, i: int) -> str:
    x, y = TILE_X0 + i % TILE_SPAN, TILE_Y0 + i // TILE_SPAN
    return f"/styles/{style_id}/{TILE_Z}/{x}/{y}.png"


def access_log(prefix: str) -> list[tuple[str, int, str, list[str]]]:
    rows = []
    for line in open(os.path.join(prefix, "access.log")):
        m = re.match(r"(\S+) (\d+) (\S+) \[(.*)\]$", line.strip())
        if m:
            upstreams = [u.strip() for u in m.group(4).replace(" : ", ", ").split(",") if u.strip() not in ("", "-")]
            rows.append((m.group(1), int(m.group(2)), m.group(3), upstreams))
    return rows


def check_cache(nginx: int, replicas: dict[str, int], style_id: str) -> None:
    path = tile(style_id, 0)
    status, headers, first = get(nginx, path)
    if status != 200 or headers.get("x-cache-status") != "MISS":
        fail(f"first GET {path}: {status} X-Cache-Status {headers.get('x-cache-status')} (want 200 MISS)")
    renders = {n: metric(p, "glsnap_renders_total") for n, p in replicas.items()}
    tiles = {n: metric(p, "tileserver_tiles_served_total") for n, p in replicas.items()}
    for _ in range(3):
        status, headers, again = get(nginx, path)
        if status != 200 or headers.get("x-cache-status") != "HIT" or again != first:
            fail(f"repeated GET {path}: {status} X-Cache-Status {headers.get('x-cache-status')} (want 200 HIT, same bytes)")
    after = {n: metric(p, "glsnap_renders_total") for n, p in replicas.items()}
    tiles_after = {n: metric(p, "tileserver_tiles_served_total") for n, p in replicas.items()}
    if after != renders or tiles_after != tiles:
        fail(f"cache hits reached a replica: renders {renders} -> {after}, tiles {tiles} -> {tiles_after}")
    print(f"cache: MISS then 3 HITs of {path}, renders stayed {sum(after.values()):.0f} on the replicas")


def check_hashing(nginx: int, prefix: str, style_id: str, count: int) -> dict[str, str]:
    """Asks `count` tiles (misses) twice past the cache (a query nginx keys apart: each is a miss once),
    and returns URL -> replica; each URL must land on one replica, and both must get some."""
    for i in range(1, count + 1):
        status, headers, _ = get(nginx, tile(style_id, i))
        if status != 200:
            fail(f"GET {tile(style_id, i)} answered {status}")
    owner: dict[str, str] = {}
    for uri, status, cache, upstreams in access_log(prefix):
        if cache == "MISS" and upstreams:
            owner.setdefault(uri, upstreams[-1])
    used = set(owner.values())
    if len(used) < 2:
        fail(f"all {len(owner)} URLs went to {used}: the hash does not spread them")
    return owner


def load(nginx: int, style_id: str, seconds: float, threads: int, kill_at: float, victim: subprocess.Popen):
    """Threads asking tiles through nginx (mostly new ones, so replicas render; some repeats, hits)
    for `seconds`; SIGKILLs `victim` at `kill_at`. Returns (ok, failures, statuses)."""
    stop = time.monotonic() + seconds
    lock = threading.Lock()
    results = {"ok": 0, "failed": [], "hits": 0}
    next_tile = iter(range(100, 10 ** 9))

    def worker(seed: int):
        rnd = random.Random(seed)
        conn = None
        while time.monotonic() < stop:
            with lock:
                i = next(next_tile) if rnd.random() < 0.7 else rnd.randrange(1, 100)
            path = tile(style_id, i % (TILE_SPAN * TILE_SPAN))
            try:
                conn = conn or http.client.HTTPConnection("127.0.0.1", nginx, timeout=60)
                conn.request("GET", path)
                r = conn.getresponse()
                r.read()
                with lock:
                    if r.status == 200:
                        results["ok"] += 1
                        results["hits"] += r.getheader("X-Cache-Status") == "HIT"
                    else:
                        results["failed"].append(f"{path}: {r.status}")
            except (OSError, http.client.HTTPException) as e:
                with lock:
                    results["failed"].append(f"{path}: {type(e).__name__} {e}")
                conn = None
    pool = [threading.Thread(target=worker, args=(s,)) for s in range(threads)]
    t0 = time.monotonic()
    for t in pool:
        t.start()
    time.sleep(max(0.0, kill_at - (time.monotonic() - t0)))
    victim.send_signal(signal.SIGKILL)
    killed = time.monotonic() - t0
    for t in pool:
        t.join()
    return results, killed


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--glsnap", default=os.path.join(ROOT, ".build", "debug", "glsnap"))
    ap.add_argument("--style", default=os.path.join(ROOT, "examples", "chicago", "style.json"))
    ap.add_argument("--seconds", type=float, default=8)
    ap.add_argument("--threads", type=int, default=6)
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()
    args.glsnap, args.style = os.path.abspath(args.glsnap), os.path.abspath(args.style)
    if not os.access(args.glsnap, os.X_OK):
        fail(f"{args.glsnap} is not an executable glsnap (build it, or give --glsnap)")
    if not (shutil.which("nginx") or os.path.exists("/usr/sbin/nginx")):
        fail("nginx is not installed (Debian package nginx; tools/install-deps.sh installs it)")
    style_id = os.path.splitext(os.path.basename(args.style))[0]
    started = time.monotonic()
    recipe = Recipe(args)
    try:
        replicas = {"a": recipe.start_replica("a"), "b": recipe.start_replica("b")}
        nginx = recipe.start_nginx(list(replicas.values()))
        me = pwd.getpwuid(os.getuid()).pw_name
        who = "nobody" if recipe.user else me
        print(f"nginx on 127.0.0.1:{nginx} (as {who}, prefix {recipe.prefix}) over replicas on ports "
              f"{replicas['a']} and {replicas['b']} (as {who if recipe.replicas_as_nobody else me})")
        check_cache(nginx, replicas, style_id)
        owner = check_hashing(nginx, recipe.prefix, style_id, 12)
        print(f"hashing: {len(owner)} URLs, " + ", ".join(
            f"{sum(1 for v in owner.values() if v == u)} to {u}" for u in sorted(set(owner.values()))))
        victim_port = replicas["b"]
        results, killed = load(nginx, style_id, args.seconds, args.threads, args.seconds / 3, recipe.procs["b"])
        rows = access_log(recipe.prefix)
        retried = sum(1 for r in rows if len(r[3]) > 1)
        print(f"failover: replica b (port {victim_port}) killed at {killed:.1f} s of {args.seconds:.0f} s; "
              f"{results['ok']} requests answered 200 ({results['hits']} cache hits), {len(results['failed'])} failed, "
              f"{retried} retried on the other replica by nginx")
        if results["failed"]:
            fail("requests failed under failover: " + "; ".join(results["failed"][:5]))
        if retried == 0:
            fail("no request was retried: the kill did not land under load (raise --seconds or --threads)")
        print(f"nginx recipe: passed in {time.monotonic() - started:.1f} s")
        return 0
    finally:
        recipe.stop()


if __name__ == "__main__":
    sys.exit(main())
