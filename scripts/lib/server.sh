# Shared by the scripts that run the real binary (sourced, not run): builds `skirmish` (debug),
# makes a scratch directory `$work`, and stops the server started into `$server` and removes
# `$work` on exit. `wait_healthy PYTHON BASE` waits up to 10 s for BASE/healthz, printing the
# server's log ($work/server.log) and failing if it never answers.
# Needs: $root (the workspace). Also gives `free_port` (lib/port.sh).

. "$root/scripts/lib/port.sh"

cargo build --quiet --bin skirmish --manifest-path "$root/Cargo.toml"
binary="${CARGO_TARGET_DIR:-$root/target}/debug/skirmish"

work="$(mktemp -d)"
server=""
stop() {
  if [ -n "$server" ]; then
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    server=""
  fi
}
trap 'stop; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

wait_healthy() {
  local python="$1" base="$2"
  for _ in $(seq 1 100); do
    "$python" -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=1)' "$base/healthz" \
      2>/dev/null && return 0
    kill -0 "$server" 2>/dev/null || break
    sleep 0.1
  done
  echo "the server did not become healthy on $base; its log:" >&2
  cat "$work/server.log" >&2
  return 1
}
