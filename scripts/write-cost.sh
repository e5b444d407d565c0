#!/usr/bin/env bash
# Compares the write throughput of two release builds of the service, alternating them REPS
# times (default 3, at most 5): POST /v1/encounters/{id}/advance on a spycraft2 encounter with six
# combatants, `wrk -t1 -c32 -d5s`, one actix worker, rate limit off, a scratch database each run.
# Usage: scripts/write-cost.sh BEFORE_BINARY AFTER_BINARY (e.g. a build of the commit before a
# change, copied aside, and target/release/skirmish). Needs wrk and curl.
# Besides req/s it prints the server's CPU time (user + system) per request during the run: on
# cores shared with other work, throughput swings with their load, CPU time per request far less.
set -uo pipefail
. "$(dirname "$0")/lib/port.sh"
[ $# -eq 2 ] || { echo "usage: $0 BEFORE_BINARY AFTER_BINARY" >&2; exit 2; }
reps="${REPS:-3}"; reps=$(( reps < 1 ? 1 : (reps > 5 ? 5 : reps) ))
. "$(dirname "$0")/lib/encounter.sh"
cpu_ticks() { # pid: its user + system CPU time so far, in clock ticks
  awk '{print $14 + $15}' "/proc/$1/stat"
}
run() { # label binary
  local work port base server enc out
  work=$(mktemp -d); port=$(free_port); base="http://127.0.0.1:$port"
  (cd "$work" && exec env SKIRMISH_BIND="127.0.0.1:$port" SKIRMISH_WORKERS=1 \
    SKIRMISH_RATE_LIMIT_PER_MINUTE=0 RUST_LOG=warn "$2" >"$work/log" 2>&1) &
  server=$!
  for _ in $(seq 1 50); do curl -sf "$base/healthz" >/dev/null && break; sleep 0.1; done
  enc=$(six_combatant_encounter "$base")
  printf 'wrk.method="POST"\nwrk.headers["Content-Type"]="application/json"\nwrk.body="{\\"to\\":\\"next_turn\\"}"\n' \
    >"$work/post.lua"
  local cpu_before; cpu_before=$(cpu_ticks "$server")
  out=$(timeout 20 wrk -t1 -c32 -d5s --latency -s "$work/post.lua" "$base/v1/encounters/$enc/advance")
  local ticks requests; ticks=$(( $(cpu_ticks "$server") - cpu_before ))
  requests=$(awk '/requests in/{print $1}' <<<"$out")
  printf '%-6s POST advance %10s req/s  p99 %-8s cpu %s us/req\n' "$1" \
    "$(awk '/Requests\/sec/{print $2}' <<<"$out")" "$(awk '$1=="99%"{print $2}' <<<"$out")" \
    "$(awk -v t="$ticks" -v n="$requests" -v hz="$(getconf CLK_TCK)" 'BEGIN{printf "%.1f", n ? t*1e6/hz/n : 0}')"
  kill "$server"; wait "$server" 2>/dev/null; rm -rf "$work"
}
for _ in $(seq 1 "$reps"); do
  run before "$(realpath "$1")"
  run after "$(realpath "$2")"
done
