#!/usr/bin/env bash
# Fuzzes the real `skirmish` binary with schemathesis against the OpenAPI document it serves.
#
# Builds the binary, installs schemathesis (pinned) into target/fuzz-venv (reused when present),
# starts the server on a free 127.0.0.1 port with a scratch database, creates an API key for it
# (so authentication is tested too), waits for /healthz, then runs every schemathesis check over
# the examples, coverage (positive and negative), fuzzing and stateful phases with a fixed seed.
# Exits non-zero if schemathesis reports any failure or error, or if it runs out of time.
#
# Settings (environment):
#   MAX_EXAMPLES   test cases per operation and phase          (default 50)
#   SEED           schemathesis seed, for reproducible runs     (default 20261121)
#   FUZZ_TIMEOUT   hard limit for the schemathesis run, seconds (default 900)
#   WORKERS        concurrent schemathesis workers              (default 2)
#   PHASES         comma-separated phases                       (default examples,coverage,fuzzing,stateful)
#   MODE           data generation: positive, negative or all   (default all)
#   AUTH           key: run with an API key (default), so ignored_auth and
#                  missing_required_header test authentication too; open: run in open mode with
#                  no key and no generated Authorization headers (those two checks are skipped:
#                  open mode accepts requests without Authorization by design)
#   REPORT_DIR     where the reports go (default target/fuzz-report): junit.xml, run.json,
#                  events.ndjson, a VCR cassette of every request, and the server's log
#   FUZZ_ARGS      extra arguments for `schemathesis run`, e.g. "--include-path /v1/dice/roll"
#
# Usage: scripts/fuzz.sh                       # the full run, as CI does
#        MAX_EXAMPLES=10 scripts/fuzz.sh       # a quick one
# Each failure is printed with a curl command that reproduces it against a server started by hand
# (SKIRMISH_BIND=127.0.0.1:PORT target/debug/skirmish); REPORT_DIR/cassette.yaml has every request.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

schemathesis_version="4.32.5"
max_examples="${MAX_EXAMPLES:-50}"
seed="${SEED:-20261121}"
fuzz_timeout="${FUZZ_TIMEOUT:-900}"
workers="${WORKERS:-2}"
phases="${PHASES:-examples,coverage,fuzzing,stateful}"
mode="${MODE:-all}"
auth="${AUTH:-key}"
report_dir="${REPORT_DIR:-$root/target/fuzz-report}"
venv="$root/target/fuzz-venv"
config="$root/scripts/fuzz/schemathesis.toml"
started=$SECONDS

case "$auth" in key | open) ;; *) echo "AUTH must be 'key' or 'open', not '$auth'" >&2; exit 2 ;; esac

# schemathesis, pinned, in a virtualenv of its own (target/ is not committed).
installed="$("$venv/bin/schemathesis" --version 2>/dev/null || true)"
if [ "$installed" != "schemathesis, version $schemathesis_version" ]; then
  echo "installing schemathesis $schemathesis_version into $venv"
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  timeout 600 "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    "schemathesis==$schemathesis_version"
fi
schemathesis="$venv/bin/schemathesis"

# shellcheck source=lib/server.sh
. "$root/scripts/lib/server.sh"

# A free loopback port below the ephemeral range (scripts/lib/port.sh).
port="$(free_port)"
base="http://127.0.0.1:$port"
export SKIRMISH_BIND="127.0.0.1:$port" SKIRMISH_DATABASE_URL="$work/fuzz.db"

headers=()
excluded=()
if [ "$auth" = key ]; then
  key="$("$binary" keys create --tenant fuzz 2>>"$work/server.log" | grep -o '^sk_[0-9a-f]*$')"
  headers=(--header "Authorization: Bearer $key")
  # One key makes thousands of requests: the rate limiter is tested elsewhere, not here.
  export SKIRMISH_RATE_LIMIT_PER_MINUTE=0
else
  excluded=(--exclude-checks ignored_auth,missing_required_header --generation-with-security-parameters false)
fi

"$binary" >>"$work/server.log" 2>&1 &
server=$!
wait_healthy "$venv/bin/python" "$base"

mkdir -p "$report_dir"
rm -f "$report_dir"/{junit.xml,run.json,events.ndjson,cassette.yaml,server.log}
echo "fuzzing $base (auth: $auth) with schemathesis $schemathesis_version: phases $phases, mode $mode," \
  "$max_examples examples, seed $seed, $workers workers, at most $fuzz_timeout s"
# --output-sanitize false: the key is this run's own and dies with its database, and sanitizing
# would also hide the Idempotency-Key values that make a failure reproducible.
status=0
(cd "$work" && timeout --kill-after=30 "$fuzz_timeout" \
  "$schemathesis" --config-file "$config" run "$base/openapi.json" \
  --checks all "${excluded[@]}" \
  --phases "$phases" \
  --mode "$mode" \
  --max-examples "$max_examples" \
  --seed "$seed" \
  --workers "$workers" \
  --request-timeout 10 \
  --generation-database none \
  --continue-on-failure \
  --output-sanitize false \
  --report junit,json,ndjson,vcr \
  --report-dir "$report_dir" \
  --report-junit-path "$report_dir/junit.xml" \
  --report-json-path "$report_dir/run.json" \
  --report-ndjson-path "$report_dir/events.ndjson" \
  --report-vcr-path "$report_dir/cassette.yaml" \
  --no-color \
  "${headers[@]}" ${FUZZ_ARGS:-}) || status=$?
stop
cp "$work/server.log" "$report_dir/server.log"

if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
  echo "schemathesis did not finish within $fuzz_timeout s (FUZZ_TIMEOUT); reports in $report_dir" >&2
fi
if grep -q 'panicked at' "$report_dir/server.log"; then
  echo "the server panicked during the run:" >&2
  grep -A3 'panicked at' "$report_dir/server.log" | head -n 40 >&2
  [ "$status" -ne 0 ] || status=1
fi

# The closing summary, from schemathesis' own JSON report.
"$venv/bin/python" - "$report_dir/run.json" "$status" "$((SECONDS - started))" <<'PY'
import json, sys
path, status, elapsed = sys.argv[1], int(sys.argv[2]), sys.argv[3]
try:
    with open(path, encoding="utf-8") as f:
        run = json.load(f)
except (OSError, ValueError):
    print(f"fuzz: no schemathesis report (exit {status}, {elapsed} s)")
    print("fuzz: 0 passed, 1 failed")
    sys.exit(0)
ops = run.get("operations") or {}
cases = run.get("test_cases") or {}
failures = run.get("failures") or []
errors = run.get("errors") or []
failing_ops = sorted({op for group in failures for op in group.get("operations", [])})
tested = ops.get("tested", 0)
for group in failures:
    print(f"  {group['code']} {group['title']}: {group['count']} on {', '.join(group['operations'])}")
for group in errors:
    print(f"  error: {group['title']} ({group['count']})")
for warning, labels in (run.get("warnings") or {}).items():
    if labels:
        print(f"  warning: {warning}: {', '.join(labels)}")
print(
    f"fuzz: schemathesis {run.get('schemathesis_version')}, seed {run.get('seed')}: "
    f"{tested} of {ops.get('selected', 0)} operations tested, {cases.get('generated', 0)} cases, "
    f"{cases.get('unique_failures', 0)} unique failures on {len(failing_ops)} operations, "
    f"{sum(g['count'] for g in errors)} errors, exit {status}, {elapsed} s"
)
failed = len(failing_ops) if failing_ops else (1 if status else 0)
print(f"fuzz: {max(tested - len(failing_ops), 0)} passed, {failed} failed")
PY
exit "$status"
