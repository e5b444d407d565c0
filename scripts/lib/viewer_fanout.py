#!/usr/bin/env python3
"""Viewer fan-out load (issue 30, item 11), driven by scripts/stream-load.sh (MODE=viewers).

For each count of viewer streams (default 0, 64, 512) on one encounter of tenant A:
  1. opens that many `GET /view/{token}/stream` connections (a reader process, asyncio, at
     nice 19: real viewers read on their own machines, so the readers here must not take the
     CPU from the server or from B's client; they still read every event, just later),
  2. phase "alone": WRITES sequential `POST .../advance` on A; server CPU per write from
     /proc/PID/stat and A's write latency p50/p99,
  3. phase "with B": the same on A while tenant B writes its own encounter at the same time;
     B's latency p50/p99,
  4. closes the streams and checks each received every event (no gap, no repeat).
Bounded: every request has a timeout, every phase a fixed number of writes.
"""
import asyncio, http.client, json, os, signal, subprocess, sys, threading, time

def request(conn, method, path, key, body=None):
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {key}"}
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = conn.getresponse()
    data = response.read()
    if response.status >= 300:
        raise SystemExit(f"{method} {path}: {response.status} {data[:200]!r}")
    return json.loads(data) if data else None

def encounter(conn, key, name):
    enc = request(conn, "POST", "/v1/encounters", key, {"ruleset": "spycraft2", "name": name})["id"]
    for n in range(1, 7):
        body = {"name": f"C{n}", "side": f"s{n % 2}", "stats": {"initiative_bonus": n}}
        request(conn, "POST", f"/v1/encounters/{enc}/combatants", key, body)
    request(conn, "POST", f"/v1/encounters/{enc}/initiative", key, {"seed": 1})
    return enc

def writes(host, port, key, enc, count, out):
    conn = http.client.HTTPConnection(host, port, timeout=30)
    latencies = []
    for _ in range(count):
        started = time.perf_counter()
        request(conn, "POST", f"/v1/encounters/{enc}/advance", key, {"to": "next_turn"})
        latencies.append((time.perf_counter() - started) * 1000)
    out.extend(latencies)

def ticks(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])

def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]

async def read_streams(host, port, after, tokens, count):
    """Opens `count` viewer streams after event `after` (Last-Event-ID: no replay); on SIGTERM
    prints each stream's [events received, last id] (counted with bytes.count: a reader in
    Python must stay cheaper than the server it measures)."""
    seen = [[0, after] for _ in range(count)]
    heads = ["not connected"] * count
    async def one(i):
        try:
            await follow(i)
        except Exception as error:  # reported with the counts: a stream that failed to open
            heads[i] = f"{type(error).__name__}: {error}"
    async def follow(i):
        reader, writer = await asyncio.open_connection(host, port)
        heads[i] = "connected"
        token = tokens[i % len(tokens)]
        writer.write(f"GET /view/{token}/stream HTTP/1.1\r\nHost: x\r\nLast-Event-ID: {after}\r\n\r\n".encode())
        await writer.drain()
        tail = b""
        while True:
            chunk = await reader.read(1 << 20)
            if not chunk:
                return
            text = tail + chunk
            if heads[i] == "connected":
                heads[i] = text.split(b"\r\n", 1)[0].decode(errors="replace")
            seen[i][0] += text.count(b"\nid: ") - tail.count(b"\nid: ")
            at = text.rfind(b"\nid: ")
            if at >= 0 and text.find(b"\n", at + 5) > 0:
                seen[i][1] = int(text[at + 5:text.find(b"\n", at + 5)])
            tail = text[-64:]
    tasks = [asyncio.create_task(one(i)) for i in range(count)]
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    print("ready", flush=True)
    await stop.wait()
    for task in tasks:
        task.cancel()
    print(json.dumps({"seen": seen, "heads": heads}), flush=True)

def last_seq(host, port, key, enc):
    conn = http.client.HTTPConnection(host, port, timeout=30)
    after = 0
    while True:
        page = request(conn, "GET", f"/v1/encounters/{enc}/events?after={after}&limit=1000", key)
        events = page["events"] if isinstance(page, dict) else page
        if not events:
            return after
        after = events[-1]["seq"]

def main():
    if sys.argv[1] == "readers":
        host, port, after, count = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
        asyncio.run(read_streams(host, port, after, sys.argv[6:], count))
        return
    base, pid, key_a, key_b = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    counts = [int(c) for c in os.environ.get("VIEWER_COUNTS", "0 64 512").split()]
    n = int(os.environ.get("WRITES", "1000"))
    host, port = base.replace("http://", "").split(":")
    port = int(port)
    conn = http.client.HTTPConnection(host, port, timeout=30)
    enc_a, enc_b = encounter(conn, key_a, "Watched"), encounter(conn, key_b, "Elsewhere")
    tokens = [request(conn, "POST", f"/v1/encounters/{enc_a}/viewers", key_a, {})["token"] for _ in range(32)]
    hz = os.sysconf("SC_CLK_TCK")
    print(f"{'streams':>7} {'cpu/write':>10} {'A p50':>7} {'A p99':>7} {'B p50':>7} {'B p99':>7} {'B alone p50/p99':>15} delivered")
    alone_b = []
    writes(host, port, key_b, enc_b, n, alone_b)
    for count in counts:
        after = last_seq(host, port, key_a, enc_a)
        readers = subprocess.Popen([sys.executable, __file__, "readers", host, str(port), str(after), str(count), *tokens],
                                   stdout=subprocess.PIPE, text=True, preexec_fn=lambda: os.nice(19))
        assert readers.stdout.readline().strip() == "ready"
        time.sleep(1.0 + count / 200)  # the streams open (after the last event: no replay)
        before = ticks(pid)
        lat_a = []
        writes(host, port, key_a, enc_a, n, lat_a)
        cpu_ms = (ticks(pid) - before) * 1000 / hz / n
        lat_a2, lat_b = [], []
        threads = [threading.Thread(target=writes, args=(host, port, key_a, enc_a, n, lat_a2)),
                   threading.Thread(target=writes, args=(host, port, key_b, enc_b, n, lat_b))]
        for t in threads: t.start()
        for t in threads: t.join()
        time.sleep(2.0)  # the last wave reaches every stream (longer on a loaded machine)
        readers.send_signal(signal.SIGTERM)
        out, _ = readers.communicate(timeout=30)
        told = json.loads(out.strip().splitlines()[-1])
        seen, heads = told["seen"], told["heads"]
        final = last_seq(host, port, key_a, enc_a)
        ok = all(events == final - after and last == final for events, last in seen)
        short = [(events, last) for events, last in seen if events != final - after or last != final]
        print(f"{count:>7} {cpu_ms:>8.2f}ms {pct(lat_a, .5):>6.1f}ms {pct(lat_a, .99):>6.1f}ms "
              f"{pct(lat_b, .5):>6.1f}ms {pct(lat_b, .99):>6.1f}ms {pct(alone_b, .5):>6.1f}/{pct(alone_b, .99):.1f}ms "
              f"{'every event once' if ok else 'GAPS/REPEATS'} ({final - after} events per stream)"
              + ("" if ok else f"; {len(short)} streams differ, e.g. {short[:3]} (events, last id)")
              + "; response heads: " + json.dumps({h: heads.count(h) for h in set(heads)}))

if __name__ == "__main__":
    main()
