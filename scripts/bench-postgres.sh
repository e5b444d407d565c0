#!/usr/bin/env bash
# The PostgreSQL leg of the benchmark (issue 26), against a baseline measured in the same run on
# the same PostgreSQL server: raw single-row commits (`raw-postgres`: BEGIN; INSERT 2 KB; COMMIT,
# on 32 connections at once, the same concurrency as wrk's -c32). Run by scripts/bench.sh (skip
# it there with PG=0); to run just this leg: `scripts/bench-postgres.sh` (or
# `SQLITE=0 scripts/bench.sh`).
#
# Every skirmish process is a real replica (`SKIRMISH_DATABASE_URL=postgres://…`, one actix
# worker) on a database of its own configuration, created fresh for this run on the server at
# PG_URL (default postgres://postgres@127.0.0.1:5432, through its `postgres` database) and
# dropped at the end, whatever happens. Configurations, all up at once and measured in turn,
# REPS times (alternating, so a change in the machine's load hits each alike):
#   one replica with one writer connection (SKIRMISH_PG_WRITERS=1: the store before its writer
#   pool), one replica with the default pool, three replicas with the default pool.
# Load: POST advance at -c32 spread round-robin over ENCOUNTERS encounters (default 16, as a
# real deployment has many tables at once), and all of it on one hot encounter; with three
# replicas one wrk per replica (-c11/-c11/-c10, run together: rates summed, p99 the worst).
# Then write-to-stream delivery across replicas (`sse-delivery`: advance on replica 1, the
# event stream on replica 2, commit-ack to arrival), quiet and under the spread load.
#
# Bounded: wrk -dDURATION (default 5 s, at most 30), REPS (default 3, at most 5), the delivery
# probe at most 200 writes / 30 s quiet and DURATION under load. Needs psql, wrk and curl.
set -euo pipefail
. "$(dirname "$0")/lib/port.sh"
. "$(dirname "$0")/lib/bench.sh"
row_label_width=58 row_number_width=7
root="$(cd "$(dirname "$0")/.." && pwd)"
duration="${DURATION:-5}"; duration=$(( duration < 1 ? 1 : (duration > 30 ? 30 : duration) ))
reps="${REPS:-3}"; reps=$(( reps < 1 ? 1 : (reps > 5 ? 5 : reps) ))
spread="${ENCOUNTERS:-16}"; spread=$(( spread < 1 ? 1 : (spread > 64 ? 64 : spread) ))
server="${PG_URL:-postgres://postgres@127.0.0.1:5432}"
connections=32

for tool in psql wrk curl; do
  command -v "$tool" >/dev/null || { echo "bench-postgres: $tool is needed" >&2; exit 1; }
done
if ! psql "$server/postgres" -Atqc 'SELECT 1' >/dev/null 2>&1; then
  echo "bench-postgres: no PostgreSQL at $server: leg skipped (set PG_URL, or PG=0 in bench.sh)" >&2
  exit 0
fi
# PROFILE=dev measures a debug build (quick to build on a busy machine; its figures are not the
# release ones, but the ratios of one run still compare its configurations).
profile="${PROFILE:-release}"
cargo build --quiet --profile "$profile" --manifest-path "$root/Cargo.toml" -p skirmish-bench --bins
[ -n "${SKIRMISH_BIN:-}" ] || cargo build --quiet --profile "$profile" --manifest-path "$root/Cargo.toml" -p skirmish-api --bin skirmish
target="${CARGO_TARGET_DIR:-$root/target}/$([ "$profile" = dev ] && echo debug || echo "$profile")"
skirmish="${SKIRMISH_BIN:-$target/skirmish}"

work="$(mktemp -d)"
prefix="skirmish_bench_$$"
pids=()
databases=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  for db in "${databases[@]}"; do psql "$server/postgres" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true; done
  rm -rf "$work"
}
trap cleanup EXIT
fresh_database() { # NAME: creates it, echoes its URL
  local db="${prefix}_$1"
  databases+=("$db")
  psql "$server/postgres" -qc "CREATE DATABASE $db" >/dev/null
  echo "$server/$db"
}
ports=()
start_replica() { # URL WRITERS: starts one, appends its port to $ports
  local port; port=$(free_port)
  while printf '%s\n' "${ports[@]}" | grep -qx "$port"; do port=$(free_port); done
  # An empty WRITERS leaves SKIRMISH_PG_WRITERS unset: the default.
  env SKIRMISH_BIND="127.0.0.1:$port" SKIRMISH_WORKERS=1 RUST_LOG=warn SKIRMISH_MAX_CONNECTIONS_PER_PEER=256 \
    SKIRMISH_DATABASE_URL="$1" ${2:+SKIRMISH_PG_WRITERS=$2} "$skirmish" >>"$work/replicas.log" 2>&1 &
  pids+=($!)
  ports+=("$port")
  wait_for "http://127.0.0.1:$port/healthz" 200
}

json='Content-Type: application/json'
new_encounter() { # BASE: an encounter of 6 combatants with initiative rolled; echoes its id
  local id n
  id=$(curl -sf -X POST "$1/v1/encounters" -H "$json" -d '{"ruleset":"spycraft2","name":"Bench"}' | id_of)
  for n in 1 2 3 4 5 6; do
    curl -sf -X POST "$1/v1/encounters/$id/combatants" -H "$json" \
      -d "{\"name\":\"C$n\",\"side\":\"s$((n % 2))\",\"stats\":{\"initiative_bonus\":$n}}" >/dev/null
  done
  curl -sf -X POST "$1/v1/encounters/$id/initiative" -H "$json" -d '{"seed":1}' >/dev/null
  echo "$id"
}
encounters_on() { # BASE COUNT: COUNT new encounters, comma-separated
  local ids=()
  for _ in $(seq 1 "$2"); do ids+=("$(new_encounter "$1")"); done
  (IFS=,; echo "${ids[*]}")
}

# Configurations: one replica with one writer connection (before), one with the default pool
# (after), three with the default pool; each on a fresh database.
start_replica "$(fresh_database one_writer)" 1
start_replica "$(fresh_database one)" "${PG_WRITERS:-}"
three_url="$(fresh_database three)"
for _ in 1 2 3; do start_replica "$three_url" "${PG_WRITERS:-}"; done
raw_url="$(fresh_database raw)"
base() { echo "http://127.0.0.1:${ports[$1]}"; }
echo "creating $spread encounters per configuration (and one hot one)" >&2
spread_one_writer=$(encounters_on "$(base 0)" "$spread"); hot_one_writer=$(new_encounter "$(base 0)")
spread_one=$(encounters_on "$(base 1)" "$spread");        hot_one=$(new_encounter "$(base 1)")
spread_three=$(encounters_on "$(base 2)" "$spread");      hot_three=$(new_encounter "$(base 2)")
probe=$(new_encounter "$(base 2)")

cat >"$work/spread.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"to":"next_turn"}'
local paths, n = {}, 0
for id in string.gmatch(os.getenv("ENCOUNTERS"), "[^,]+") do
  paths[#paths + 1] = "/v1/encounters/" .. id .. "/advance"
end
request = function()
  n = n + 1
  return wrk.format(nil, paths[n % #paths + 1])
end
LUA

# wrk_on PORT CONNECTIONS IDS OUT: one wrk over the encounters IDS, "rate p99 non2xx" into OUT.
wrk_on() {
  local out
  out=$(ENCOUNTERS="$3" wrk -t1 -c"$2" -d"${duration}s" --latency -s "$work/spread.lua" "http://127.0.0.1:$1")
  printf '%s %s %s\n' "$(printf '%s\n' "$out" | awk '/Requests\/sec/ {print $2}')" \
    "$(printf '%s\n' "$out" | awk '$1 == "99%" {print ms($2)} function ms(t) {
      if (t ~ /us$/) return t / 1000; if (t ~ /ms$/) return t + 0; if (t ~ /s$/) return t * 1000; return t }')" \
    "$(printf '%s\n' "$out" | awk '/Non-2xx/ {print $5}')" >"$4"
}
# load NAME IDS REPLICA...: -c32 split over the replicas (one wrk each, together); appends the
# summed rate and the worst p99 to $work/NAME; warns about non-2xx answers.
load() {
  local name="$1" ids="$2"; shift 2
  local count=$# i=0 each port running=()
  for port in "$@"; do
    each=$(( connections / count + (i < connections % count ? 1 : 0) ))
    wrk_on "$port" "$each" "$ids" "$work/part.$name.$i" &
    running+=($!)
    i=$((i + 1))
  done
  # Only these: a bare `wait` would wait for the replicas too.
  for pid in "${running[@]}"; do wait "$pid"; done
  awk -v name="$name" '{rate += $1; if ($2 > p99) p99 = $2; bad += $3}
    END {printf "%s %s\n", rate, p99; if (bad > 0) printf "  warning: %s: %d answers were not 2xx\n", name, bad > "/dev/stderr"}' \
    "$work/part.$name".* >>"$work/$name"
  rm -f "$work/part.$name".*
}
run_raw() { "$target/raw-postgres" "$raw_url" "$connections" "$duration" | awk '{print $2, $4 + 0}' >>"$work/raw"; }

p=("${ports[@]}")
for rep in $(seq 1 "$reps"); do
  echo "repetition $rep of $reps" >&2
  run_raw
  load one_writer "$spread_one_writer" "${p[0]}"
  load one "$spread_one" "${p[1]}"
  load three "$spread_three" "${p[2]}" "${p[3]}" "${p[4]}"
  load hot_one_writer "$hot_one_writer" "${p[0]}"
  load hot_one "$hot_one" "${p[1]}"
  load hot_three "$hot_three" "${p[2]}" "${p[3]}" "${p[4]}"
done

echo "write-to-stream delivery across replicas" >&2
quiet=$("$target/sse-delivery" "127.0.0.1:${p[2]}" "127.0.0.1:${p[3]}" "$probe" 200 30)
load delivery_load "$spread_three" "${p[2]}" "${p[3]}" "${p[4]}" &
loaded_pid=$!
busy=$("$target/sse-delivery" "127.0.0.1:${p[2]}" "127.0.0.1:${p[3]}" "$probe" 2000 "$duration")
wait "$loaded_pid"

echo
echo "PostgreSQL $(psql "$server/postgres" -Atc 'SHOW server_version'), synchronous_commit $(psql "$server/postgres" -Atc 'SHOW synchronous_commit');" \
  "wrk -d${duration}s -c$connections on loopback, $profile build, 1 worker per replica; medians of $reps;" \
  "$(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-58s %13s  %-12s %7s  %5s\n' "measure (POST advance, 6 combatants)" "service" "" "baseline" "ratio"
row "1 replica, 1 writer conn., $spread encounters vs raw" one_writer raw
row "1 replica, writer pool, $spread encounters vs raw" one raw
row "3 replicas, writer pool, $spread encounters vs 1 replica" three one
row "1 replica, 1 writer conn., one hot encounter vs raw" hot_one_writer raw
row "1 replica, writer pool, one hot encounter vs raw" hot_one raw
row "3 replicas, one hot encounter vs 1 replica" hot_three hot_one
echo "raw single-row commits (-c$connections, BEGIN/INSERT 2 KB/COMMIT): $(median raw 1) commits/s, p99 $(median raw 2) ms"
echo "write on replica 1 -> event on replica 2's stream, quiet:            $quiet"
echo "the same under the 3-replica spread load (-c$connections, ${duration}s): $busy"
