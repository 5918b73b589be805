#!/usr/bin/env bash
# Throughput of two builds of `intake`, alternating, in one sitting
# (BENCHMARKS.md): each run starts the build's server on a fresh copy of one
# template data dir (a demo directory of TRADES trades and a staging key),
# runs `intake bench` against it and stops it.
#
#   tools/ab_bench.sh BEFORE_BIN AFTER_BIN [RUNS] [SCENARIO...]
#
# Defaults: 3 runs, scenarios jobs and search. Environment: TRADES (100000),
# CONCURRENCY (32), DURATION (10), WARMUP (2), PORT (18181), SERVER_LOG (the
# servers' RUST_LOG, warn), BEFORE_ENV and AFTER_ENV (more NAME=VALUE words
# for one build's server, e.g. AFTER_ENV="INTAKE_ADMIN_LISTEN=127.0.0.1:0"). Prints one
# tab-separated line per run (scenario, build, run, figures as JSON) and the
# medians at the end.
set -euo pipefail

before=$(realpath "$1")
after=$(realpath "$2")
runs=${3:-3}
shift $(($# < 3 ? $# : 3))
scenarios=("$@")
[ ${#scenarios[@]} -gt 0 ] || scenarios=(jobs search)
trades=${TRADES:-100000}
port=${PORT:-18181}

work=$(mktemp -d /tmp/ab_bench.XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

echo "template: $trades demo trades" >&2
"$after" demo-data --data-dir "$work/template" --trades "$trades" >/dev/null
key=$("$after" keys create --data-dir "$work/template" --name bench --environment staging --json)
key_id=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["keyId"])' "$key")
secret=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["secret"])' "$key")

results="$work/results.tsv"
for scenario in "${scenarios[@]}"; do
  for run in $(seq 1 "$runs"); do
    for build in before after; do
      bin=$before
      extra=${BEFORE_ENV:-}
      if [ "$build" = after ]; then bin=$after; extra=${AFTER_ENV:-}; fi
      rm -rf "$work/data" && cp -a "$work/template" "$work/data"
      # shellcheck disable=SC2086 # $extra is words on purpose
      env INTAKE_DISPATCHER=false INTAKE_RATE_LIMIT_PER_SECOND=0 INTAKE_MAX_IN_FLIGHT_PER_KEY=0 \
        RUST_LOG="${SERVER_LOG:-warn}" $extra \
        "$bin" serve --data-dir "$work/data" --listen "127.0.0.1:$port" --environment staging --no-demo-data \
        >"$work/server.log" 2>&1 &
      server=$!
      for _ in $(seq 1 100); do
        curl -fs "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
        sleep 0.2
      done
      figures=$(INTAKE_KEY_SECRET=$secret "$after" bench --base-url "http://127.0.0.1:$port" --key-id "$key_id" \
        --scenario "$scenario" --concurrency "${CONCURRENCY:-32}" --duration "${DURATION:-10}" \
        --warmup "${WARMUP:-2}" --json)
      kill "$server" && wait "$server" 2>/dev/null || true
      line=$(printf '%s\t%s\t%s\t%s' "$scenario" "$build" "$run" "$(echo "$figures" | tr -d '\n')")
      echo "$line" | tee -a "$results"
    done
  done
done

python3 - "$results" <<'PY'
import json, statistics, sys
by = {}
for line in open(sys.argv[1]):
    scenario, build, _run, figures = line.rstrip("\n").split("\t", 3)
    by.setdefault((scenario, build), []).append(json.loads(figures)["results"])
print("scenario\tbuild\tmedian req/s\tmedian p99 ms\tmedian ÷ /healthz\truns (req/s)")
for (scenario, build), runs in sorted(by.items()):
    rps = [r[0]["requestsPerSecond"] for r in runs]
    p99 = [r[0]["p99Ms"] for r in runs]
    ratio = [r[0]["requestsPerSecond"] / r[1]["requestsPerSecond"] for r in runs]
    print(f"{scenario}\t{build}\t{statistics.median(rps):.0f}\t{statistics.median(p99):.1f}\t"
          f"{statistics.median(ratio):.3f}\t{', '.join(f'{v:.0f}' for v in rps)}")
PY
