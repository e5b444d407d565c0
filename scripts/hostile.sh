#!/usr/bin/env bash
# The hostile run of issue 30: scripts/lib/hostile.py attacks each numbered item against the
# release binary in keyed mode (open-file limit 256, as in the audit; write timeout 2 s; rate
# limit off so that the counts are the attacks', not the limiter's), and a second server that
# refuses private webhook destinations for item 9. Bounded: every attack has a fixed count and
# the whole run 10 minutes at most. Prints requests, 5xx and invariant breaks per item.
set -euo pipefail
. "$(dirname "$0")/lib/port.sh"
root="$(cd "$(dirname "$0")/.." && pwd)"
# SKIRMISH_BIN: another build to attack (e.g. target/debug/skirmish); by default the release one.
if [ -z "${SKIRMISH_BIN:-}" ]; then
  cargo build --quiet --release --bin skirmish --manifest-path "$root/Cargo.toml"
fi
bin="${SKIRMISH_BIN:-${CARGO_TARGET_DIR:-$root/target}/release/skirmish}"
work=$(mktemp -d); port=$(free_port); strict=$((port + 1))
pids=()
trap 'for p in "${pids[@]}"; do kill $p 2>/dev/null; wait $p 2>/dev/null; done; rm -rf "$work"' EXIT
key() { SKIRMISH_DATABASE_URL="$1" "$bin" keys create --tenant "$2" | sed -n 2p; }
key_a=$(key "$work/a.db" a); key_b=$(key "$work/b.db" b)
start() { # port db log allow-private
  (ulimit -n 256; cd "$work" && exec env SKIRMISH_BIND="127.0.0.1:$1" SKIRMISH_DATABASE_URL="$2" SKIRMISH_WORKERS=1 \
    RUST_LOG=info SKIRMISH_RATE_LIMIT_PER_MINUTE=0 SKIRMISH_WRITE_TIMEOUT_MS=2000 \
    SKIRMISH_WEBHOOKS_ALLOW_PRIVATE="$4" timeout 900 "$bin" >"$3" 2>&1) &
  pids+=($!)
  for _ in $(seq 1 50); do curl -sf "http://127.0.0.1:$1/healthz" >/dev/null && return; sleep 0.1; done
  echo "the server on $1 did not start" >&2; exit 1
}
start "$port" "$work/a.db" "$work/a.log" true
start "$strict" "$work/b.db" "$work/b.log" false
server_pid=$(pgrep -P "${pids[0]}" || echo "${pids[0]}")
STRICT_BASE="http://127.0.0.1:$strict" SERVER_PID="$server_pid" timeout 600 \
  python3 "$root/scripts/lib/hostile.py" "http://127.0.0.1:$port" "$key_a" "$key_b" "$bin" "$work/a.db" "$work/a.log"
