#!/usr/bin/env bash
# Instructions per stored write of a release build, counted by valgrind's callgrind (user space
# only, and unlike req/s nearly unmoved by other work on the machine): POST
# /v1/encounters/{id}/advance on a spycraft2 encounter with six combatants, `wrk -t1 -c1 -d8s`
# (one request at a time, so group commit never batches), one actix worker, counting reset after
# the setup. Usage: scripts/write-instructions.sh BINARY... (prints one line per binary: requests,
# instructions per request in the whole process, and inside the writer — the inclusive cost of
# the writer thread's `Shared::drain` in db/src/store/writer.rs (before it had a thread of its
# own: `Writer::write`): the change in its savepoint and the commit, the part that caps stored
# throughput since the writer runs one change at a time). A fat-LTO build (the release profile)
# inlines that function, shown as `inlined?`: for that column measure builds
# made with CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16.
# Needs valgrind (callgrind_annotate), wrk and curl.
set -uo pipefail
. "$(dirname "$0")/lib/port.sh"
[ $# -ge 1 ] || { echo "usage: $0 BINARY..." >&2; exit 2; }
. "$(dirname "$0")/lib/encounter.sh"
count() { # binary
  local work port base server vpid out n ir locked file in_writer
  work=$(mktemp -d); port=$(free_port); base="http://127.0.0.1:$port"
  (cd "$work" && exec env SKIRMISH_BIND="127.0.0.1:$port" SKIRMISH_WORKERS=1 \
    SKIRMISH_RATE_LIMIT_PER_MINUTE=0 RUST_LOG=warn \
    timeout 120 valgrind --tool=callgrind --callgrind-out-file="$work/cg.%p" "$1" >"$work/log" 2>&1) &
  server=$!
  for _ in $(seq 1 300); do curl -sf "$base/healthz" >/dev/null && break; sleep 0.2; done
  enc=$(six_combatant_encounter "$base")
  printf 'wrk.method="POST"\nwrk.headers["Content-Type"]="application/json"\nwrk.body="{\\"to\\":\\"next_turn\\"}"\n' \
    >"$work/post.lua"
  vpid=$(pgrep -P "$server" | head -1) # valgrind, started by `timeout`
  callgrind_control -z "$vpid" >/dev/null 2>&1
  out=$(timeout 30 wrk -t1 -c1 -d8s -s "$work/post.lua" "$base/v1/encounters/$enc/advance")
  callgrind_control -d "$vpid" >/dev/null 2>&1
  for _ in $(seq 1 50); do ls "$work"/cg.*.* >/dev/null 2>&1 && break; sleep 0.2; done
  sleep 1
  n=$(awk '/requests in/{print $1}' <<<"$out")
  n=${n:-0}
  file=$(ls "$work"/cg.*.* 2>/dev/null | head -1)
  ir=$(awk '/^summary:/{s += $2} END {print s + 0}' "$file" 2>/dev/null)
  locked=$(callgrind_annotate --inclusive=yes "$file" 2>/dev/null |
    awk '/skirmish_db::store::writer::(Shared::drain|Writer::write) /{gsub(",", "", $1); print $1; exit}')
  in_writer="inlined?"
  [ -n "$locked" ] && [ "$n" -gt 0 ] && in_writer=$(( locked / n ))
  printf '%-50s %6s requests  %9s instructions/request  %9s in the writer\n' "$1" "$n" \
    "$(( n > 0 ? ${ir:-0} / n : 0 ))" "$in_writer"
  kill "$vpid" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$work"
}
for binary in "$@"; do count "$(realpath "$binary")"; done
