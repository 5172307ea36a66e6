#!/usr/bin/env python3
"""Reads `journalctl -u pricewatch -o json` output (a file, one JSON object per line) for
scripts/e2e-systemd and answers one question per call, printing the answer on stdout.

  journal.py FILE lines TEXT           count of entries whose MESSAGE contains TEXT
  journal.py FILE alerts [RULE]        count of alert lines (the stdout sink's JSON Lines),
                                       of rule RULE if given
  journal.py FILE alerts-from-pid PID  count of alert lines written by process PID
  journal.py FILE duplicates           exit 1 and list them if an alert id, or a rule, symbol
                                       and quote time, was delivered twice; else print the
                                       number of distinct alerts
  journal.py FILE event NAME           count of entries of an operator event (alert-fired,
                                       configuration-reloaded, configuration-rejected, ...),
                                       found by its MESSAGE_ID
  journal.py FILE structured           exit 1 and list them if a delivered alert has no
                                       "alert fired" entry with its MESSAGE_ID and the fields
                                       PRICEWATCH_ALERT_ID, PRICEWATCH_RULE, PRICEWATCH_SYMBOL;
                                       else print the number of alerts checked
  journal.py FILE store DB             exit 1 and list the differences unless the alert ids in
                                       the state database DB (table alert) are exactly the
                                       delivered ones; else print their number
  journal.py FILE show                 the messages, one line each, with their PID (for a
                                       failure report)
"""
import json
import sqlite3
import sys


# The journal MESSAGE_IDs of Sources/PriceWatchSystemd/OperatorEventMessageID.swift (fixed forever).
MESSAGE_IDS = {
    "alert-fired": "5543079bbf4649709b214a9d0111fad7",
    "delivery-dead-lettered": "27811feb625046b8896d6b338066355f",
    "configuration-reloaded": "945e35f766c747f6bea7da72ca183a40",
    "configuration-rejected": "24a3a6bebcb84725afdf71bba4a9cbe9",
    "provider-failing": "98be351dce404f41b42930e9ce3cea5d",
    "scheduler-stalled": "98f75738213248518979902d3cb273e1",
}


def message(entry):
    value = entry.get("MESSAGE", "")
    if isinstance(value, list):  # the journal hands non-UTF-8 or binary messages as bytes
        value = bytes(value).decode("utf-8", "replace")
    return value if isinstance(value, str) else ""


def entries(path):
    with open(path, encoding="utf-8") as file:
        for line in file:
            line = line.strip()
            if line:
                yield json.loads(line)


def alerts(path):
    """The stdout sink's alert lines: a JSON object with an id, a rule and a symbol."""
    for entry in entries(path):
        text = message(entry)
        if not text.startswith("{"):
            continue
        try:
            alert = json.loads(text)
        except json.JSONDecodeError:
            continue
        if isinstance(alert, dict) and {"id", "rule", "symbol", "time"} <= alert.keys():
            yield entry, alert


def main(arguments):
    if len(arguments) < 2:
        print(__doc__, file=sys.stderr)
        return 64
    path, command, rest = arguments[0], arguments[1], arguments[2:]
    if command == "lines" and len(rest) == 1:
        print(sum(1 for entry in entries(path) if rest[0] in message(entry)))
    elif command == "alerts" and len(rest) <= 1:
        print(sum(1 for _, alert in alerts(path) if not rest or alert["rule"] == rest[0]))
    elif command == "alerts-from-pid" and len(rest) == 1:
        print(sum(1 for entry, _ in alerts(path) if entry.get("_PID") == rest[0]))
    elif command == "duplicates" and not rest:
        seen_ids, seen_crossings, duplicates = set(), set(), []
        for entry, alert in alerts(path):
            crossing = (alert["rule"], alert["symbol"], alert["time"])
            if alert["id"] in seen_ids or crossing in seen_crossings:
                duplicates.append(f"pid {entry.get('_PID', '?')}: {message(entry)}")
            seen_ids.add(alert["id"])
            seen_crossings.add(crossing)
        if duplicates:
            print("delivered twice:\n  " + "\n  ".join(duplicates))
            return 1
        print(len(seen_ids))
    elif command == "event" and len(rest) == 1 and rest[0] in MESSAGE_IDS:
        print(sum(1 for entry in entries(path) if entry.get("MESSAGE_ID") == MESSAGE_IDS[rest[0]]))
    elif command == "structured" and not rest:
        fired = {
            (entry.get("PRICEWATCH_ALERT_ID"), entry.get("PRICEWATCH_RULE"), entry.get("PRICEWATCH_SYMBOL"))
            for entry in entries(path) if entry.get("MESSAGE_ID") == MESSAGE_IDS["alert-fired"]
        }
        delivered = [alert for _, alert in alerts(path)]
        missing = [a for a in delivered if (a["id"], a["rule"], a["symbol"]) not in fired]
        if missing or not delivered:
            print("no structured 'alert fired' entry for:\n  " + "\n  ".join(
                f'{a["id"]} rule {a["rule"]} symbol {a["symbol"]}' for a in missing) if missing else "no alerts at all")
            return 1
        print(len(delivered))
    elif command == "store" and len(rest) == 1:
        with sqlite3.connect(rest[0]) as database:
            stored = {row[0] for row in database.execute("SELECT id FROM alert")}
        delivered = {alert["id"] for _, alert in alerts(path)}
        if stored != delivered or not stored:
            print(f"the store has {len(stored)} alerts, {len(delivered)} were delivered; "
                  f"stored, not delivered: {sorted(stored - delivered)}; delivered, not stored: {sorted(delivered - stored)}")
            return 1
        print(len(stored))
    elif command == "show" and not rest:
        for entry in entries(path):
            print(f"  [{entry.get('_PID', '-')}] {message(entry)}")
    else:
        print(__doc__, file=sys.stderr)
        return 64
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
