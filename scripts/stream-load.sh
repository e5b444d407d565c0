#!/usr/bin/env bash
# The cost of live streams: POST advance throughput (wrk -t1 -c32, 5 s each, release build,
# 1 worker) with no stream open, with STREAMS (default 4) `curl -N` streams following the same
# encounter, and with none again; then how many events the first stream received and its last id
# (equal when nothing was skipped or repeated). Needs wrk. Every run and stream is time-bounded.
#
# MODE=viewers: the viewer fan-out instead (issue 30): for 0, 64 and 512 viewer streams
# (VIEWER_COUNTS) on one encounter of tenant A, the server's CPU per write and A's write latency
# (WRITES sequential `POST …/advance`, default 1000), then B's latency (another tenant, another
# encounter) while A writes; each stream must receive every event once (scripts/lib/viewer_fanout.py).
# SKIRMISH_BIN=path runs that binary instead of building the release one.
set -euo pipefail
. "$(dirname "$0")/lib/port.sh"
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ -n "${SKIRMISH_BIN:-}" ]; then
  bin="$SKIRMISH_BIN"  # a binary already built (e.g. two builds compared on one loaded machine)
else
  cargo build --quiet --release --bin skirmish --manifest-path "$root/Cargo.toml"
  bin="${CARGO_TARGET_DIR:-$root/target}/release/skirmish"
fi
if [ "${MODE:-}" = viewers ]; then
  ulimit -n 4096 2>/dev/null || true
  work=$(mktemp -d); port=$(free_port)
  key() { SKIRMISH_DATABASE_URL="$work/s.db" "$bin" keys create --tenant "$1" | sed -n 2p; }
  key_a=$(key a); key_b=$(key b)
  (cd "$work" && exec env SKIRMISH_BIND="127.0.0.1:$port" SKIRMISH_WORKERS=1 RUST_LOG=warn \
    SKIRMISH_DATABASE_URL="$work/s.db" SKIRMISH_RATE_LIMIT_PER_MINUTE=0 SKIRMISH_SSE_MAX_STREAMS=2048 \
    SKIRMISH_SSE_MAX_STREAMS_PER_KEY=2048 SKIRMISH_MAX_CONNECTIONS_PER_PEER=2048 SKIRMISH_MAX_CONNECTIONS=3000 \
    timeout 900 "$bin" >"$work/server.log" 2>&1) &
  server=$!
  trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$work"' EXIT
  for _ in $(seq 1 50); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
  spid=$(pgrep -P $server || echo $server)
  timeout 900 python3 "$root/scripts/lib/viewer_fanout.py" "http://127.0.0.1:$port" "$spid" "$key_a" "$key_b"
  exit 0
fi
command -v wrk >/dev/null || { echo "wrk is not installed: apt-get install wrk" >&2; exit 1; }
work=$(mktemp -d); port=$(free_port); base="http://127.0.0.1:$port"
(cd "$work" && exec env SKIRMISH_BIND="127.0.0.1:$port" SKIRMISH_WORKERS=1 RUST_LOG=warn "$bin" >"$work/server.log" 2>&1) &
server=$!
pids=()
trap 'for p in "${pids[@]}"; do kill $p 2>/dev/null; done; kill $server; wait $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 1 50); do curl -sf "$base/healthz" >/dev/null && break; sleep 0.1; done
J='Content-Type: application/json'
enc=$(curl -sf -X POST "$base/v1/encounters" -H "$J" -d '{"ruleset":"spycraft2","name":"Load"}' | grep -o '"id":"enc_[0-9a-f]*"' | cut -d'"' -f4)
for n in 1 2 3 4 5 6; do curl -sf -X POST "$base/v1/encounters/$enc/combatants" -H "$J" -d "{\"name\":\"C$n\",\"side\":\"s\",\"stats\":{\"initiative_bonus\":$n}}" >/dev/null; done
curl -sf -X POST "$base/v1/encounters/$enc/initiative" -H "$J" -d '{"seed":1}' >/dev/null
cat >"$work/post.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"to":"next_turn"}'
LUA
run() { wrk -t1 -c32 -d5s --latency -s "$work/post.lua" "$base/v1/encounters/$enc/advance" | awk '/Requests\/sec/ {r=$2} $1=="99%" {p=$2} END {print r" req/s p99 "p}'; }
echo "0 streams: $(run)"
for i in $(seq 1 "${STREAMS:-4}"); do timeout 60 curl -sN "$base/v1/encounters/$enc/stream" > "$work/s$i" & pids+=($!); done
sleep 0.5
echo "${STREAMS:-4} streams: $(run)"
sleep 0.3
echo "events received by stream 1: $(grep -c '^id: ' "$work/s1"); its $(grep "^id: " "$work/s1" | tail -1)"
echo "0 streams again: $(for p in "${pids[@]}"; do kill $p 2>/dev/null; done; sleep 0.5; run)"
