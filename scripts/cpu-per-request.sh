#!/usr/bin/env bash
# Server CPU time per request (user + system, from /proc), a steadier measure than req/s on a
# shared machine: starts BIN (one worker, a fresh database in a temporary directory, stopped
# after 120 s at most), makes an encounter with 6 combatants, then for each PATH runs wrk
# (-t1 -c32, 1 s warm-up, 3 s measured) and prints the µs of CPU per request. `ENC` in a path
# stands for that encounter's id. Used to measure what the metrics cost (docs/metrics.md):
#   scripts/cpu-per-request.sh target/release/skirmish 38080 /healthz /v1/encounters/ENC
#   SKIRMISH_METRICS=off scripts/cpu-per-request.sh target/release/skirmish 38080 /healthz
set -euo pipefail
bin="$1"; port="$2"; shift 2
work=$(mktemp -d)
(cd "$work" && exec env SKIRMISH_BIND="127.0.0.1:$port" SKIRMISH_WORKERS=1 RUST_LOG=warn SKIRMISH_MAX_CONNECTIONS_PER_PEER=256 SKIRMISH_DATABASE_URL="$work/s.db" timeout 120 "$bin" >/dev/null 2>&1) &
pid=$!
for _ in $(seq 1 50); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
spid=$(pgrep -P $pid || echo $pid); [ -r /proc/$spid/stat ] || spid=$pid
enc=$(curl -sf -X POST "http://127.0.0.1:$port/v1/encounters" -H 'Content-Type: application/json' -d '{"ruleset":"spycraft2","name":"B"}' | grep -o '"id":"enc_[0-9a-f]*"' | head -1 | cut -d'"' -f4)
for n in 1 2 3 4 5 6; do curl -sf -X POST "http://127.0.0.1:$port/v1/encounters/$enc/combatants" -H 'Content-Type: application/json' -d "{\"name\":\"C$n\",\"side\":\"s$((n % 2))\",\"stats\":{\"initiative_bonus\":$n}}" >/dev/null; done
curl -sf -X POST "http://127.0.0.1:$port/v1/encounters/$enc/initiative" -H 'Content-Type: application/json' -d '{"seed":1}' >/dev/null
ticks() { awk '{print $14 + $15}' /proc/$spid/stat; }
hz=$(getconf CLK_TCK)
for path in "$@"; do
  path=${path//ENC/$enc}
  wrk -t1 -c32 -d1s "http://127.0.0.1:$port$path" >/dev/null
  t0=$(ticks)
  out=$(wrk -t1 -c32 -d3s "http://127.0.0.1:$port$path")
  t1=$(ticks)
  reqs=$(printf '%s\n' "$out" | awk '/requests in/ {print $1}')
  echo "$path cpu_us_per_req $(echo "($t1 - $t0) * 1000000 / $hz / $reqs" | bc -l | cut -c1-6) reqs $reqs"
done
kill $pid 2>/dev/null; wait $pid 2>/dev/null || true
rm -rf "$work"
