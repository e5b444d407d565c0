#!/usr/bin/env bash
# Runs the two command blocks of clients/README.md exactly as written (issue 27, item 6), each in
# a fresh copy of the repository's files (as a new user's clone has them: no node_modules, no
# virtualenv, no generated client), against the real binary on a free 127.0.0.1 port
# (`SKIRMISH` points the blocks at it). Installs what the blocks install (npm ci, pip) inside
# the copies; bounded in time. Needs node/npm and python3.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=lib/server.sh
. "$root/scripts/lib/server.sh"
started=$SECONDS

port="$(free_port)"
(cd "$work" && exec env SKIRMISH_BIND="127.0.0.1:$port" SKIRMISH_DATABASE_URL="$work/readme.db" \
  "$binary" >>"$work/server.log" 2>&1) &
server=$!
wait_healthy python3 "http://127.0.0.1:$port"

# The ```sh block under the heading $1 (a line starting with "## $1").
block() { awk -v h="## $1" 'index($0, h) == 1 {f=1} f && /^```sh/ {p=1; next} p && /^```/ {exit} p' "$root/clients/README.md"; }

for heading in "TypeScript" "Python"; do
  copy="$work/clone-$heading"
  mkdir -p "$copy"
  # The tracked (and new, not ignored) files only, as a clone has them.
  (cd "$root" && git ls-files -z --cached --others --exclude-standard -- clients | xargs -0 cp --parents -t "$copy")
  block "$heading" >"$work/$heading.sh"
  [ -s "$work/$heading.sh" ] || { echo "clients/README.md has no sh block under \"## $heading\"" >&2; exit 1; }
  echo "--- clients/README.md, $heading block, as written"
  if ! (cd "$copy" && SKIRMISH="http://127.0.0.1:$port" timeout 900 bash -euo pipefail "$work/$heading.sh" >"$work/$heading.log" 2>&1); then
    cat "$work/$heading.log" >&2
    echo "the $heading block of clients/README.md failed as written (its output above)" >&2
    exit 1
  fi
  tail -n 2 "$work/$heading.log"
done
stop
echo "--- clients/README.md blocks: ok in $((SECONDS - started)) s"
