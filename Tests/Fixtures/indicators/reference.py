# An independent reference of pricewatch's technical rules (docs/rules.md, "Technical rules"):
# every series computed the straightforward way from its Pine v5 `ta.*` definition (each bar
# from the whole list of closes, no running sums), bars grouped from the rows, and the firing
# rules run with decimal.Decimal. The Swift tests compare the daemon's engine with it, alert for
# alert and value for value, so a mistake would have to be made twice, in two languages.
#
#   python3 reference.py alerts RULES.toml DATA.csv   one line per alert: rule symbol time price
#   python3 reference.py values TIMEFRAME DATA.csv    one line per closed bar and series
#
# Standard library only (tomllib needs Python 3.11).
import csv, math, sys, tomllib
from datetime import datetime, timezone
from decimal import Decimal as D, ROUND_HALF_EVEN

TIMEFRAMES = {"1m": 60, "5m": 300, "15m": 900, "30m": 1800, "1h": 3600, "2h": 7200, "4h": 14400, "1d": 86400, "1w": 604800}

def parse_time(t):
    if len(t) == 10:
        return int(datetime.strptime(t, "%Y-%m-%d").replace(tzinfo=timezone.utc).timestamp())
    return int(datetime.fromisoformat(t.replace("Z", "+00:00")).timestamp())

def fmt(t):
    return datetime.fromtimestamp(t, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")

def bar_start(t, seconds):
    if seconds == 604800:  # weeks start on Monday 00:00 UTC
        day = t // 86400
        return (day - (day + 3) % 7) * 86400
    return t // seconds * seconds

# --- the series, from the list of closes c[0..i] ------------------------------------------

def sma(c, i, n):
    return sum(c[i - n + 1:i + 1]) / n if i >= n - 1 else None

def recursive(values, i, n, alpha):
    # ta.ema / ta.rma over values[0..i] (None until the first defined input): the sma of the
    # first n defined inputs, then alpha * x + (1 - alpha) * previous.
    defined = [k for k in range(i + 1) if values[k] is not None]
    if len(defined) < n: return None
    first = defined[0]
    avg = sum(values[first:first + n]) / n
    for k in range(first + n, i + 1):
        avg = alpha * values[k] + (1 - alpha) * avg
    return avg

def ema(c, i, n): return recursive(c, i, n, 2 / (n + 1))

def wma(c, i, n):
    if i < n - 1: return None
    return sum((n - k) * c[i - k] for k in range(n)) / (n * (n + 1) / 2)

def rsi(c, i, n):
    ups = [None] + [max(c[k] - c[k - 1], 0) for k in range(1, i + 1)]
    downs = [None] + [max(c[k - 1] - c[k], 0) for k in range(1, i + 1)]
    up, down = recursive(ups, i, n, 1 / n), recursive(downs, i, n, 1 / n)
    if up is None or down is None: return None
    if down == 0: return 100.0
    if up == 0: return 0.0
    return 100 - 100 / (1 + up / down)

def macd_lines(c, i, fast, slow, signal):
    line = [None if ema(c, k, slow) is None else ema(c, k, fast) - ema(c, k, slow) for k in range(i + 1)]
    sig = recursive(line, i, signal, 2 / (signal + 1))
    return line[i], sig

def macd(c, i, f, s, g): return macd_lines(c, i, f, s, g)[0]
def macd_signal(c, i, f, s, g): return macd_lines(c, i, f, s, g)[1]
def macd_hist(c, i, f, s, g):
    m, sig = macd_lines(c, i, f, s, g)
    return None if m is None or sig is None else m - sig

def stdev(c, i, n):
    mean = sma(c, i, n)
    return math.sqrt(sum((x - mean) ** 2 for x in c[i - n + 1:i + 1]) / n)

def bb_middle(c, i, n): return sma(c, i, n)
def bb_upper(c, i, n, k): return None if i < n - 1 else sma(c, i, n) + k * stdev(c, i, n)
def bb_lower(c, i, n, k): return None if i < n - 1 else sma(c, i, n) - k * stdev(c, i, n)
def highest(c, i, n): return max(c[i - n:i]) if i >= n else None
def lowest(c, i, n): return min(c[i - n:i]) if i >= n else None
def roc(c, i, n): return 100 * (c[i] - c[i - n]) / c[i - n] if i >= n else None
def price(c, i): return c[i]

SERIES = {f.__name__: f for f in [price, sma, ema, wma, rsi, macd, macd_signal, macd_hist, bb_upper, bb_middle, bb_lower, highest, lowest, roc]}

def parse_series(text):
    text = text.replace(" ", "")
    if "(" not in text: return text, []
    name, args = text[:-1].split("(")
    return name, [float(a) if "." in a else int(a) for a in args.split(",")]

def value(spec, closes, i):
    name, args = spec
    v = SERIES[name](closes, i, *args)
    # Values are compared at 8 decimals, as the daemon compares prices.
    return None if v is None else D(repr(v)).quantize(D("1e-8"), rounding=ROUND_HALF_EVEN)

# --- the firing rules, on bars ---------------------------------------------------------------

def read_rows(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    rows = sorted(enumerate(rows), key=lambda r: (parse_time(r[1]["time"]), r[0]))
    return [(r["symbol"], parse_time(r["time"]), D(r["price"]), D(r["previous_close"]) if r.get("previous_close") else None)
            for _, r in rows]

def duration(text):
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    total, number = 0, ""
    for ch in text:
        if ch.isdigit(): number += ch
        else: total += int(number) * units[ch]; number = ""
    return total

def read_rules(path):
    rules = []
    for r in tomllib.load(open(path, "rb"))["rule"]:
        cond = [k for k in ("above", "below", "crosses", "rise", "fall", "move") if k in r][0]
        level = r[cond]
        rules.append({
            "id": r["id"], "symbols": r.get("symbols") or [r["symbol"]], "tf": TIMEFRAMES[r["timeframe"]],
            "of": parse_series(r.get("of", "price")), "cond": cond,
            "level": parse_series(level) if isinstance(level, str) else D(str(level)),
            "rearm": D(str(r.get("rearm", 0))), "cooldown": duration(r["cooldown"]) if "cooldown" in r else None,
            "once": r.get("once", False), "from": r.get("from", "previous_close"), "trigger": r.get("trigger", "close"),
        })
    return rules

def alerts(rules_path, data_path):
    rules, rows = read_rules(rules_path), read_rows(data_path)
    out, state, last = [], {}, {}
    # per (symbol, timeframe): closes of closed bars, their last quotes, the forming bar
    tracks = {}
    series_hist = {}

    def evaluate(rule, sym, closes, i, quote, key):
        t, p, pc = quote
        of = value(rule["of"], closes, i)
        lv = value(rule["level"], closes, i) if isinstance(rule["level"], tuple) else rule["level"]
        if of is None or lv is None: return
        st = state.setdefault((rule["id"], sym), {"phase": "armed", "last": None, "count": 0, "side": None})
        if rule["once"] and st["count"] > 0: return
        kind, X, r_ = rule["cond"], lv, rule["rearm"]
        base = None
        if kind in ("rise", "fall", "move"):
            if rule["from"] == "previous_close": base = pc
            else:
                w = duration(rule["from"])
                cands = [v for (ht, v) in series_hist.get(key, []) if ht <= t - w]
                base = cands[-1] if cands else None
            if base is None: return
        within = rule["cooldown"] is not None and st["last"] is not None and t < st["last"] + rule["cooldown"]
        v = of
        if kind == "crosses":
            side = "up" if v >= X else "down"
            prev = st["side"]; st["side"] = side
            if prev is None or prev == side or within: return
            st["last"] = t; st["count"] += 1; out.append((rule["id"], sym, t, p)); return
        ch = (v - base) * 100 / base if base else None
        sat = {"above": v >= X, "below": v <= X, "rise": ch is not None and ch >= X,
               "fall": ch is not None and ch <= -X, "move": ch is not None and abs(ch) >= X}[kind]
        clr = {"above": lambda: v * 100 < X * 100 - abs(X) * r_, "below": lambda: v * 100 > X * 100 + abs(X) * r_,
               "rise": lambda: ch < X - r_, "fall": lambda: ch > -(X - r_), "move": lambda: abs(ch) < X - r_}[kind]
        if st["phase"] == "armed":
            if sat and not within:
                st["last"] = t; st["count"] += 1; st["phase"] = "fired"; out.append((rule["id"], sym, t, p))
        elif clr():
            st["phase"] = "armed"

    for sym, t, p, pc in rows:
        if p <= 0 or (sym in last and t <= last[sym]): continue
        last[sym] = t
        for tf in sorted({r["tf"] for r in rules if sym in r["symbols"]}):
            tr = tracks.setdefault((sym, tf), {"closes": [], "quotes": [], "start": None, "quote": None})
            start = bar_start(t, tf)
            if tr["start"] is not None and start > tr["start"]:
                tr["closes"].append(float(tr["quote"][1])); tr["quotes"].append(tr["quote"])
                i = len(tr["closes"]) - 1
                for rule in rules:
                    if sym in rule["symbols"] and rule["tf"] == tf and rule["trigger"] == "close":
                        evaluate(rule, sym, tr["closes"], i, tr["quote"], (rule["id"], sym))
                        v = value(rule["of"], tr["closes"], i)
                        if v is not None: series_hist.setdefault((rule["id"], sym), []).append((tr["quote"][0], v))
            tr["start"], tr["quote"] = start, (t, p, pc)
            for rule in rules:
                if sym in rule["symbols"] and rule["tf"] == tf and rule["trigger"] == "tick":
                    closes = tr["closes"] + [float(p)]
                    evaluate(rule, sym, closes, len(closes) - 1, (t, p, pc), (rule["id"], sym))
    return out

def values(timeframe, data_path, specs):
    rows = read_rows(data_path)
    tf = TIMEFRAMES[timeframe]
    closes, forming, start, out = {}, {}, {}, []
    for sym, t, p, pc in rows:
        b = bar_start(t, tf)
        if sym in start and b > start[sym]:
            c = closes.setdefault(sym, []); c.append(float(forming[sym][1]))
            for spec in specs:
                v = SERIES[spec[0]](c, len(c) - 1, *spec[1])
                out.append(f"{sym} {fmt(forming[sym][0])} {spec_text(spec)} {'-' if v is None else repr(v)}")
        start[sym], forming[sym] = b, (t, p)
    return out

def spec_text(spec):
    name, args = spec
    return name if not args else f"{name}({','.join(str(a) for a in args)})"

DEFAULT_SPECS = ["price", "sma(3)", "sma(20)", "ema(3)", "ema(12)", "wma(5)", "rsi(3)", "rsi(14)", "macd(12,26,9)",
                 "macd_signal(3,6,4)", "macd_hist(12,26,9)", "bb_upper(20,2)", "bb_middle(5)", "bb_lower(10,2.5)",
                 "highest(5)", "lowest(12)", "roc(1)", "roc(10)"]

if __name__ == "__main__":
    if sys.argv[1] == "alerts":
        for rule, sym, t, p in alerts(sys.argv[2], sys.argv[3]):
            print(rule, sym, fmt(t), p)
    elif sys.argv[1] == "values":
        for line in values(sys.argv[2], sys.argv[3], [parse_series(s) for s in DEFAULT_SPECS]):
            print(line)
