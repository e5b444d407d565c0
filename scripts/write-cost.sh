#!/usr/bin/env bash
# Compares the write throughput of two release builds of the service, alternating them REPS
# times (default 3, at most 5): POST /v1/encounters/{id}/advance on a spycraft2 encounter with six
# combatants, `wrk -t1 -c32 -d5s`, one actix worker, rate limit off, a scratch database each run.
# Usage: scripts/write-cost.sh BEFORE_BINARY AFTER_BINARY (e.g. a build of the commit before a
# change, copied aside, and target/release/skirmish). Needs wrk and curl.
set -uo pipefail
[ $# -eq 2 ] || { echo "usage: $0 BEFORE_BINARY AFTER_BINARY" >&2; exit 2; }
reps="${REPS:-3}"; reps=$(( reps < 1 ? 1 : (reps > 5 ? 5 : reps) ))
J='Content-Type: application/json'
run() { # label binary
  local work port base server enc out
  work=$(mktemp -d); port=$((20000 + RANDOM % 20000)); base="http://127.0.0.1:$port"
  (cd "$work" && exec env SKIRMISH_BIND="127.0.0.1:$port" SKIRMISH_WORKERS=1 \
    SKIRMISH_RATE_LIMIT_PER_MINUTE=0 RUST_LOG=warn "$2" >"$work/log" 2>&1) &
  server=$!
  for _ in $(seq 1 50); do curl -sf "$base/healthz" >/dev/null && break; sleep 0.1; done
  enc=$(curl -sf -X POST "$base/v1/encounters" -H "$J" -d '{"ruleset":"spycraft2","name":"Load"}' \
    | grep -o '"id":"enc_[0-9a-f]*"' | cut -d'"' -f4)
  for n in 1 2 3 4 5 6; do
    curl -sf -X POST "$base/v1/encounters/$enc/combatants" -H "$J" \
      -d "{\"name\":\"C$n\",\"side\":\"s\",\"stats\":{\"initiative_bonus\":$n}}" >/dev/null
  done
  curl -sf -X POST "$base/v1/encounters/$enc/initiative" -H "$J" -d '{"seed":1}' >/dev/null
  printf 'wrk.method="POST"\nwrk.headers["Content-Type"]="application/json"\nwrk.body="{\\"to\\":\\"next_turn\\"}"\n' \
    >"$work/post.lua"
  out=$(timeout 20 wrk -t1 -c32 -d5s --latency -s "$work/post.lua" "$base/v1/encounters/$enc/advance")
  printf '%-6s POST advance %10s req/s  p99 %s\n' "$1" \
    "$(awk '/Requests\/sec/{print $2}' <<<"$out")" "$(awk '$1=="99%"{print $2}' <<<"$out")"
  kill "$server"; wait "$server" 2>/dev/null; rm -rf "$work"
}
for _ in $(seq 1 "$reps"); do
  run before "$(realpath "$1")"
  run after "$(realpath "$2")"
done
