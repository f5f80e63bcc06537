#!/usr/bin/env python3
"""A bounded slowloris check for `glsnap serve`, on loopback only.

Holds N connections to the server that each send a request line and then one header line
every INTERVAL seconds, never finishing the request (reopening any the server closes, as a
real attacker does). Meanwhile a probe client asks for /health every second and the
latency of each answer (or its failure: reset, refused, timed out) is recorded.

    glsnap serve STYLE.json --port 8090 &
    tools/slowloris.py --port 8090 --connections 530 --sources 127.0.0.2-127.0.0.12 --duration 40

Attack connections come from the --sources loopback addresses (so that a per-address cap
does not refuse them); the probe comes from --probe-from (default 127.0.0.1). Prints a JSON
summary. Stops by itself after --duration seconds (at most 600); the target must be 127.x.x.x.
Python standard library only.
"""
import argparse
import errno
import ipaddress
import json
import selectors
import socket
import statistics
import threading
import time

MAX_DURATION = 600
MAX_CONNECTIONS = 5000


def loopback(address):
    ip = ipaddress.ip_address(address)
    if not ip.is_loopback or ip.version != 4:
        raise argparse.ArgumentTypeError(f"{address} is not an IPv4 loopback address")
    return address


def source_range(text):
    first, _, last = text.partition("-")
    a = ipaddress.ip_address(loopback(first))
    b = ipaddress.ip_address(loopback(last or first))
    if b < a or int(b) - int(a) > 1000:
        raise argparse.ArgumentTypeError(f"bad range {text}")
    return [str(ipaddress.ip_address(i)) for i in range(int(a), int(b) + 1)]


class Attacker:
    """The trickling connections, driven from one thread with a selector."""

    def __init__(self, args):
        self.args = args
        self.sel = selectors.DefaultSelector()
        self.conns = {}  # socket -> [next send time, lines sent, opened at]
        self.opened = 0
        self.closed_by_server = 0
        self.connect_failures = 0
        self.lifetimes = []
        self.stop = False

    def open_one(self, i):
        src = self.args.sources[i % len(self.args.sources)]
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setblocking(False)
        try:
            s.bind((src, 0))
            s.connect_ex((self.args.host, self.args.port))
        except OSError:
            self.connect_failures += 1
            s.close()
            return
        now = time.monotonic()
        self.conns[s] = [now, 0, now, i]
        self.sel.register(s, selectors.EVENT_READ)
        self.opened += 1

    def drop(self, s, by_server):
        info = self.conns.pop(s, None)
        try:
            self.sel.unregister(s)
        except (KeyError, ValueError):
            pass
        s.close()
        if by_server and info:
            self.closed_by_server += 1
            self.lifetimes.append(time.monotonic() - info[2])
            if self.args.reconnect and not self.stop:
                self.open_one(info[3])

    def run(self, until):
        for i in range(self.args.connections):
            self.open_one(i)
        while time.monotonic() < until:
            now = time.monotonic()
            for s, info in list(self.conns.items()):
                if now < info[0]:
                    continue
                line = (f"GET /health HTTP/1.1\r\nHost: {self.args.host}\r\n" if info[1] == 0
                        else f"X-Slow-{info[1]}: {info[1]}\r\n")
                try:
                    s.send(line.encode())
                except BlockingIOError:
                    continue
                except OSError as e:
                    if e.errno in (errno.EINPROGRESS, errno.ENOTCONN):
                        continue
                    self.drop(s, True)
                    continue
                info[0] = now + (0.05 if info[1] == 0 else self.args.interval)
                info[1] += 1
            for key, _ in self.sel.select(timeout=0.05):
                s = key.fileobj
                try:
                    data = s.recv(4096)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                if not data:
                    self.drop(s, True)
        self.stop = True
        for s in list(self.conns):
            self.drop(s, False)


def probe(args, latencies, failures, until):
    """GET /health once a second from --probe-from; each with a fresh connection."""
    while time.monotonic() < until:
        t0 = time.monotonic()
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.settimeout(args.probe_timeout)
        try:
            s.bind((args.probe_from, 0))
            s.connect((args.host, args.port))
            s.sendall(f"GET /health HTTP/1.1\r\nHost: {args.host}\r\nConnection: close\r\n\r\n".encode())
            data = b""
            while True:
                chunk = s.recv(4096)
                if not chunk:
                    break
                data += chunk
            if data.startswith(b"HTTP/1.1 200") and data.endswith(b"OK"):
                latencies.append(time.monotonic() - t0)
            else:
                failures.append(f"answer {data[:40]!r} after {time.monotonic() - t0:.2f} s")
        except OSError as e:
            failures.append(f"{type(e).__name__} {e} after {time.monotonic() - t0:.2f} s")
        finally:
            s.close()
        time.sleep(max(0.0, 1.0 - (time.monotonic() - t0)))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--host", type=loopback, default="127.0.0.1")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--connections", type=int, default=530)
    p.add_argument("--sources", type=source_range, default=source_range("127.0.0.2-127.0.0.12"),
                   help="loopback addresses the attack comes from, FIRST-LAST (default 127.0.0.2-127.0.0.12)")
    p.add_argument("--probe-from", type=loopback, default="127.0.0.1")
    p.add_argument("--interval", type=float, default=4.0, help="seconds between header lines (default 4)")
    p.add_argument("--duration", type=float, default=40.0, help=f"seconds in all (at most {MAX_DURATION})")
    p.add_argument("--warmup", type=float, default=6.0, help="seconds of attack before the first probe")
    p.add_argument("--probe-timeout", type=float, default=10.0)
    p.add_argument("--no-reconnect", dest="reconnect", action="store_false",
                   help="do not reopen connections the server closes")
    args = p.parse_args()
    if not (0 < args.duration <= MAX_DURATION) or not (1 <= args.connections <= MAX_CONNECTIONS):
        p.error(f"--duration must be 0-{MAX_DURATION} s and --connections 1-{MAX_CONNECTIONS}")
    if args.warmup >= args.duration:
        p.error("--warmup must be shorter than --duration")

    start = time.monotonic()
    until = start + args.duration
    attacker = Attacker(args)
    held = []

    def sample():
        while time.monotonic() < until:
            held.append(len(attacker.conns))
            time.sleep(1)

    latencies, failures = [], []
    threads = [threading.Thread(target=sample, daemon=True)]
    threads.append(threading.Thread(target=lambda: (time.sleep(args.warmup), probe(args, latencies, failures, until)),
                                    daemon=True))
    for t in threads:
        t.start()
    attacker.run(until)
    for t in threads:
        t.join(timeout=args.probe_timeout + 2)

    def stats(v):
        if not v:
            return None
        v = sorted(v)
        return {"min": round(v[0], 4), "median": round(statistics.median(v), 4),
                "p95": round(v[min(len(v) - 1, int(0.95 * len(v)))], 4), "max": round(v[-1], 4)}

    print(json.dumps({
        "connections": args.connections, "sources": f"{args.sources[0]}-{args.sources[-1]}",
        "interval_s": args.interval, "duration_s": args.duration, "reconnect": args.reconnect,
        "attack": {"opened": attacker.opened, "closed_by_server": attacker.closed_by_server,
                   "connect_failures": attacker.connect_failures,
                   "open_min_after_warmup": min(held[int(args.warmup):], default=None),
                   "open_max": max(held, default=None),
                   "lifetime_s": stats(attacker.lifetimes)},
        "probe": {"ok": len(latencies), "failed": len(failures), "latency_s": stats(latencies),
                  "failures": failures[:10]},
    }, indent=2))


if __name__ == "__main__":
    main()
