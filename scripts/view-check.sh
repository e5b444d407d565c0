#!/usr/bin/env bash
# The table view in a real browser. Starts `skirmish` on 127.0.0.1 with a scratch database,
# makes a Cepheus encounter with curl (four combatants, one of them hidden; initiative; two
# effects; the first turn) and a viewer link, opens /view/{token} in headless Chromium (Debian's
# package, installed if missing) driven by playwright-core (pinned, installed under
# target/view-check), advances the encounter and checks that the SAME page (no reload) shows the
# new turn from its stream, never shows the hidden combatant, and marks the current turn with
# aria-current. Saves target/view-check/table-view.png (and table-view-before.png).
# Bounded: every step has a time limit; the server is stopped on exit.
set -euo pipefail
. "$(dirname "$0")/lib/port.sh"
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${CARGO_TARGET_DIR:-$root/target}/view-check"
playwright_version="1.65.1"

if [ ! -x /usr/bin/chromium ]; then
  echo "installing Debian's chromium" >&2
  timeout 600 apt-get -y install chromium >/dev/null || {
    timeout 300 apt-get update >/dev/null && timeout 600 apt-get -y install chromium >/dev/null
  }
fi
command -v node >/dev/null && command -v npm >/dev/null || { echo "view-check needs node and npm" >&2; exit 1; }
mkdir -p "$out"
if [ "$(cat "$out/node/.installed" 2>/dev/null)" != "$playwright_version" ]; then
  mkdir -p "$out/node"
  [ -f "$out/node/package.json" ] || echo '{"private": true}' >"$out/node/package.json"
  timeout 300 npm install --prefix "$out/node" --no-audit --no-fund --silent \
    "playwright-core@$playwright_version" >/dev/null
  echo "$playwright_version" >"$out/node/.installed"
fi

# shellcheck source=lib/server.sh
source "$root/scripts/lib/server.sh"
port=$(free_port)
base="http://127.0.0.1:$port"
(cd "$work" && exec env SKIRMISH_BIND="127.0.0.1:$port" SKIRMISH_DATABASE_URL="$work/view.db" \
  RUST_LOG=warn "$binary" >"$work/server.log" 2>&1) &
server=$!
wait_healthy python3 "$base"

J='Content-Type: application/json'
field() { python3 -c 'import json, sys; v = json.load(sys.stdin)
for k in sys.argv[1].split("."): v = v[k]
print(v)' "$1"; }
post() { curl -sf --max-time 10 -X POST "$base$1" -H "$J" -d "$2"; }
enc=$(post /v1/encounters '{"ruleset":"cepheus-engine","name":"Ambush at the starport"}' | field id)
add() { post "/v1/encounters/$enc/combatants" "$1" | field combatant.id; }
stats() { printf '{"str":7,"dex":%s,"end":7,"int":7,"edu":7,"soc":7}' "$1"; }
vasquez=$(add "{\"name\":\"Vasquez\",\"side\":\"Marines\",\"public\":true,\"stats\":$(stats 10)}")
hicks=$(add "{\"name\":\"Hicks\",\"side\":\"Marines\",\"stats\":$(stats 7)}")
drone=$(add "{\"name\":\"Security drone\",\"side\":\"Raiders\",\"stats\":$(stats 7)}")
add "{\"name\":\"Sniper\",\"side\":\"Raiders\",\"hidden\":true,\"stats\":$(stats 7)}" >/dev/null
post "/v1/encounters/$enc/initiative" '{"rolls":[6,5, 4,4, 3,2, 1,1]}' >/dev/null
post "/v1/encounters/$enc/advance" '{"to":"next_turn"}' >/dev/null
post "/v1/encounters/$enc/effects" \
  "{\"name\":\"Stunned\",\"target_id\":\"$drone\",\"source_id\":\"$vasquez\",\"ends\":{\"ends\":\"end_of_turn\",\"combatant_id\":\"$drone\",\"turns\":2}}" >/dev/null
post "/v1/encounters/$enc/effects" \
  "{\"name\":\"Inspired\",\"target_id\":\"$hicks\",\"ends\":{\"ends\":\"after_rounds\",\"rounds\":3}}" >/dev/null
token=$(post "/v1/encounters/$enc/viewers" '{"label":"view-check"}' | field token)

NODE_PATH="$out/node/node_modules" timeout 120 node "$root/scripts/view-check.cjs" \
  "$base" "$token" "$enc" "$out" "Vasquez" "Hicks" "Sniper"
echo "view-check: the page followed the turn from Vasquez to Hicks live; screenshot $out/table-view.png"
