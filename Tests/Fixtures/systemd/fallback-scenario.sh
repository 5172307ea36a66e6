#!/usr/bin/env bash
# `pricewatch run --log-target journal` where no journal listens (run inside
# `journald-sandbox.sh --no-journald`): the log lines must arrive on standard error instead.
#
#   fallback-scenario.sh PRICEWATCH CONFIG_DIR
#
# Writes the daemon's standard error to CONFIG_DIR/stderr.log; waits until it has an alert
# line, then stops the daemon with SIGTERM (its status is this script's).
set -euo pipefail
binary=$1
config=$2
cd "$config"
setpriv --pdeathsig KILL "$binary" run --config pricewatch.toml --log-target journal > stdout.log 2> stderr.log &
daemon=$!
trap 'kill -9 "$daemon" 2>/dev/null || true' EXIT
for _ in $(seq 1 1200); do
    grep -q "alert fired" stderr.log && break
    kill -0 "$daemon" 2>/dev/null || { echo "fallback-scenario: the daemon exited" >&2; exit 1; }
    sleep 0.05
done
kill -TERM "$daemon"
status=0
wait "$daemon" || status=$?
trap - EXIT
exit "$status"
