#!/usr/bin/env bash
# The throughput benchmark anyone can rerun (issue 13). Builds, in release, the service and two
# baselines from the workspace's `bench` crate — a bare actix-web server (`bare-actix`: GET and
# POST echo) and raw single-row SQLite commits with the service's own pragmas (`raw-sqlite`: WAL,
# synchronous=FULL, 2 KB rows) — then measures each figure against its baseline, alternating
# baseline and service, REPS times, and prints the medians with their ratios.
#
# Everything runs on loopback, one actix worker each, `wrk -t1 -cN -dDURATION`; every run is
# bounded (DURATION seconds, default 5, at most 30; REPS default 3, at most 5). Installs wrk with
# apt-get when it is missing. SKIRMISH_BIN=path measures another build of the service (e.g. an
# older commit's) against the same baselines.
#
# Then the PostgreSQL leg (scripts/bench-postgres.sh, issue 26): replicas on a fresh database of
# the PostgreSQL server at PG_URL against raw commits on that server. PG=0 skips it; to run just
# it: `SQLITE=0 scripts/bench.sh` (or scripts/bench-postgres.sh itself).
set -euo pipefail
. "$(dirname "$0")/lib/port.sh"
. "$(dirname "$0")/lib/bench.sh"
row_label_width=50 row_number_width=9
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ "${SQLITE:-1}" = 0 ]; then exec "$root/scripts/bench-postgres.sh"; fi
duration="${DURATION:-5}"; duration=$(( duration < 1 ? 1 : (duration > 30 ? 30 : duration) ))
reps="${REPS:-3}"; reps=$(( reps < 1 ? 1 : (reps > 5 ? 5 : reps) ))

if ! command -v wrk >/dev/null; then
  echo "installing wrk" >&2
  if [ "$(id -u)" = 0 ]; then apt-get install -y -qq wrk >/dev/null; else sudo apt-get install -y -qq wrk >/dev/null; fi
fi
# Two builds: `--bin skirmish` in one command would select that binary in every package named.
cargo build --quiet --release --manifest-path "$root/Cargo.toml" -p skirmish-bench --bins
[ -n "${SKIRMISH_BIN:-}" ] || cargo build --quiet --release --manifest-path "$root/Cargo.toml" -p skirmish-api --bin skirmish
target="${CARGO_TARGET_DIR:-$root/target}/release"
skirmish="${SKIRMISH_BIN:-$target/skirmish}"

work="$(mktemp -d)"
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

bare_port=$(free_port)
"$target/bare-actix" "127.0.0.1:$bare_port" >"$work/bare.log" 2>&1 &
pids+=($!)
port=$(free_port); while [ "$port" = "$bare_port" ]; do port=$(free_port); done
(cd "$work" && exec env SKIRMISH_BIND="127.0.0.1:$port" SKIRMISH_WORKERS=1 RUST_LOG=warn SKIRMISH_MAX_CONNECTIONS_PER_PEER=256 \
  SKIRMISH_DATABASE_URL="$work/skirmish.db" "$skirmish" >"$work/server.log" 2>&1) &
server_pid=$!
pids+=($server_pid)
bare="http://127.0.0.1:$bare_port"
base="http://127.0.0.1:$port"
wait_for "$bare/"
wait_for "$base/healthz"
rss() { awk '/^VmRSS/ {printf "%.1f MB", $2 / 1024}' "/proc/$server_pid/status"; }
rss_idle=$(rss)

json='Content-Type: application/json'
# posts COUNT URL BODY: COUNT POSTs of BODY from one curl (kept-alive connections, 8 at a time).
posts() {
  local count="$1" url="$2" body="$3"
  for _ in $(seq 1 "$count"); do
    printf 'next\nurl = "%s"\nrequest = "POST"\nheader = "%s"\ndata = %s\noutput = "/dev/null"\n' \
      "$url" "$json" "$(printf '%s' "$body" | sed 's/\\/\\\\/g; s/"/\\"/g; s/^/"/; s/$/"/')"
  done | tail -n +2 >"$work/posts.cfg"
  curl -sSf --no-progress-meter --parallel --parallel-max 8 -K "$work/posts.cfg"
}

# Memory: VmRSS idle, then with 10,000 stored encounters (bounded: one curl, 8 connections).
echo "creating 10,000 encounters" >&2
posts 10000 "$base/v1/encounters" '{"ruleset":"spycraft2","name":"Stored"}'
rss_10k=$(rss)
stored_count=$(curl -sf "$base/v1/encounters?limit=1" | grep -o '"total":[0-9]*' | cut -d: -f2)
encounter=$(curl -sf -X POST "$base/v1/encounters" -H "$json" -d '{"ruleset":"spycraft2","name":"Bench"}' | id_of)
for n in 1 2 3 4 5 6; do
  curl -sf -X POST "$base/v1/encounters/$encounter/combatants" -H "$json" \
    -d "{\"name\":\"C$n\",\"side\":\"s$((n % 2))\",\"stats\":{\"initiative_bonus\":$n}}" >/dev/null
done
curl -sf -X POST "$base/v1/encounters/$encounter/initiative" -H "$json" -d '{"seed":1}' >/dev/null

# The largest encounter: 200 combatants (the cap), initiative rolled.
big=$(curl -sf -X POST "$base/v1/encounters" -H "$json" -d '{"ruleset":"spycraft2","name":"Big"}' | id_of)
for n in $(seq 1 200); do
  printf 'next\nurl = "%s"\nrequest = "POST"\nheader = "%s"\ndata = "{\\"name\\":\\"C%s\\",\\"side\\":\\"s%s\\",\\"stats\\":{\\"initiative_bonus\\":%s}}"\noutput = "/dev/null"\n' \
    "$base/v1/encounters/$big/combatants" "$json" "$n" "$((n % 2))" "$((n % 10))"
done | tail -n +2 >"$work/big.cfg"
curl -sSf -K "$work/big.cfg"
curl -sf -X POST "$base/v1/encounters/$big/initiative" -H "$json" -d '{"seed":1}' >/dev/null

dice='{"expression":"4d6kh3+2"}'
attack='{"weapon":{"weapon_type":"rifle","damage_dice":3},"distance_m":20,"cover":"quarter","reaction":"dodge",'
attack+='"overflow_to":"str","attacker":{"str":8,"dex":10,"end":9,"int":7,"edu":7,"soc":8,"skills":{"gun_combat":2}},'
attack+='"target":{"str":8,"dex":9,"end":7,"int":6,"edu":5,"soc":4,"skills":{"gun_combat":1},"armour":2}}'
create='{"ruleset":"spycraft2","name":"Bench"}'
advance='{"to":"next_turn"}'

cat >"$work/post.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = os.getenv("BODY")
LUA

# wrk NAME CONNECTIONS URL [BODY]: appends "rate p99" to $work/NAME; warns about non-2xx answers.
run_wrk() {
  local name="$1" connections="$2" url="$3" out
  if [ $# -ge 4 ]; then
    out=$(BODY="$4" wrk -t1 -c"$connections" -d"${duration}s" --latency -s "$work/post.lua" "$url")
  else
    out=$(wrk -t1 -c"$connections" -d"${duration}s" --latency "$url")
  fi
  local bad; bad=$(printf '%s\n' "$out" | awk '/Non-2xx/ {print $5}')
  [ -z "$bad" ] || echo "  warning: $name: $bad answers were not 2xx" >&2
  printf '%s %s\n' "$(printf '%s\n' "$out" | awk '/Requests\/sec/ {print $2}')" \
    "$(printf '%s\n' "$out" | awk '$1 == "99%" {print ms($2)} function ms(t) {
      if (t ~ /us$/) return t / 1000; if (t ~ /ms$/) return t + 0; if (t ~ /s$/) return t * 1000; return t }')" \
    >>"$work/$name"
}
run_raw() { # NAME: raw single-row commits for DURATION seconds
  rm -f "$work/raw.db" "$work/raw.db-wal" "$work/raw.db-shm"
  "$target/raw-sqlite" "$work/raw.db" "$duration" | awk '{print $2, $4 + 0}' >>"$work/$1"
}

for rep in $(seq 1 "$reps"); do
  echo "repetition $rep of $reps" >&2
  run_wrk bare_get 32 "$bare/";                 run_wrk healthz 32 "$base/healthz"
  run_wrk bare_dice 32 "$bare/echo" "$dice";    run_wrk dice 32 "$base/v1/dice/roll" "$dice"
  run_wrk bare_attack 32 "$bare/echo" "$attack"
  run_wrk attack 32 "$base/v1/rulesets/cepheus-engine/attacks" "$attack"
  run_wrk bare_get2 32 "$bare/";                run_wrk get 32 "$base/v1/encounters/$encounter"
  run_raw raw
  run_wrk advance32 32 "$base/v1/encounters/$encounter/advance" "$advance"
  run_wrk advance64 64 "$base/v1/encounters/$encounter/advance" "$advance"
  run_wrk advance128 128 "$base/v1/encounters/$encounter/advance" "$advance"
  run_wrk create32 32 "$base/v1/encounters" "$create"
  run_wrk advance200 1 "$base/v1/encounters/$big/advance" "$advance"
done

# Server time of advance at 200 combatants, from the service's own Server-Timing header
# (queue, work in the transaction, durable commit), over 200 sequential requests.
for _ in $(seq 1 200); do
  printf 'next\nurl = "%s"\nrequest = "POST"\nheader = "%s"\ndata = "%s"\noutput = "/dev/null"\n' \
    "$base/v1/encounters/$big/advance" "$json" '{\"to\":\"next_turn\"}'
  printf 'write-out = "server-timing: %%header{server-timing}\\n"\n'
done | tail -n +2 >"$work/timing.cfg"
curl -sSf -K "$work/timing.cfg" >"$work/timing.headers"
timing() { # PART: median and p99 of that part, in ms
  grep -o "$1;dur=[0-9.]*" "$work/timing.headers" | cut -d= -f2 | sort -g |
    awk '{v[NR]=$1} END {if (NR == 0) print "n/a (no Server-Timing header)";
      else printf "median %.3f ms, p99 %.3f ms (%d requests)", v[int((NR+1)/2)], v[int(NR*0.99+0.5)], NR}'
}
rss_end=$(rss)

echo
echo "wrk -t1 -d${duration}s on loopback, release, 1 worker; medians of $reps; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-50s %15s  %-14s %9s  %5s\n' "measure" "service" "" "baseline" "ratio"
row "GET /healthz vs bare GET (-c32)" healthz bare_get
row "POST /v1/dice/roll vs bare POST echo (-c32)" dice bare_dice
row "stateless cepheus attack vs bare echo (-c32)" attack bare_attack
row "GET one encounter vs bare GET (-c32)" get bare_get2
row "POST advance (6 combatants) vs raw commits (-c32)" advance32 raw
row "POST advance -c64 vs raw commits" advance64 raw
row "POST advance -c128 vs raw commits" advance128 raw
row "POST create encounter vs raw commits (-c32)" create32 raw
echo "raw single-row commits (WAL, synchronous=FULL, 2 KB rows): p99 $(median raw 2)ms"
printf '%-50s %9.0f req/s  p99 %7.2f ms (whole request, commit included)\n' \
  "POST advance, 200 combatants, -c1" "$(median advance200 1)" "$(median advance200 2)"
echo "  server time (Server-Timing) work:   $(timing work)"
echo "  server time (Server-Timing) commit: $(timing commit)"
echo "memory (VmRSS): idle $rss_idle; with ${stored_count:-?} stored encounters $rss_10k; after the load runs $rss_end"

if [ "${PG:-1}" != 0 ]; then
  echo
  "$root/scripts/bench-postgres.sh"
fi
