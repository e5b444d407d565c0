#!/usr/bin/env python3
"""Hostile run (issue 30): attacks on each numbered item against a running `skirmish` in keyed
mode, bounded in count and time. Prints, per item, requests sent, 5xx answers and invariant
breaks, then the totals; exits non-zero on any 5xx or break. Driven by scripts/hostile.sh.

    hostile.py BASE KEY_A KEY_B BIN DB LOG
"""
import http.client, json, os, random, socket, subprocess, sys, threading, time

BASE, KEY_A, KEY_B, BIN, DB, LOG = sys.argv[1:7]
HOST, PORT = BASE.replace("http://", "").split(":")
PORT = int(PORT)
random.seed(int(os.environ.get("SEED", "30")))
totals = {"requests": 0, "5xx": 0, "breaks": 0}
rows = []


class Item:
    def __init__(self, name):
        self.name, self.requests, self.errors, self.breaks, self.notes = name, 0, 0, [], []

    def send(self, method, path, body=None, key=KEY_A, headers=None, raw=None):
        conn = http.client.HTTPConnection(HOST, PORT, timeout=30)
        h = {"Content-Type": "application/json"}
        if key:
            h["Authorization"] = f"Bearer {key}"
        h.update(headers or {})
        data = raw if raw is not None else (json.dumps(body) if body is not None else None)
        conn.putrequest(method, path, skip_accept_encoding=True)
        for name, value in list(h.items()) + ([("Content-Length", str(len(data)))] if data else []):
            for one in value if isinstance(value, list) else [value]:
                conn.putheader(name, one)
        conn.endheaders(data.encode() if isinstance(data, str) else data)
        response = conn.getresponse()
        text = response.read()
        conn.close()
        self.requests += 1
        if response.status >= 500:
            self.errors += 1
            self.notes.append(f"{response.status} {method} {path}")
        try:
            return response.status, json.loads(text) if text else None
        except ValueError:
            return response.status, text.decode(errors="replace")

    def expect(self, ok, what):
        if not ok:
            self.breaks.append(what)

    def done(self):
        rows.append((self.name, self.requests, self.errors, len(self.breaks), self.breaks[:3] + self.notes[:3]))
        totals["requests"] += self.requests
        totals["5xx"] += self.errors
        totals["breaks"] += len(self.breaks)


def encounter(item, ruleset, combatants, key=KEY_A):
    _, enc = item.send("POST", "/v1/encounters", {"ruleset": ruleset, "name": "Hostile"}, key)
    ids = []
    for name, stats in combatants:
        status, c = item.send("POST", f"/v1/encounters/{enc['id']}/combatants", {"name": name, "side": name, "stats": stats}, key)
        if status != 201:
            raise SystemExit(f"cannot add {name}: {status} {c}")
        ids.append(c["combatant"]["id"])
    return enc["id"], ids


def rss_kb(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def item1(pid):
    """A receiver answering 429 with an endless body: the server's memory stays put."""
    item = Item("1 webhook 429 with an endless body")
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    sent = []
    def serve():
        listener.settimeout(20)
        for _ in range(3):
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            conn.recv(65536)
            conn.sendall(b"HTTP/1.1 429 Too Many Requests\r\nRetry-After: 1\r\nTransfer-Encoding: chunked\r\n\r\n")
            chunk = b"%x\r\n" % 65536 + b"x" * 65536 + b"\r\n"
            n = 0
            try:
                while n < (512 << 20):
                    conn.sendall(chunk)
                    n += 65536
            except OSError:
                pass
            sent.append(n)
            conn.close()
    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    before = rss_kb(pid)
    item.send("POST", "/v1/webhooks", {"url": f"http://127.0.0.1:{listener.getsockname()[1]}/hook"})
    encounter(item, "arrgs", [])
    thread.join(25)
    after = rss_kb(pid)
    item.expect(all(n < (64 << 20) for n in sent) and sent, f"bytes the server let the receiver send: {sent}")
    item.expect(after - before < 64 * 1024, f"RSS grew {before} → {after} kB")
    item.notes.append(f"receiver sent {[n >> 20 for n in sent]} MiB; RSS {before // 1024} → {after // 1024} MB")
    item.done()


def item2():
    """240 pipelining connections from 4 addresses that never read; /healthz from a fifth answers."""
    item = Item("2 slow readers (240 conns, 4 addresses)")
    request = b"GET /openapi.json HTTP/1.1\r\nHost: x\r\n\r\n" * 8
    held = []
    for n in range(240):
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.bind((f"127.0.0.{2 + n % 4}", 0))
        try:
            s.connect((HOST, PORT))
            s.setblocking(False)
            try:
                s.send(request)
            except OSError:
                pass
            held.append(s)
        except OSError:
            s.close()
    time.sleep(1)
    fails = 0
    for _ in range(20):
        s = socket.create_connection((HOST, PORT), timeout=5, source_address=("127.0.0.9", 0))
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        answer = s.recv(64)
        s.close()
        item.requests += 1
        fails += not answer.startswith(b"HTTP/1.1 200")
    item.expect(fails == 0, f"{fails}/20 health checks from another address failed while 240 were held")
    time.sleep(float(os.environ.get("WRITE_TIMEOUT_S", "2")) + 1.5)
    s = socket.create_connection((HOST, PORT), timeout=5, source_address=("127.0.0.2", 0))
    s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    answer = s.recv(64)
    item.requests += 1
    item.expect(answer.startswith(b"HTTP/1.1 200"), f"a greedy address after the write timeout: {answer!r}")
    for s in held:
        s.close()
    item.notes.append(f"{len(held)} connections held")
    item.done()


def item3():
    """Streams of a key revoked from another process end (within 5 s; about 1 s is expected)."""
    item = Item("3 streams of a revoked key")
    out = subprocess.run([BIN, "keys", "create", "--tenant", "a"], env={**os.environ, "SKIRMISH_DATABASE_URL": DB},
                         capture_output=True, text=True, check=True).stdout.splitlines()
    key_id, secret = out[0].split()[1], out[1]
    enc, _ = encounter(item, "lur-asko", [("X", {})], key=secret)
    streams = []
    for _ in range(10):
        s = socket.create_connection((HOST, PORT), timeout=10)
        s.sendall(f"GET /v1/encounters/{enc}/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {secret}\r\n\r\n".encode())
        streams.append((s, s.recv(4096)))
    item.requests += 10
    subprocess.run([BIN, "keys", "revoke", key_id], env={**os.environ, "SKIRMISH_DATABASE_URL": DB}, check=True, capture_output=True)
    started, open_, ended_after = time.time(), 0, []
    for s, seen in streams:
        try:
            while not seen.endswith(b"\r\n0\r\n\r\n"):
                s.settimeout(max(0.1, 5 - (time.time() - started)))
                chunk = s.recv(65536)
                if not chunk:
                    break
                seen += chunk
            ended_after.append(time.time() - started)
        except OSError:
            open_ += 1
        s.close()
    item.notes.append(f"all ended within {max(ended_after, default=0):.2f} s of the revoke")
    item.expect(open_ == 0, f"{open_}/10 streams still open 5 s after the revoke")
    status, _ = item.send("GET", f"/v1/encounters/{enc}", key=secret)
    item.expect(status == 401, f"the revoked key read: {status}")
    item.done()


def item4_5(token, secret_part):
    """Percent-encoded spellings of every /v1 prefix and the view path, without a key."""
    item = Item("4/5 encoded paths, no key; tokens in the log")
    spellings = ["/%76%31/", "/%761/", "/v%31/", "/%56%31/", "/v1%2F", "/%2576%31/", "//v1/", "/./v1/", "/v1/./",
                 "/%76%31%2F", "/v1/%2e/", "/%76%31/%65ncounters/"]
    tails = ["dice/roll", "encounters", "webhooks", "rulesets", "rulesets/arrgs/damage"]
    for prefix in spellings:
        for tail in tails:
            for method in ["GET", "POST"]:
                status, _ = item.send(method, prefix + tail, {"expression": "1d6"} if method == "POST" else None, key=None)
                item.expect(status in (401, 404, 405, 400), f"{method} {prefix}{tail} without a key: {status}")
    documented = ["/v1/dice/roll", "/v1/encounters", "/v1/webhooks", "/v1/rulesets", "/v1/encounters/enc_x/advance",
                  "/v1/rulesets/cepheus-engine/attacks", "/v1/encounters/enc_x/stream", "/v1/webhooks/wh_x/deliveries"]
    def encoded(path):
        return "".join(c if c == "/" or random.random() < 0.5 else random.choice(["%%%02X", "%%%02x"]) % ord(c) for c in path)
    for _ in range(int(os.environ.get("ENCODED_PATHS", "1000"))):
        path, method = encoded(random.choice(documented)), random.choice(["GET", "POST", "DELETE", "PATCH"])
        status, _ = item.send(method, path, {} if method in ("POST", "PATCH") else None, key=None)
        item.expect(status == 401, f"{method} {path} without a key: {status}")
    views = [encoded(f"/view/{token}") + tail for tail in ["", "/encounter"] for _ in range(150)]
    for path in [f"/%76iew/{token}", f"/%76iew/{token}/encounter", f"/view%2F{token}", f"/v%69ew/{token}/stream?x={token}",
                 f"/view/{token}/..%2Fencounter", f"/%2576iew/{token}"] + views:
        conn = http.client.HTTPConnection(HOST, PORT, timeout=5)
        conn.request("GET", path)
        try:
            response = conn.getresponse()
            if "stream" not in path:
                response.read()
            item.requests += 1
            if response.status >= 500:
                item.errors += 1
        except OSError:
            pass
        conn.close()
    time.sleep(0.5)
    leaked = open(LOG, errors="replace").read().count(secret_part)
    item.expect(leaked == 0, f"the viewer token appears {leaked} times in the log")
    item.done()


def item6_7():
    item = Item("6/7 the dead and stored bounds")
    enc, (troll,) = encounter(item, "arrgs", [("Troll", {"agility": 8, "vitality": 30})])
    codes = [item.send("POST", f"/v1/encounters/{enc}/arrgs/damage", {"target_id": troll, "amount": 1000})[0] for _ in range(40)]
    for change in [{"type": "staggered", "applications": 2}, {"type": "dying", "applications": 3}, {"type": "prone", "on": True},
                   {"type": "revitalise", "amount": 10000}]:
        codes.append(item.send("POST", f"/v1/encounters/{enc}/arrgs/conditions", {"combatant_id": troll, "change": change})[0])
    _, read = item.send("GET", f"/v1/encounters/{enc}")
    lost = read["combatants"][0]["state"]["vitality_lost"]
    item.expect(codes[0] == 200 and all(c == 422 for c in codes[1:]), f"after death: {sorted(set(codes[1:]))}")
    item.expect(-10000 <= lost <= 20000, f"vitality_lost {lost}")
    frost = {"source": "x", "against": {"energy": "frost"}, "percent": 1000}
    enc, (frozen, raider) = encounter(item, "lur-asko", [("Frozen", {"injury_factor": 1, "resistances": [frost] * 20}), ("Raider", {"injury_factor": 10})])
    item.send("POST", f"/v1/encounters/{enc}/initiative", {"fixed": [{"combatant_id": raider, "value": 12}, {"combatant_id": frozen, "value": 1}]})
    item.send("POST", f"/v1/encounters/{enc}/advance", {"to": "next_turn"})
    attack = {"attacker_id": raider, "target_id": frozen, "defense": {"defense": "hit"},
              "attack": {"weapons": [{"name": "L", "delivery": "ranged", "energy": {"type": "frost", "damage": 1000}}], "injury_type": "T"}}
    for _ in range(5):
        item.send("POST", f"/v1/encounters/{enc}/lur-asko/attacks", attack)
    _, read = item.send("GET", f"/v1/encounters/{enc}")
    state = [c for c in read["combatants"] if c["id"] == frozen][0]["state"]
    item.expect(state["damage_taken"] <= 1_000_000 and state["fatigue"] <= 25_000_000, f"lur-asko state {state['damage_taken']} {state['fatigue']}")
    item.done()


def item8():
    item = Item("8 whole floats as seeds")
    for _ in range(int(os.environ.get("SEEDS", "1000"))):
        seed = random.randrange(0, 1 << 53)
        status, body = item.send("POST", "/v1/dice/roll", raw=f'{{"expression":"2d20","seed":{seed}.0}}')
        item.expect(status == 200 and body["seed"] == seed, f"seed {seed}.0 → {status} {body if status != 200 else body['seed']}")
    status, _ = item.send("POST", "/v1/dice/roll", raw='{"expression":"1d6","seed":18014398509481984.0}')
    item.expect(status == 400, f"2^54.0: {status}")
    item.done()


def item9():
    global HOST, PORT
    strict = os.environ["STRICT_BASE"].replace("http://", "").split(":")
    HOST, PORT, saved = strict[0], int(strict[1]), (HOST, PORT)
    item = Item("9 webhook destinations")
    hosts = ["[64:ff9b::7f00:1]", "[64:ff9b::a00:1]", "[64:ff9b::a9fe:a9fe]", "[64:ff9b:1::808:808]", "[::127.0.0.1]", "[::a00:1]",
             "[::ffff:127.0.0.1]", "[::ffff:a9fe:a9fe]", "[2002:7f00:1::]", "[2002:a9fe:a9fe::1]", "[2002:c0a8:1::]", "[fec0::1]",
             "[fe80::1]", "[fc00::1]", "[fd00::1]", "[::1]", "[::]", "[ff02::1]", "[2001:db8::1]", "[2001::1]", "[100::1]",
             "[::ffff:0:7f00:1]", "127.0.0.1", "127.1", "0x7f000001", "2130706433", "017700000001", "0.0.0.0", "0",
             "10.0.0.1", "172.16.0.1", "192.168.0.1", "169.254.169.254", "100.64.0.1", "192.0.0.170", "192.0.2.1",
             "198.18.0.1", "198.19.255.255", "198.51.100.1", "203.0.113.1", "240.0.0.1", "255.255.255.255", "224.0.0.1",
             "localhost", "127.0.0.1.nip.io.invalid", "[0:0:0:0:0:ffff:7f00:1]", "[64:ff9b::127.0.0.1]"]
    for host in hosts:
        status, _ = item.send("POST", "/v1/webhooks", {"url": f"http://{host}/hook"}, key=KEY_B)
        item.expect(status == 422, f"{host}: {status}")
    item.done()
    HOST, PORT = saved


def item10():
    item = Item("10 Content-Encoding")
    for values in [["identity", "gzip"], ["gzip"], ["identity, br"], ["identity", "identity", "deflate"], ["x-gzip"], ["IDENTITY", "zstd"]]:
        status, _ = item.send("POST", "/v1/dice/roll", {"expression": "1d6"}, headers={"Content-Encoding": values})
        item.expect(status == 415, f"{values}: {status}")
    item.done()


def main():
    pid = int(os.environ["SERVER_PID"])
    setup = Item("setup")
    enc, _ = encounter(setup, "arrgs", [("Viewer", {"agility": 8})])
    _, link = setup.send("POST", f"/v1/encounters/{enc}/viewers", {})
    setup.done()
    deadline = time.time() + 600
    runs = {"1": lambda: item1(pid), "2": item2, "3": item3, "4": lambda: item4_5(link["token"], link["token"][4:]),
            "6": item6_7, "8": item8, "9": item9, "10": item10}
    for number in os.environ.get("ITEMS", "1 2 3 4 6 8 9 10").split():
        if time.time() < deadline:
            runs[number]()
    width = max(len(r[0]) for r in rows)
    print(f"{'item':<{width}} requests 5xx breaks  notes")
    for name, requests, errors, breaks, notes in rows:
        print(f"{name:<{width}} {requests:>8} {errors:>3} {breaks:>6}  {'; '.join(notes)}")
    print(f"{'total':<{width}} {totals['requests']:>8} {totals['5xx']:>3} {totals['breaks']:>6}")
    sys.exit(1 if totals["5xx"] or totals["breaks"] else 0)


if __name__ == "__main__":
    main()
