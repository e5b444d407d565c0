# Sourced by scripts/bench.sh and scripts/bench-postgres.sh: the helpers both benchmarks share.
# Each run writes one "rate p99" line per repetition into $work/NAME (the caller's scratch
# directory); `row` prints the medians of a measure against its baseline, in columns of
# $row_label_width (label) and $row_number_width (rates) that the caller sets.

# URL [TRIES]: waits up to TRIES × 0.1 s (default 100) for URL to answer, else stops the script.
wait_for() {
  for _ in $(seq 1 "${2:-100}"); do curl -sf "$1" >/dev/null && return 0; sleep 0.1; done
  echo "no answer from $1" >&2
  exit 1
}

# The first resource id in a JSON response on stdin.
id_of() { grep -o '"id":"[a-z]*_[0-9a-f]*"' | head -1 | cut -d'"' -f4; }

# NAME COLUMN: the median of that column of $work/NAME.
median() { awk -v col="$2" '{print $col}' "$work/$1" | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

# LABEL NAME BASELINE: the median rate and p99 of NAME, the baseline's median rate, their ratio.
row() {
  local rate p99 base_rate
  rate=$(median "$2" 1); p99=$(median "$2" 2); base_rate=$(median "$3" 1)
  printf '%-*s %*.0f req/s  p99 %7.2f ms %*.0f  %5.2f\n' "$row_label_width" "$1" "$row_number_width" "$rate" \
    "$p99" "$row_number_width" "$base_rate" "$(echo "$rate / $base_rate" | bc -l)"
}
