#!/usr/bin/env bash
# The rerunnable dice comparison (issue 15): Skirmish's dice-expression engine against Avrae's
# `d20` library (pinned, installed from PyPI into target/d20venv, once), in process, on the same
# expressions: the `FAMILIES` table of domain/benches/rules.rs, read from that file so the two
# sides cannot drift apart.
#
# Both sides do the same work per call: parse the expression (comments allowed), roll it, total
# it and render the breakdown.
#   d20:      str(d20.roll(expr, allow_comments=True)), timed with timeit, best of REPEAT x NUMBER
#             (d20 keeps no parse cache for comment-allowing parses, so it parses every call).
#   Skirmish: DiceExpr::parse(expr, true) then .roll(&mut Dice::seeded(1), ..), whose outcome
#             carries the total and the rendered breakdown: criterion's median of the group
#             "dice families" (cargo bench -p skirmish-domain --bench rules -- "dice families").
# d20's best batch against Skirmish's median batch leans toward d20; the median keeps one burst
# of load from other jobs on a shared machine from deciding Skirmish's figure.
# A second d20 column, "d20 cached", is str(d20.roll(expr)): d20 then skips parsing (its LFU parse
# cache answers after the first call), so it does less work than Skirmish; it is shown, not gated
# ("comments" cannot use that path, so it repeats the first column there).
#
# Prints family / d20 us / d20 cached us / skirmish us / ratio / ratio vs cached. With STRICT=1 it
# exits 1 when any same-work ratio is below MIN_RATIO (default 50). Bounded: NUMBER (default 2000,
# at most 5000) x REPEAT (default 5, at most 7) calls per d20 figure, WARMUP/MEASURE seconds
# (default 1/3, at most 3/5) per criterion benchmark; about two minutes on 2 cores once built.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
clamp() { local v="$1" lo="$2" hi="$3"; echo $(( v < lo ? lo : (v > hi ? hi : v) )); }
number="$(clamp "${NUMBER:-2000}" 100 5000)"
repeat="$(clamp "${REPEAT:-5}" 1 7)"
warmup="$(clamp "${WARMUP:-1}" 1 3)"
measure="$(clamp "${MEASURE:-3}" 1 5)"
min_ratio="${MIN_RATIO:-50}"
d20_version="1.1.2"
target="${CARGO_TARGET_DIR:-$root/target}"
venv="$target/d20venv"
py="$venv/bin/python"

installed() { "$py" -c "import importlib.metadata as m, sys; sys.exit(m.version('d20') != '$d20_version')" 2>/dev/null; }
if ! installed; then
  echo "installing d20==$d20_version into $venv" >&2
  python3 -m venv "$venv"
  "$py" -m pip install --quiet --disable-pip-version-check "d20==$d20_version"
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
families="$work/families.tsv"
# ("name", "expression"), lines between `const FAMILIES` and `];`.
sed -n '/^const FAMILIES/,/^];/p' "$root/domain/benches/rules.rs" \
  | sed -n 's/^ *("\([^"]*\)", "\([^"]*\)"),$/\1\t\2/p' >"$families"
[ -s "$families" ] || { echo "no FAMILIES found in domain/benches/rules.rs" >&2; exit 2; }

echo "timing d20 $d20_version ($repeat x $number calls per expression)" >&2
"$py" - "$families" "$number" "$repeat" >"$work/d20.tsv" <<'PY'
import sys, timeit
import d20

families, number, repeat = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])

def best_us(call):
    call()
    return min(timeit.repeat(call, number=number, repeat=repeat)) / number * 1e6

for line in open(families, encoding="utf-8"):
    name, expr = line.rstrip("\n").split("\t")
    same = best_us(lambda: str(d20.roll(expr, allow_comments=True)))
    try:
        d20.roll(expr)
        cached = best_us(lambda: str(d20.roll(expr)))
    except d20.RollSyntaxError:
        cached = same
    print(f"{name}\t{same:.2f}\t{cached:.2f}")
PY

echo "running criterion: dice families (warm-up ${warmup}s, measurement ${measure}s each)" >&2
rm -rf "$target/criterion/dice families"
cargo bench --quiet --manifest-path "$root/Cargo.toml" -p skirmish-domain --bench rules -- \
  "dice families" --warm-up-time "$warmup" --measurement-time "$measure" --noplot >"$work/criterion.log" 2>&1 \
  || { cat "$work/criterion.log" >&2; exit 2; }

# Criterion writes new/benchmark.json (names) and new/estimates.json (nanoseconds) per benchmark.
# Exit 3 from the table means some family is below the ratio: an error only with STRICT=1.
set +e
"$py" - "$families" "$work/d20.tsv" "$target/criterion/dice families" "$min_ratio" <<'PY'
import json, pathlib, sys

families_path, d20_path, criterion_dir, min_ratio = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3]), float(sys.argv[4])
d20 = {name: (float(same), float(cached)) for name, same, cached in
       (line.rstrip("\n").split("\t") for line in open(d20_path, encoding="utf-8"))}
skirmish = {}
for bench in criterion_dir.glob("*/new/benchmark.json"):
    function_id = json.loads(bench.read_text(encoding="utf-8"))["function_id"]
    estimates = json.loads((bench.parent / "estimates.json").read_text(encoding="utf-8"))
    skirmish[function_id] = estimates["median"]["point_estimate"] / 1000.0

print(f"{'family':<26}{'d20 us':>10}{'d20 cached us':>15}{'skirmish us':>13}{'ratio':>8}{'vs cached':>11}")
below = []
for line in open(families_path, encoding="utf-8"):
    name, expr = line.rstrip("\n").split("\t")
    ours = skirmish.get(f"parse and roll: {name} ({expr})")
    if ours is None:
        sys.exit(f"no criterion result for {name!r} under {criterion_dir}")
    same, cached = d20[name]
    ratio, ratio_cached = same / ours, cached / ours
    if ratio < min_ratio:
        below.append(name)
    print(f"{name:<26}{same:>10.1f}{cached:>15.1f}{ours:>13.3f}{ratio:>7.0f}x{ratio_cached:>10.0f}x")
if below:
    print(f"below {min_ratio:g}x: {', '.join(below)}")
    sys.exit(3)
print(f"every family at least {min_ratio:g}x")
PY
status=$?
set -e
if [ "$status" = 3 ]; then
  [ "${STRICT:-0}" = 1 ] && exit 1
  exit 0
fi
exit "$status"
