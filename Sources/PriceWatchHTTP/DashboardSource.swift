import PriceWatchCore

/// Where the HTTP endpoint reads what it shows: implemented by the application on the use
/// cases the command line calls (rules, alerts) and the daemon's liveness.
///
/// Calls come from request handlers, at most once per second each (the endpoint caches the
/// answer); they must not block polling or delivery (read-only store access).
public protocol DashboardSource: Sendable {
    /// The dashboard's data at this moment.
    func snapshot() async -> DashboardSnapshot
    /// Why polling or delivery is not alive, one reason a line; empty when both are.
    func healthProblems() async -> [String]
    /// The alert log `query` selects, newest first, at most `limit` alerts (the page `/alerts`):
    /// what `pricewatch alerts` lists for the same filters.
    func alertLog(matching query: AlertQuery, limit: Int) async -> DashboardAlertLog
    /// The portfolio `name` (every portfolio when nil) valued at the latest recorded prices, as
    /// `pricewatch portfolio` values it (the page `/portfolio/NAME`).
    func portfolios(named name: String?) async -> DashboardPortfolios
    /// The paper-trading leaderboard (`account` nil) or one account's statement and daily
    /// equity, as `pricewatch paper` reports them (the pages `/paper` and `/paper/NAME`).
    func paper(account: String?) async -> DashboardPaper
    /// Every portfolio's and paper account's position in `symbol` (the symbol page's holdings).
    func holdings(of symbol: String) async -> DashboardHoldings
    /// `symbol`'s prices over `range` (never `.oneDay`, which the snapshot holds), as
    /// `pricewatch history --range` reads them (the symbol page's ranges), with their 52-week
    /// range when `range` reaches back 52 weeks (the 1Y read gives the page's).
    func history(of symbol: String, range: HistoryRange) async -> DashboardHistory
    /// Every market of the loaded trading calendars at this moment (the page `/markets`), as
    /// `pricewatch market` lists them; empty without calendars.
    func marketOverview() async -> [DashboardMarket]
    /// Sets the metrics computed when scraped (outbox backlog and age, rules and symbols
    /// watched, build info) in `exporter`.
    func updateScrapedMetrics(_ exporter: MetricsExporter) async
    /// `symbol`'s upcoming earnings and dividend dates the calendar rules read (the symbol
    /// page's events), by date; empty when none is known. A default answering none is provided.
    func events(of symbol: String) async -> [CompanyEvent]
}

extension DashboardSource {
    /// No calendar: no events.
    public func events(of symbol: String) async -> [CompanyEvent] { [] }
}
