#!/usr/bin/env bash
# Runs a command beside a real, private systemd-journald and dumps what it logged.
#
#   journald-sandbox.sh [--no-journald] OUTPUT_DIR COMMAND [ARG...]
#
# In a mount namespace of its own (unshare --mount, so nothing on the host changes and the
# host's journal never sees the test): a tmpfs over /run (giving an empty
# /run/systemd/journal and /run/log/journal) and over /var/log/journal, then
# /lib/systemd/systemd-journald standalone (as root; it creates its own sockets), then
# COMMAND. Afterwards journald is synced and stopped, and the journal is written as JSON
# lines (journalctl -o json) to OUTPUT_DIR/journal.json. With --no-journald nothing listens
# on the journal socket (the fallback case). Exits with COMMAND's status.
#
# journald and COMMAND run under `setpriv --pdeathsig KILL`: if this script is killed (the test
# process that started it died), they die too instead of living on in the namespace.
set -euo pipefail

if [ "${PRICEWATCH_JOURNALD_SANDBOX:-}" != "inside" ]; then
    exec unshare --mount --propagation private env PRICEWATCH_JOURNALD_SANDBOX=inside "$0" "$@"
fi

start_journald=yes
if [ "${1:-}" = "--no-journald" ]; then
    start_journald=no
    shift
fi
output=$1
shift

mount -t tmpfs -o mode=0755 tmpfs /run
if [ -d /var/log/journal ]; then mount -t tmpfs -o mode=0755 tmpfs /var/log/journal; fi
mkdir -p /run/systemd/journal /run/log/journal

journald=
stop_journald() {
    if [ -n "$journald" ]; then
        kill "$journald" 2>/dev/null || true
        wait "$journald" 2>/dev/null || true
        journald=
    fi
}
trap stop_journald EXIT

if [ "$start_journald" = yes ]; then
    setpriv --pdeathsig KILL /lib/systemd/systemd-journald &
    journald=$!
    for _ in $(seq 1 1000); do
        [ -S /run/systemd/journal/socket ] && break
        kill -0 "$journald" 2>/dev/null || { echo "journald-sandbox: systemd-journald exited at start" >&2; exit 70; }
        sleep 0.01
    done
    [ -S /run/systemd/journal/socket ] || { echo "journald-sandbox: no journal socket after 10 s" >&2; exit 70; }
fi

status=0
setpriv --pdeathsig KILL "$@" || status=$?

if [ "$start_journald" = yes ]; then
    journalctl --sync
    stop_journald
    journalctl --directory=/run/log/journal --output=json --no-pager > "$output/journal.json"
fi
exit "$status"
