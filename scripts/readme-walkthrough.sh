#!/usr/bin/env bash
# Runs the README's curl walkthrough, exactly as written, against the real `skirmish` binary
# started with its defaults in a scratch directory; then restarts the server on the same
# database and checks the encounter and its log survived. Needs curl; bounded in time.
set -euo pipefail
. "$(dirname "$0")/lib/port.sh"
root="$(cd "$(dirname "$0")/.." && pwd)"
cargo build --quiet --bin skirmish --manifest-path "$root/Cargo.toml"
binary="${CARGO_TARGET_DIR:-$root/target}/debug/skirmish"
work="$(mktemp -d)"
port=$(free_port)
server=""
stop() { [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null; server=""; }
trap 'stop; rm -rf "$work"' EXIT

start() {
  (cd "$work" && exec env SKIRMISH_BIND="127.0.0.1:$port" "$binary" >>"$work/server.log" 2>&1) &
  server=$!
  for _ in $(seq 1 50); do
    curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && return 0
    sleep 0.1
  done
  echo "server did not start; log:" >&2; cat "$work/server.log" >&2; exit 1
}

# The first ```sh block after the walkthrough heading.
awk '/^## A whole encounter with curl/{f=1} f&&/^```sh/{p=1;next} p&&/^```/{exit} p' \
  "$root/README.md" >"$work/walkthrough.sh"
start
SKIRMISH="http://127.0.0.1:$port" timeout 60 bash -euo pipefail "$work/walkthrough.sh" >"$work/out.json"
grep -q '"name":"stunned","reason":"end of Drone' "$work/out.json" || { echo "stunned did not expire at the end of the Drone's turn" >&2; exit 1; }
grep -q 'urn:skirmish:problem:stale-version' "$work/out.json" || { echo "stale If-Match was not refused" >&2; exit 1; }
grep -q '"after_armour":9' "$work/out.json" || { echo "the rifle shot did not deal 9 damage" >&2; exit 1; }
! grep -q '}{' "$work/out.json" || { echo "two answers ran together on one line" >&2; exit 1; }
before_list="$(curl -sf "http://127.0.0.1:$port/v1/encounters")"
encounter="$(printf '%s' "$before_list" | grep -o '"id":"enc_[0-9a-f]*"' | head -n 1 | cut -d'"' -f4)"
before_events="$(curl -sf "http://127.0.0.1:$port/v1/encounters/$encounter/events?limit=1000")"
stop
start
after_list="$(curl -sf "http://127.0.0.1:$port/v1/encounters")"
after_events="$(curl -sf "http://127.0.0.1:$port/v1/encounters/$encounter/events?limit=1000")"
[ "$before_list" = "$after_list" ] || { echo "encounters changed across a restart" >&2; exit 1; }
[ "$before_events" = "$after_events" ] || { echo "event log changed across a restart" >&2; exit 1; }
echo "README walkthrough: ok ($(printf '%s' "$after_events" | grep -o '"seq":' | wc -l) events intact after a restart)"
