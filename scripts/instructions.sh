#!/usr/bin/env bash
# Instructions the server executes per request (callgrind), for the per-request figures of the
# throughput issue: a count that does not depend on what else the machine is doing, unlike
# requests per second on a shared 2-core VM. Each measure runs its server (the service or the bare
# actix-web baseline from `bench/`) under valgrind, warms it with WARM requests, zeroes the
# counters, sends COUNT requests over one kept-alive connection (curl), and divides the
# instructions counted by COUNT. Prints each figure and its ratio to the baseline (baseline /
# service: 1.0 means as cheap as the bare framework).
#
# Bounded: COUNT (default 1000, at most 5000) requests per measure, 8 measures, each server
# stopped at the end. Usage: scripts/instructions.sh   (SKIRMISH_BIN=path measures another build,
# BARE_ACTIX=path takes an already built baseline)
set -euo pipefail
. "$(dirname "$0")/lib/port.sh"
root="$(cd "$(dirname "$0")/.." && pwd)"
count="${COUNT:-1000}"; count=$(( count < 100 ? 100 : (count > 5000 ? 5000 : count) ))
warm=200
. "$root/scripts/lib/encounter.sh"
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 1; }
# Two builds: `--bin skirmish` in one command would select that binary in every package named.
# BARE_ACTIX=path uses an already built baseline instead (no build at all with SKIRMISH_BIN too).
[ -n "${BARE_ACTIX:-}" ] || cargo build --quiet --release --manifest-path "$root/Cargo.toml" -p skirmish-bench --bins
[ -n "${SKIRMISH_BIN:-}" ] || cargo build --quiet --release --manifest-path "$root/Cargo.toml" -p skirmish-api --bin skirmish
target="${CARGO_TARGET_DIR:-$root/target}/release"
skirmish="${SKIRMISH_BIN:-$target/skirmish}"
bare_actix="${BARE_ACTIX:-$target/bare-actix}"

work="$(mktemp -d)"
server_pid=""
cleanup() { [ -z "$server_pid" ] || kill "$server_pid" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
json='Content-Type: application/json'
port=$(free_port)
base="http://127.0.0.1:$port"

# start_under_callgrind COMMAND...: starts it with callgrind and waits until it answers.
start_under_callgrind() {
  (cd "$work" && exec env SKIRMISH_BIND="127.0.0.1:$port" SKIRMISH_WORKERS=1 RUST_LOG=warn \
    SKIRMISH_DATABASE_URL="$work/skirmish.db" valgrind --tool=callgrind --callgrind-out-file="$work/cg.out.%p" "$@" \
    >"$work/server.log" 2>&1) &
  server_pid=$!
  for _ in $(seq 1 300); do curl -s -o /dev/null "$base/" && return 0; sleep 0.1; done
  echo "the server under valgrind did not answer; log:" >&2; cat "$work/server.log" >&2; exit 1
}
stop() { kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; server_pid=""; }
# requests N METHOD URL [BODY]: N requests over one kept-alive connection.
requests() {
  local n="$1" method="$2" url="$3" body="${4:-}"
  for _ in $(seq 1 "$n"); do
    printf 'next\nurl = "%s"\nrequest = "%s"\noutput = "/dev/null"\n' "$url" "$method"
    if [ -n "$body" ]; then
      printf 'header = "%s"\ndata = "%s"\n' "$json" "$(printf '%s' "$body" | sed 's/\\/\\\\/g; s/"/\\"/g')"
    fi
  done | tail -n +2 >"$work/requests.cfg"
  curl -sSf --no-progress-meter -K "$work/requests.cfg"
}
# per_request METHOD URL [BODY]: instructions per request, counted over COUNT warm requests.
per_request() {
  requests "$warm" "$@"
  callgrind_control -z "$server_pid" >/dev/null 2>&1
  requests "$count" "$@"
  rm -f "$work"/cg.out.*
  callgrind_control -d "$server_pid" >/dev/null 2>&1
  local total
  total=$(cat "$work"/cg.out.* | awk '/^totals:/ {s += $2} END {print s + 0}')
  echo $(( total / count ))
}

dice='{"expression":"4d6kh3+2"}'
attack='{"weapon":{"weapon_type":"rifle","damage_dice":3},"distance_m":20,"cover":"quarter","reaction":"dodge",'
attack+='"overflow_to":"str","attacker":{"str":8,"dex":10,"end":9,"int":7,"edu":7,"soc":8,"skills":{"gun_combat":2}},'
attack+='"target":{"str":8,"dex":9,"end":7,"int":6,"edu":5,"soc":4,"skills":{"gun_combat":1},"armour":2}}'

echo "bare actix-web under callgrind" >&2
start_under_callgrind "$bare_actix" "127.0.0.1:$port"
bare_get=$(per_request GET "$base/")
echo_dice=$(per_request POST "$base/echo" "$dice")
echo_attack=$(per_request POST "$base/echo" "$attack")
stop

echo "skirmish under callgrind" >&2
start_under_callgrind "$skirmish"
encounter=$(six_combatant_encounter "$base")
healthz=$(per_request GET "$base/healthz")
rolled=$(per_request POST "$base/v1/dice/roll" "$dice")
attacked=$(per_request POST "$base/v1/rulesets/cepheus-engine/attacks" "$attack")
got=$(per_request GET "$base/v1/encounters/$encounter")
stop

row() { # LABEL SERVICE BASELINE TARGET
  printf '%-44s %9d %9d   %5.2f   (target %s)\n' "$1" "$2" "$3" "$(echo "$3 / $2" | bc -l)" "$4"
}
echo
echo "instructions per request (callgrind, $count requests after $warm to warm up, one connection)"
printf '%-44s %9s %9s   %5s\n' "measure" "service" "baseline" "ratio"
row "GET /healthz vs bare GET" "$healthz" "$bare_get" "≥ 0.8"
row "POST /v1/dice/roll vs bare POST echo" "$rolled" "$echo_dice" "≥ 0.6"
row "stateless cepheus attack vs bare POST echo" "$attacked" "$echo_attack" "≥ 0.6"
row "GET one encounter (6 combatants) vs bare GET" "$got" "$bare_get" "≥ 0.5"
