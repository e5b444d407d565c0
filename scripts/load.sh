#!/usr/bin/env bash
# HTTP load figures on loopback, as ratios against GET /healthz measured in the same run.
# Needs wrk (apt-get install wrk). Each run is bounded: DURATION seconds (default 5), 1 thread,
# CONNECTIONS connections (default 32), against a release build on a scratch database.
set -euo pipefail
. "$(dirname "$0")/lib/port.sh"
root="$(cd "$(dirname "$0")/.." && pwd)"
duration="${DURATION:-5}"
connections="${CONNECTIONS:-32}"
command -v wrk >/dev/null || { echo "wrk is not installed: apt-get install wrk" >&2; exit 1; }
cargo build --quiet --release --bin skirmish --manifest-path "$root/Cargo.toml"
work="$(mktemp -d)"
port=$(free_port)
base="http://127.0.0.1:$port"
(cd "$work" && exec env SKIRMISH_BIND="127.0.0.1:$port" SKIRMISH_WORKERS=1 RUST_LOG=warn \
  "${CARGO_TARGET_DIR:-$root/target}/release/skirmish" >"$work/server.log" 2>&1) &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 1 50); do curl -sf "$base/healthz" >/dev/null && break; sleep 0.1; done

json='Content-Type: application/json'
encounter=$(curl -sf -X POST "$base/v1/encounters" -H "$json" -d '{"ruleset":"spycraft2","name":"Load"}' \
  | grep -o '"id":"enc_[0-9a-f]*"' | cut -d'"' -f4)
for n in 1 2 3 4 5 6; do
  curl -sf -X POST "$base/v1/encounters/$encounter/combatants" -H "$json" \
    -d "{\"name\":\"C$n\",\"side\":\"s\",\"stats\":{\"initiative_bonus\":$n}}" >/dev/null
done
curl -sf -X POST "$base/v1/encounters/$encounter/initiative" -H "$json" -d '{"seed":1}' >/dev/null

cat >"$work/post.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = os.getenv("BODY")
LUA

baseline=""
measure() { # name, url, [body]
  local out rps p99
  if [ $# -ge 3 ]; then
    out=$(BODY="$3" wrk -t1 -c"$connections" -d"${duration}s" --latency -s "$work/post.lua" "$2")
  else
    out=$(wrk -t1 -c"$connections" -d"${duration}s" --latency "$2")
  fi
  rps=$(printf '%s\n' "$out" | awk '/Requests\/sec/ {print $2}')
  p99=$(printf '%s\n' "$out" | awk '$1 == "99%" {print $2}')
  [ -n "$baseline" ] || baseline="$rps"
  printf '%-36s %10s req/s  p99 %-8s %5.3f x baseline\n' "$1" "$rps" "$p99" "$(echo "$rps / $baseline" | bc -l)"
}

echo "wrk -t1 -c$connections -d${duration}s, release build, 1 worker"
measure "baseline: GET /healthz" "$base/healthz"
measure "GET /v1/encounters/{id}" "$base/v1/encounters/$encounter"
measure "POST /v1/dice/roll 4d6kh3+2" "$base/v1/dice/roll" '{"expression":"4d6kh3+2"}'
measure "POST /v1/encounters/{id}/advance" "$base/v1/encounters/$encounter/advance" '{"to":"next_turn"}'
