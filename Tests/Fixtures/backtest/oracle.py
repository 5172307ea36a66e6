# An independent reference implementation of the firing rules of docs/rules.md, in Python with
# decimal.Decimal, used only to produce the golden files next to it. The Swift tests compare
# pricewatch's backtest (the daemon's engine) with these files, so a mistake would have to be
# made twice, in two languages, to pass unnoticed.
#
# Regenerate: python3 Tests/Fixtures/backtest/oracle.py aapl > Tests/Fixtures/backtest/aapl-demo.expected
#             python3 Tests/Fixtures/backtest/oracle.py monthly > Tests/Fixtures/backtest/monthly.expected
import csv, os, sys
from decimal import Decimal as D
from datetime import datetime, timezone

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "demo", "data")

def parse_time(t):
    if len(t) == 10: return int(datetime.strptime(t, "%Y-%m-%d").replace(tzinfo=timezone.utc).timestamp())
    return int(datetime.fromisoformat(t.replace("Z", "+00:00")).timestamp())

def run(rows, rules):
    rows = sorted(enumerate(rows), key=lambda r: (parse_time(r[1]["time"]), r[0]))
    hist = {}; last = {}; state = {}; out = []
    for _, r in rows:
        sym = r["symbol"]; t = parse_time(r["time"]); p = D(r["price"])
        pc = D(r["previous_close"]) if r.get("previous_close") else None
        if sym in last and t <= last[sym]: continue
        for rule in rules:
            if sym not in rule["symbols"]: continue
            st = state.setdefault((rule["id"], sym), {"phase": "armed", "last": None, "count": 0, "side": None})
            if rule.get("once") and st["count"] > 0: continue
            kind, X = rule["cond"]; r_ = D(rule.get("rearm", "0"))
            base = None
            if kind in ("rise", "fall", "move"):
                frm = rule.get("from", "previous_close")
                if frm == "previous_close": base = pc
                else:
                    cands = [hp for (ht, hp) in hist.get(sym, []) if ht <= t - frm]
                    base = cands[-1] if cands else None
                if base is None: continue
            cd = rule.get("cooldown")
            within = cd is not None and st["last"] is not None and t < st["last"] + cd
            if kind == "crosses":
                side = "up" if p >= X else "down"
                prev = st["side"]; st["side"] = side
                if prev is None or prev == side: continue
                if within: continue
                st["last"] = t; st["count"] += 1; out.append((rule["id"], sym, t, p)); continue
            ch = (p - base) * 100 / base if base else None
            sat = {"above": p >= X, "below": p <= X, "rise": ch is not None and ch >= X,
                   "fall": ch is not None and ch <= -X, "move": ch is not None and abs(ch) >= X}[kind]
            clr = {"above": lambda: p < X * (1 - r_ / 100), "below": lambda: p > X * (1 + r_ / 100),
                   "rise": lambda: ch < X - r_, "fall": lambda: ch > -(X - r_), "move": lambda: abs(ch) < X - r_}[kind]
            if st["phase"] == "armed":
                if sat:
                    if within: continue
                    st["last"] = t; st["count"] += 1; st["phase"] = "fired"; out.append((rule["id"], sym, t, p))
            else:
                if clr(): st["phase"] = "armed"
        hist.setdefault(sym, []).append((t, p)); last[sym] = t
    return out

def fmt(t): return datetime.fromtimestamp(t, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")

if __name__ == "__main__":
    which = sys.argv[1]
    if which == "aapl":
        rows = list(csv.DictReader(open(os.path.join(DATA, "aapl-1m-2024-10-02.csv"))))
        rules = [
            {"id": "aapl-above-225.5", "symbols": ["AAPL"], "cond": ("above", D("225.5")), "rearm": "0.2"},
            {"id": "aapl-below-224", "symbols": ["AAPL"], "cond": ("below", D("224")), "rearm": "0.1"},
            {"id": "aapl-crosses-224.5", "symbols": ["AAPL"], "cond": ("crosses", D("224.5")), "cooldown": 300},
            {"id": "aapl-fall-1pct", "symbols": ["AAPL"], "cond": ("fall", D("1"))},
            {"id": "aapl-move-0.5pct-5m", "symbols": ["AAPL"], "cond": ("move", D("0.5")), "from": 300, "rearm": "0.2"},
            {"id": "aapl-rise-0.5pct-30m", "symbols": ["AAPL"], "cond": ("rise", D("0.5")), "from": 1800, "cooldown": 900},
            {"id": "aapl-above-227-once", "symbols": ["AAPL"], "cond": ("above", D("227")), "once": True},
        ]
    else:
        rows = list(csv.DictReader(open(os.path.join(DATA, "stocks-monthly-2000-2010.csv"))))
        S = ["AAPL", "AMZN", "GOOG", "IBM", "MSFT"]
        rules = [
            {"id": "fall-20pct-90d", "symbols": S, "cond": ("fall", D("20")), "from": 90 * 86400, "rearm": "10"},
            {"id": "rise-25pct-30d", "symbols": S, "cond": ("rise", D("25")), "from": 30 * 86400},
            {"id": "msft-crosses-25", "symbols": ["MSFT"], "cond": ("crosses", D("25")), "cooldown": 180 * 86400},
            {"id": "ibm-below-80", "symbols": ["IBM"], "cond": ("below", D("80")), "rearm": "5"},
        ]
    for a in run(rows, rules): print(a[0], a[1], fmt(a[2]), a[3])
