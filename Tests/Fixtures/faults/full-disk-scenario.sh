#!/usr/bin/env bash
# A full disk under a running daemon: the state directory is a small tmpfs that is filled while
# a crossing comes and goes, then freed. Prints the daemon's standard output (its alerts, JSON
# lines) to OUTPUT_DIR/stdout and its log to OUTPUT_DIR/stderr.
#
#   full-disk-scenario.sh PRICEWATCH WORK_DIR OUTPUT_DIR
#
# WORK_DIR holds pricewatch.toml (state = "state/pricewatch.db", stdout sink in JSON) and its
# replay data: several quotes of 10, then 20 (the crossing), then 10s. In a mount namespace of
# its own (unshare --mount, so the host never sees the mount; needs root):
#   1. a 1 MiB tmpfs on WORK_DIR/state; the daemon starts;
#   2. once the first quote is stored, a filler takes every free byte of the tmpfs;
#   3. once the daemon has reported 8 refused commits (the crossing is among them), the filler
#      goes; the daemon must then commit the kept polls and alert on the crossing.
# Exits 0 when the scenario ran (the test judges the output), 2 when a step timed out.
set -euo pipefail

if [ "${PRICEWATCH_FULL_DISK:-}" != "inside" ]; then
    exec unshare --mount --propagation private env PRICEWATCH_FULL_DISK=inside "$0" "$@"
fi

pricewatch=$1
work=$2
output=$3

mkdir -p "$work/state"
mount -t tmpfs -o size=1m,mode=0755 tmpfs "$work/state"

cd "$work"
"$pricewatch" run --config pricewatch.toml --log-target stderr >"$output/stdout" 2>"$output/stderr" &
daemon=$!
trap 'kill -TERM $daemon 2>/dev/null || true; wait $daemon 2>/dev/null || true' EXIT

wait_for() { # DESCRIPTION SECONDS COMMAND...
    local what=$1 seconds=$2
    shift 2
    local end=$((SECONDS + seconds))
    until "$@"; do
        if [ $SECONDS -ge $end ]; then
            echo "full-disk-scenario: timed out waiting for $what" >&2
            exit 2
        fi
        sleep 0.05
    done
}

stored_quotes() {
    sqlite3 "file:$work/state/pricewatch.db?mode=ro" "SELECT count(*) FROM quote" 2>/dev/null || echo 0
}
first_quote_stored() { [ "$(stored_quotes)" -ge 1 ]; }
refusals() { grep -c "database or disk is full" "$output/stderr" || true; }
eight_refusals() { [ "$(refusals)" -ge 8 ]; }

wait_for "the first stored quote" 60 first_quote_stored
# Every free block of the tmpfs (dd stops at ENOSPC).
dd if=/dev/zero of="$work/state/filler" bs=4096 2>/dev/null || true
echo "full-disk-scenario: disk full with $(stored_quotes) quote(s) stored" >&2
wait_for "8 refused commits" 60 eight_refusals
rm -f "$work/state/filler"
echo "full-disk-scenario: space freed" >&2
# Both crossings (up, then down) are kept and alerted; the outbox may print them apart, so the
# daemon is stopped only once both are out (stopping after the first lost the second under load).
both_alerts_printed() { [ "$(grep -c '"rule":"x-crosses-15"' "$output/stdout" || true)" -ge 2 ]; }
wait_for "the alerts of both crossings" 60 both_alerts_printed
kill -TERM $daemon
wait $daemon || true
trap - EXIT
