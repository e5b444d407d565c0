#!/usr/bin/env bash
# Runs every curl example in docs/ as written (issue 27, item 5): for each page, its ```sh blocks
# that call curl, in order, as one bash script (-euo pipefail) against a fresh `skirmish` server
# (open mode, scratch database, a free 127.0.0.1 port). Each page's examples start from the
# README walkthrough's steps 1-3 (S, J, id_of, ENC, VASQUEZ, HICKS, DRONE), as the pages say.
# Blocks without curl (docker, deployment) are not run. A `curl -N` stream is followed for 2 s.
# A page's `<!-- expect: TEXT -->` lines must each be a "summary" in its output (the five ruleset
# walkthroughs end on the encounter's status summaries). The README's own walkthrough is run by
# scripts/readme-walkthrough.sh. Bounded in time.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=lib/server.sh
. "$root/scripts/lib/server.sh"
started=$SECONDS

# The README walkthrough up to its step 4: the setup every page builds on.
awk '/^## A whole encounter with curl/{f=1} f&&/^```sh/{p=1;next} p&&/^# 4\./{exit} p&&/^```/{exit} p' \
  "$root/README.md" >"$work/prelude.sh"
grep -q 'ENC=' "$work/prelude.sh" || { echo "README walkthrough: no setup found before step 4" >&2; exit 1; }

# Every ```sh block of $1 that calls curl, in order.
curl_blocks() {
  awk '/^```sh/ {p=1; block=""; next} p && /^```/ {p=0; if (block ~ /curl /) printf "%s", block; next} p {block = block $0 "\n"}' "$1"
}

pages=0 blocks=0
for page in "$root"/docs/*.md "$root"/docs/rulesets/*.md; do
  name="${page#"$root"/}"
  curl_blocks "$page" >"$work/examples.sh"
  [ -s "$work/examples.sh" ] || continue
  count=$(awk '/^```sh/ {p=1; b=0; next} p && /^```/ {p=0; if (b) n++; next} p && /curl / {b=1} END {print n+0}' "$page")
  port="$(free_port)"
  # Webhook receivers: the pages name public hosts, which need DNS; here they are a closed
  # loopback port (allowed for this server only), and no event follows the subscriptions.
  (cd "$work" && exec env SKIRMISH_BIND="127.0.0.1:$port" SKIRMISH_DATABASE_URL="$work/$pages.db" \
    SKIRMISH_WEBHOOKS_ALLOW_PRIVATE=true \
    "$binary" >>"$work/server.log" 2>&1) &
  server=$!
  wait_healthy python3 "http://127.0.0.1:$port"
  {
    # A stream (`curl -N`) is followed for 2 s, then left; every other call is bounded too.
    echo 'curl() { case " $* " in *" -N "*) command curl --max-time 2 "$@" || [ $? -eq 28 ];; *) command curl --max-time 20 "$@";; esac; }'
    cat "$work/prelude.sh" "$work/examples.sh"
  } >"$work/run.sh"
  if ! SKIRMISH="http://127.0.0.1:$port" RECEIVER="http://127.0.0.1:9/hooks" DISCORD="http://127.0.0.1:9/discord" timeout 120 bash -euo pipefail "$work/run.sh" >"$work/out.txt" 2>&1; then
    cat "$work/out.txt" >&2
    echo "$name: an example failed as written (its output above)" >&2
    exit 1
  fi
  if grep -q '"status":5[0-9][0-9]' "$work/out.txt"; then
    cat "$work/out.txt" >&2; echo "$name: an example got a 5xx" >&2; exit 1
  fi
  # A page's `<!-- expect: TEXT -->` lines (the ruleset walkthroughs' status summaries) must each
  # appear in its examples' output as a "summary" the server answered.
  expected=0
  while IFS= read -r line; do
    want="${line#<!-- expect: }" want="${want% -->}"
    if ! grep -qF "\"summary\":\"$want\"" "$work/out.txt"; then
      echo "$name: the walkthrough's output has no summary \"$want\"" >&2; exit 1
    fi
    expected=$((expected + 1))
  done < <(grep '^<!-- expect: .* -->$' "$page" || true)
  stop
  found=""
  [ "$expected" -eq 0 ] || found=", $expected expected summaries found"
  echo "  $name: $count block(s) ok$found"
  pages=$((pages + 1)) blocks=$((blocks + count))
done
echo "--- docs examples: $blocks curl block(s) on $pages page(s) ran as written, in $((SECONDS - started)) s"
