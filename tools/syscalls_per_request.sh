#!/usr/bin/env bash
# How many times a build's server enters one system call per request of a bench scenario
# (BENCHMARKS.md): a demo directory of TRADES trades, the server with limits and dispatcher off,
# `intake bench` at concurrency 32, and `perf stat` on the server for 6 s of the scenario.
#
#   tools/syscalls_per_request.sh BIN [SCENARIO] [SYSCALL]
#
# Defaults: scenario search, system call getrandom. Needs perf (Debian's linux-perf) with the
# syscalls tracepoints. Environment: TRADES (100000), PORT (18183).
set -euo pipefail

bin=$(realpath "$1")
scenario=${2:-search}
syscall=${3:-getrandom}
port=${PORT:-18183}
work=$(mktemp -d /tmp/syscalls.XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

"$bin" demo-data --data-dir "$work/data" --trades "${TRADES:-100000}" >/dev/null 2>&1
key=$("$bin" keys create --data-dir "$work/data" --name bench --environment staging --json 2>/dev/null)
key_id=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["keyId"])' "$key")
secret=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["secret"])' "$key")

INTAKE_DISPATCHER=false INTAKE_RATE_LIMIT_PER_SECOND=0 INTAKE_MAX_IN_FLIGHT_PER_KEY=0 RUST_LOG=warn \
  "$bin" serve --data-dir "$work/data" --listen "127.0.0.1:$port" --no-demo-data >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 1 100); do
  curl -fs "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
  sleep 0.2
done
INTAKE_KEY_SECRET=$secret "$bin" bench --base-url "http://127.0.0.1:$port" --key-id "$key_id" \
  --scenario "$scenario" --concurrency 32 --duration 10 --warmup 1 --json >"$work/bench.json" 2>/dev/null &
bench=$!
sleep 3
perf stat -e "syscalls:sys_enter_$syscall" -p "$server" -x, -o "$work/stat.txt" -- sleep 6 >/dev/null 2>&1
wait "$bench" || true
calls=$(grep "sys_enter_$syscall" "$work/stat.txt" | cut -d, -f1)
python3 - "$calls" "$work/bench.json" "$scenario" "$syscall" <<'PY'
import json, sys
calls, bench, scenario, syscall = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
rps = json.load(open(bench))["results"][0]["requestsPerSecond"]
print(f"{scenario}: {calls} {syscall} calls in 6 s at {rps:.0f} req/s = {calls / (rps * 6):.2f} a request")
PY
