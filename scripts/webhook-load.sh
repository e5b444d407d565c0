#!/usr/bin/env bash
# The cost of webhooks on stored changes: POST advance throughput (wrk -t1 -c32, 5 s each,
# release build, 1 worker, rate limit off) with no subscription, with one subscription wanting
# every event of the encounter (its outbox rows written in each change's transaction, and the
# deliverer posting them to a local receiver answering 204), with one subscription to another
# encounter only (matched and skipped in memory), with one subscription wanting every event
# whose receiver accepts connections but never answers (the outbox rows are written, but the
# deliverer waits on its first request: the cost of the outbox alone), and with none again. Then how many deliveries
# the receiver got and how many were still pending. Needs wrk, curl, python3. Bounded in time.
set -euo pipefail
. "$(dirname "$0")/lib/port.sh"
root="$(cd "$(dirname "$0")/.." && pwd)"
command -v wrk >/dev/null || { echo "wrk is not installed: apt-get install wrk" >&2; exit 1; }
cargo build --quiet --release --bin skirmish --manifest-path "$root/Cargo.toml"
bin="${CARGO_TARGET_DIR:-$root/target}/release/skirmish"
work=$(mktemp -d); port=$(free_port); rport=$((port + 1)); base="http://127.0.0.1:$port"
cat >"$work/receiver.py" <<'PY'
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
class Hook(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_POST(self):
        self.rfile.read(int(self.headers.get("content-length", 0)))
        self.send_response(204); self.send_header("Content-Length", "0"); self.end_headers()
        print(self.headers.get("webhook-id"), flush=True)
    def log_message(self, *args): pass
ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Hook).serve_forever()
PY
timeout 300 python3 "$work/receiver.py" "$rport" >"$work/received" 2>/dev/null &
receiver=$!
bport=$((port + 2))
timeout 300 python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(1024); time.sleep(300)' "$bport" &
blackhole=$!
(cd "$work" && exec timeout 300 env SKIRMISH_BIND="127.0.0.1:$port" SKIRMISH_WORKERS=1 SKIRMISH_RATE_LIMIT_PER_MINUTE=0 \
  SKIRMISH_WEBHOOKS_ALLOW_PRIVATE=true RUST_LOG=warn "$bin" >"$work/server.log" 2>&1) &
server=$!
trap 'kill $server $receiver $blackhole 2>/dev/null; wait $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 1 50); do curl -sf "$base/healthz" >/dev/null && break; sleep 0.1; done
J='Content-Type: application/json'
new_encounter() {
  local enc
  enc=$(curl -sf -X POST "$base/v1/encounters" -H "$J" -d '{"ruleset":"spycraft2","name":"Load"}' | grep -o '"id":"enc_[0-9a-f]*"' | cut -d'"' -f4)
  for n in 1 2 3 4 5 6; do curl -sf -X POST "$base/v1/encounters/$enc/combatants" -H "$J" -d "{\"name\":\"C$n\",\"side\":\"s\",\"stats\":{\"initiative_bonus\":$n}}" >/dev/null; done
  curl -sf -X POST "$base/v1/encounters/$enc/initiative" -H "$J" -d '{"seed":1}' >/dev/null
  echo "$enc"
}
enc=$(new_encounter); other=$(new_encounter)
printf 'wrk.method="POST"\nwrk.headers["Content-Type"]="application/json"\nwrk.body="{\\"to\\":\\"next_turn\\"}"\n' >"$work/post.lua"
run() { timeout 20 wrk -t1 -c32 -d5s --latency -s "$work/post.lua" "$base/v1/encounters/$enc/advance" | awk '/Requests\/sec/ {r=$2} $1=="99%" {p=$2} END {print r" req/s p99 "p}'; }
hook_id() { grep -o '"id":"wh_[0-9a-f]*"' | cut -d'"' -f4; }
echo "no subscription:                 $(run)"
hook=$(curl -sf -X POST "$base/v1/webhooks" -H "$J" -d "{\"url\":\"http://127.0.0.1:$rport/hook\",\"encounter_id\":\"$enc\"}" | hook_id)
echo "1 subscription, every event:     $(run)"
sleep 2
echo "  deliveries received: $(wc -l <"$work/received") 2 s after the run, of $(curl -sf "$base/v1/encounters/$enc/events?limit=1" >/dev/null; curl -sf "$base/v1/encounters/$enc" | grep -o '"version":[0-9]*' | cut -d: -f2) changes so far"
curl -sf -X DELETE "$base/v1/webhooks/$hook" >/dev/null
hook=$(curl -sf -X POST "$base/v1/webhooks" -H "$J" -d "{\"url\":\"http://127.0.0.1:$rport/hook\",\"encounter_id\":\"$other\"}" | hook_id)
echo "1 subscription, other encounter: $(run)"
curl -sf -X DELETE "$base/v1/webhooks/$hook" >/dev/null
hook=$(curl -sf -X POST "$base/v1/webhooks" -H "$J" -d "{\"url\":\"http://127.0.0.1:$bport/hook\",\"encounter_id\":\"$enc\"}" | hook_id)
echo "1 subscription, never answered:  $(run)"
curl -sf -X DELETE "$base/v1/webhooks/$hook" >/dev/null
echo "no subscription again:           $(run)"
