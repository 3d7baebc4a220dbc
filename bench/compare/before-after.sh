#!/usr/bin/env bash
# Runs each tree's own benches alternated (before, after, before, after, …), ROUNDS rounds, on the
# same machine, noting /proc/loadavg before and after each run; copies each run's results JSON to
# OUT. Alternation is what makes the comparison fair on a shared machine whose load drifts.
# Usage: bench/compare/before-after.sh <before-tree> <after-tree> <out-dir> [rounds] [bench ...]
set -u
BEFORE=$1; AFTER=$2; OUT=$3; ROUNDS=${4:-3}; shift 4 || shift $#
BENCHES=${*:-feed messages}
export TEST_DATABASE_URL=${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}
mkdir -p "$OUT"
for round in $(seq 1 "$ROUNDS"); do
  for bench in $BENCHES; do
    for side in before after; do
      tree=$BEFORE; [ "$side" = after ] && tree=$AFTER
      tag="$bench-$side-$round"
      echo "=== $tag ($tree)"
      { echo "before: $(cat /proc/loadavg)"; } > "$OUT/$tag.load"
      # Each tree its own way: the Node 24 it installed (type stripping), or tsx in trees before it.
      if [ -e "$tree/node_modules/.bin/node" ]; then run="npx node"; else run="node --import tsx"; fi
      (cd "$tree" && $run "bench/$bench/$bench.bench.ts") > "$OUT/$tag.log" 2>&1
      echo "exit: $?" >> "$OUT/$tag.load"
      { echo "after: $(cat /proc/loadavg)"; } >> "$OUT/$tag.load"
      cp "$tree/bench/results/$bench.json" "$OUT/$tag.json" 2>/dev/null
      cat "$OUT/$tag.load"
    done
  done
done
