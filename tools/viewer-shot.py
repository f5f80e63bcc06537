#!/usr/bin/env python3
"""Screenshots a MapLibre GL JS viewer page once its map has drawn, in headless Chromium.

Drives Chromium through the DevTools protocol on a pipe (--remote-debugging-pipe: fds 3 and 4,
NUL-separated JSON; Python's standard library only): opens URL, waits until the page sets
`data-map-idle` on <body> (the viewer does on the map's first `idle` event: style, tiles, glyphs
and sprites loaded and drawn), then captures the page as PNG. No fixed sleep to race the map.
usage: viewer-shot.py CHROMIUM URL OUT.png [SECONDS]   (exit 1 with a reason when the map never
went idle within SECONDS, default 60)
"""
import base64, fcntl, json, os, select, subprocess, sys, tempfile, time

chromium, url, out = sys.argv[1:4]
limit = float(sys.argv[4]) if len(sys.argv) > 4 else 60.0
to_chrome_r, to_chrome_w = os.pipe()
from_chrome_r, from_chrome_w = os.pipe()
profile = tempfile.mkdtemp(prefix="viewer-shot-")


def child_fds():
    # Above 10 first, so that dup2 onto 3 and 4 never meets one of the pipe's own descriptors.
    r, w = fcntl.fcntl(to_chrome_r, fcntl.F_DUPFD, 10), fcntl.fcntl(from_chrome_w, fcntl.F_DUPFD, 10)
    os.dup2(r, 3)
    os.dup2(w, 4)


proc = subprocess.Popen(
    [chromium, "--headless", "--no-sandbox", "--disable-gpu-sandbox", "--use-angle=swiftshader",
     "--enable-unsafe-swiftshader", "--disable-dev-shm-usage", "--hide-scrollbars", "--window-size=480,360", "--no-first-run",
     "--remote-debugging-pipe", f"--user-data-dir={profile}", "about:blank"],
    preexec_fn=child_fds, close_fds=False,
    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
os.close(to_chrome_r)
os.close(from_chrome_w)
deadline = time.monotonic() + limit
buffer = b""
next_id = 0


class CommandError(RuntimeError):
    """Chromium answered a command with an error."""


def call(method, session=None, **params):
    """Sends one command and returns its result (events in between are dropped)."""
    global buffer, next_id
    next_id += 1
    message = {"id": next_id, "method": method, "params": params}
    if session:
        message["sessionId"] = session
    os.write(to_chrome_w, json.dumps(message).encode() + b"\0")
    while True:
        while b"\0" not in buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([from_chrome_r], [], [], left)[0]:
                raise TimeoutError(f"{method}: no answer from Chromium within {limit:.0f} s")
            chunk = os.read(from_chrome_r, 1 << 16)
            if not chunk:
                raise RuntimeError(f"{method}: Chromium closed the DevTools pipe")
            buffer += chunk
        raw, buffer = buffer.split(b"\0", 1)
        answer = json.loads(raw)
        if answer.get("id") == next_id:
            if "error" in answer:
                raise CommandError(f"{method}: {answer['error']}")
            return answer["result"]


status = 1
try:
    target = call("Target.createTarget", url="about:blank")["targetId"]
    session = call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
    call("Page.enable", session)
    call("Emulation.setDeviceMetricsOverride", session, width=480, height=360, deviceScaleFactor=1, mobile=False)
    call("Page.navigate", session, url=url)
    state = ""
    while time.monotonic() < deadline:
        try:
            value = call("Runtime.evaluate", session, returnByValue=True,
                         expression="document.body && document.body.getAttribute('data-map-idle') || document.readyState")["result"].get("value")
            state = str(value)
        except CommandError as e:
            state = str(e)  # the page between documents (its context replaced): ask again
        if state == "1":
            break
        time.sleep(0.2)
    if state != "1":
        print(f"viewer-shot: {url}: the map did not go idle within {limit:.0f} s (page state: {state})", file=sys.stderr)
    else:
        shot = call("Page.captureScreenshot", session, format="png")["data"]
        with open(out, "wb") as f:
            f.write(base64.b64decode(shot))
        status = 0
except (TimeoutError, RuntimeError) as e:
    print(f"viewer-shot: {url}: {e}", file=sys.stderr)
finally:
    try:
        call("Browser.close")
    except Exception:
        pass
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    subprocess.run(["rm", "-rf", profile])
sys.exit(status)
