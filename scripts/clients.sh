#!/usr/bin/env bash
# Proves the OpenAPI document generates fully typed clients: builds the `skirmish` binary, starts it
# on a free 127.0.0.1 port with a scratch database (open mode), fetches /openapi.json from it, then
#   TypeScript: @hey-api/openapi-ts generates clients/typescript/generated, `tsc --noEmit --strict`
#               checks clients/typescript/example.ts, which is then compiled and run with node;
#   Python:     openapi-python-client generates target/clients/py-gen, installed into a venv,
#               `mypy --strict` checks clients/python/example.py, which then runs.
# Each example drives one whole encounter per implemented ruleset against the server. The tools
# are pinned (clients/typescript/package-lock.json, clients/python/requirements.txt) and
# installed under target/clients (reused while the pins are unchanged). Fails on any generator
# warning about the document, any type error, or a failed run. Needs node/npm and python3.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/target/clients"
ts_dir="$root/clients/typescript"
py_dir="$root/clients/python"
ts_tools="$out/ts-tools"
venv="$out/py-venv"
py_gen="$out/py-gen"
started=$SECONDS
mkdir -p "$out"

# Pinned tools, reinstalled only when the pins change (the stamp is a copy of the pin file).
if ! cmp -s "$ts_dir/package-lock.json" "$ts_tools/package-lock.json.stamp" || [ ! -d "$ts_tools/node_modules" ]; then
  echo "installing the TypeScript tools (npm ci) into $ts_tools"
  rm -rf "$ts_tools" && mkdir -p "$ts_tools"
  cp "$ts_dir/package.json" "$ts_dir/package-lock.json" "$ts_tools/"
  (cd "$ts_tools" && timeout 600 npm ci --no-audit --no-fund --loglevel=error)
  cp "$ts_dir/package-lock.json" "$ts_tools/package-lock.json.stamp"
fi
if ! cmp -s "$py_dir/requirements.txt" "$venv/requirements.txt.stamp"; then
  echo "installing the Python tools (pip) into $venv"
  rm -rf "$venv" && python3 -m venv "$venv"
  timeout 600 "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$py_dir/requirements.txt"
  cp "$py_dir/requirements.txt" "$venv/requirements.txt.stamp"
fi
# The example's imports and types resolve through clients/typescript/node_modules (gitignored).
ln -sfn "$ts_tools/node_modules" "$ts_dir/node_modules"

# shellcheck source=lib/server.sh
. "$root/scripts/lib/server.sh"

fetch() { "$venv/bin/python" -c 'import sys, urllib.request; sys.stdout.buffer.write(urllib.request.urlopen(sys.argv[1], timeout=5).read())' "$1"; }
port="$(free_port)"
base="http://127.0.0.1:$port"
(cd "$work" && exec env SKIRMISH_BIND="127.0.0.1:$port" SKIRMISH_DATABASE_URL="$work/clients.db" \
  "$binary" >>"$work/server.log" 2>&1) &
server=$!
wait_healthy "$venv/bin/python" "$base"
fetch "$base/openapi.json" >"$out/openapi.json"

# A generator's output is kept in a log; any line mentioning a warning or an error fails the run.
generate() {
  local name="$1" log="$out/$1.log"
  shift
  if ! "$@" >"$log" 2>&1; then
    cat "$log" >&2
    echo "$name failed" >&2
    exit 1
  fi
  if grep -qiE 'warn|error' "$log"; then
    cat "$log" >&2
    echo "$name warned about the document (above); fix the spec" >&2
    exit 1
  fi
}

# TypeScript.
ts_bin="$ts_tools/node_modules/.bin"
openapi_ts_version="$("$ts_bin/openapi-ts" --version)"
tsc_version="$("$ts_bin/tsc" --version)"
rm -rf "$ts_dir/generated" "$out/ts-build"
(cd "$ts_dir" && SKIRMISH_SPEC="$out/openapi.json" \
  generate openapi-ts "$ts_bin/openapi-ts" -f openapi-ts.config.mjs --no-log-file)
"$ts_bin/tsc" -p "$ts_dir/tsconfig.json" --noEmit --strict
"$ts_bin/tsc" -p "$ts_dir/tsconfig.json" --strict --outDir "$out/ts-build"
echo '{"type": "module"}' >"$out/ts-build/package.json"
echo "--- TypeScript example"
SKIRMISH_URL="$base" timeout 120 node "$out/ts-build/example.js"

# Python.
py_bin="$venv/bin"
python_client_version="$("$py_bin/openapi-python-client" --version)"
rm -rf "$py_gen"
PATH="$py_bin:$PATH" generate openapi-python-client "$py_bin/openapi-python-client" generate \
  --path "$out/openapi.json" --output-path "$py_gen" --meta setup --fail-on-warning \
  --config "$py_dir/generator.yaml"
"$py_bin/python" -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation \
  --force-reinstall "$py_gen"
mypy_version="$("$py_bin/mypy" --version)"
(cd "$py_dir" && "$py_bin/mypy" --strict --no-incremental example.py)
echo "--- Python example"
SKIRMISH_URL="$base" timeout 120 "$py_bin/python" "$py_dir/example.py"

stop
if grep -q 'panicked at' "$work/server.log"; then
  grep -A3 'panicked at' "$work/server.log" >&2
  exit 1
fi
echo "--- clients: ok in $((SECONDS - started)) s"
echo "  generators: @hey-api/openapi-ts $openapi_ts_version (TypeScript $tsc_version), $python_client_version"
echo "  type checks: tsc --noEmit --strict ok, $mypy_version --strict ok"
echo "  runs: TypeScript example ok, Python example ok (one encounter per ruleset each)"
