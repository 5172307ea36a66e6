#!/usr/bin/env bash
# Drives `pricewatch run` with its standard error on the journal (run inside
# journald-sandbox.sh):
#
#   journal-scenario.sh PRICEWATCH CONFIG_DIR
#
# 1. starts the daemon under systemd-cat (standard output and error are a journal stream)
#    with JOURNAL_STREAM naming that stream, as systemd does, so `--log-target auto` picks
#    the journal; waits until the journal has an alert;
# 2. replaces rules.d/x.toml with alternatives/broken.toml and sends SIGHUP; waits for the
#    rejection;
# 3. replaces it with alternatives/next.toml and sends SIGHUP; waits for the reload;
# 4. sends SIGTERM and waits for the daemon to exit (its status is this script's).
#
# Each wait is for an entry with PRICEWATCH_EVENT=... in the journal, with a deadline.
set -euo pipefail
binary=$1
config=$2

wait_for_event() {
    local event=$1
    for _ in $(seq 1 1200); do
        if [ -n "$(journalctl --directory=/run/log/journal --no-pager -o cat "PRICEWATCH_EVENT=$event" 2>/dev/null)" ]; then
            return 0
        fi
        kill -0 "$daemon" 2>/dev/null || { echo "journal-scenario: the daemon exited before '$event'" >&2; return 1; }
        sleep 0.05
    done
    echo "journal-scenario: no '$event' entry within 60 s" >&2
    return 1
}

cd "$config"
setpriv --pdeathsig KILL systemd-cat --identifier=pricewatch-output sh -c \
    'JOURNAL_STREAM=$(stat -L -c %d:%i /proc/self/fd/2); export JOURNAL_STREAM; exec "$0" run --config pricewatch.toml --log-target auto' \
    "$binary" &
daemon=$!
trap 'kill -9 "$daemon" 2>/dev/null || true' EXIT

wait_for_event alert-fired
cp alternatives/broken.toml rules.d/x.toml
kill -HUP "$daemon"
wait_for_event configuration-rejected
cp alternatives/next.toml rules.d/x.toml
kill -HUP "$daemon"
wait_for_event configuration-reloaded
kill -TERM "$daemon"
status=0
wait "$daemon" || status=$?
trap - EXIT
exit "$status"
