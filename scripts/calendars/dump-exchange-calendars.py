#!/usr/bin/env python3
"""Print every session of the given markets from the exchange-calendars package.

One line per session: MARKET DATE OPEN CLOSE BREAK_START BREAK_END, instants in UTC as
YYYY-MM-DDTHH:MMZ, "-" where a session has no break. The calendar agreement test
(Tests/PriceWatchConfigTests/Calendars/CalendarAgreementTests.swift) compares this with
pricewatch's own calendars. Usage: dump-exchange-calendars.py FIRST_YEAR LAST_YEAR MARKET[:LAST_YEAR]...

exchange-calendars builds a calendar only for its default range (about a year ahead) unless
`start` and `end` are given to get_calendar; they are, here.
"""
import sys
import warnings

warnings.simplefilter("ignore")
import exchange_calendars as xc  # noqa: E402
import pandas as pd  # noqa: E402


def instant(value):
    if pd.isna(value):
        return "-"
    return pd.Timestamp(value).tz_convert("UTC").strftime("%Y-%m-%dT%H:%MZ")


def main(argv):
    first, last = int(argv[1]), int(argv[2])
    out = []
    for spec in argv[3:]:
        name, _, market_last = spec.partition(":")
        end_year = int(market_last) if market_last else last
        calendar = xc.get_calendar(name, start=f"{first}-01-01", end=f"{end_year}-12-31")
        schedule = calendar.schedule
        for date, row in schedule.iterrows():
            out.append(" ".join([
                name, date.strftime("%Y-%m-%d"), instant(row["open"]), instant(row["close"]),
                instant(row["break_start"]), instant(row["break_end"]),
            ]))
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main(sys.argv)
