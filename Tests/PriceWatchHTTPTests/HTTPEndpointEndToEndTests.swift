import CompressNIO
import Foundation
import NIOCore
import PriceWatchCore
import PriceWatchCurl
import PriceWatchTestKit
import Synchronization
import Testing

/// The endpoint of the running daemon (`pricewatch run` over the demo configuration) on
/// loopback: metrics (checked by promtool), health, the dashboard, the limits and the token.
@Suite(.serialized) struct HTTPEndpointEndToEndTests {
    @Test func headIsAnsweredWhereverGetIsWithTheSameHeadersAndNoBody() async throws {
        let demo = try DashboardDaemon()
        try await demo.waitUntilListening()
        for path in ["/", "/healthz", "/metrics", "/sections", "/events", "/symbol/AAPL", "/alerts", "/markets", "/portfolio", "/silences", "/paper"] {
            let head = try await RawHTTP.exchange(port: demo.port, method: "HEAD", path: path)
            #expect(head.status.hasPrefix("HTTP/1.1 "), "HEAD \(path): \(head.status)")
            #expect(!head.status.hasPrefix("HTTP/1.1 404"), "HEAD \(path): \(head.status)")
            #expect(head.body.isEmpty, "HEAD \(path) has no body: \(head.body.prefix(200))")
            guard path != "/events" else {
                #expect(head.status == "HTTP/1.1 200 OK")
                #expect(head.headers["content-type"] == "text/event-stream")
                continue
            }
            let get = try await RawHTTP.exchange(port: demo.port, method: "GET", path: path)
            #expect(get.status == head.status, "GET \(path): \(get.status)")
            #expect(Set(head.headers.keys.filter { $0 != "date" }) == Set(get.headers.keys.filter { $0 != "date" }),
                    "\(path): HEAD \(head.headers), GET \(get.headers)")
            #expect(head.headers["content-type"] == get.headers["content-type"])
            #expect(head.headers["content-length"] != nil, "\(path): the length GET's body would have")
        }
        let health = try await RawHTTP.exchange(port: demo.port, method: "GET", path: "/healthz")
        let healthHead = try await RawHTTP.exchange(port: demo.port, method: "HEAD", path: "/healthz")
        #expect(healthHead.headers["content-length"] == "\(health.body.utf8.count)")
        #expect(try await demo.daemon.stop() == 0, "standard error: \(demo.daemon.errorLines.suffix(8))")
    }

    /// Issue 26: the symbol page of the demo's AAPL: its chart (once three prices are in),
    /// the alert the first quote fired, a link from the watchlist; 404 for a symbol no rule
    /// watches.
    @Test func theSymbolPageOfTheDemo() async throws {
        let demo = try DashboardDaemon()
        try await demo.waitUntilListening()
        let page = try await waitFor("the AAPL page to show its chart and the alert of aapl-above-225.5") { () async -> String? in
            guard let response = await demo.request("/symbol/AAPL"), response.status == 200 else { return nil }
            let page = String(decoding: response.body, as: UTF8.self)
            return page.contains("class=\"chart chart-light\"") && page.contains("aapl-above-225.5") ? page : nil
        }
        #expect(page.contains("<h1>AAPL</h1>"))
        #expect(page.contains("<desc>AAPL today, "), "the chart's summary")
        #expect(page.contains(">prev close") || !page.contains("previous close"), "a known previous close is drawn")
        #expect(page.contains("<dt>Day range</dt>"))
        let dashboard = try #require(await demo.text("/"))
        #expect(dashboard.contains("<a href=\"symbol/AAPL\">AAPL</a>"))
        let markets = try #require(await demo.text("/markets"))
        #expect(markets.contains("<a href=\"symbol/AAPL\">AAPL</a>"), "the markets page lists the watched symbol")
        // The alert log page, filtered as `pricewatch alerts` filters.
        let alerts = try #require(await demo.text("/alerts?rule=aapl-above-225.5"))
        #expect(alerts.contains("<td>aapl-above-225.5</td>"))
        #expect(!alerts.contains("<td>aapl-below-224</td>"), "only the rule asked for")
        #expect(alerts.contains("console: delivered") || alerts.contains("console: pending"))
        let bad = try #require(await demo.request("/alerts?status=lost"))
        #expect(bad.status == 400)
        #expect(String(decoding: bad.body, as: UTF8.self).contains("status: expected one of pending, delivered, dead, silenced, found &quot;lost&quot;"))
        let missing = try #require(await demo.request("/symbol/NOPE"))
        #expect(missing.status == 404)
        #expect(String(decoding: missing.body, as: UTF8.self).contains("no rule watches the symbol NOPE"))
        #expect(try await demo.daemon.stop() == 0, "standard error: \(demo.daemon.errorLines.suffix(8))")
    }

    /// Issue 26: one figure, one definition. With the replay at its end (four recorded rows),
    /// the watchlist and the symbol page show the price and the change from the previous close
    /// that `pricewatch watch --format json` prints for the same state.
    @Test func thePagesShowTheFiguresOfWatch() async throws {
        let demo = try DashboardDaemon(rows: 4)
        try await demo.waitUntilListening()
        // The fourth row: 224.89, previous close 226.21.
        let watch = try await waitFor("watch to print the fourth row's price") { () async throws -> String? in
            let result = try await CommandRunner.run(["watch", "--config", "pricewatch.toml", "--format", "json"], in: demo.directory.path)
            guard result.status == 0, let line = result.outputLines.first, line.contains("\"price\":224.89") else { return nil }
            return line
        }
        #expect(watch.contains("\"change\":-0.58"), "\(watch)")
        let lastPage = Mutex<String?>(nil)
        let page = try await waitFor("the watchlist on port \(demo.port) to show the fourth row's price; "
                                     + "the daemon's standard error ends: \(demo.daemon.errorLines.suffix(4)); the last page's rows: "
                                     + "\(lastPage.withLock { $0 }.map { $0.split(separator: "\n").filter { $0.contains("<td") } } ?? [])") {
            () async -> String? in
            let page = await demo.text("/")
            lastPage.withLock { $0 = page }
            guard let page, page.contains("<td class=\"price\">224.89</td>") else { return nil }
            return page
        }
        #expect(page.contains("<td class=\"price\">224.89</td><td class=\"change down\">-0.58%</td>"), "the watchlist's figures")
        let symbol = try #require(await demo.text("/symbol/AAPL"))
        #expect(symbol.contains("<span class=\"price big\">224.89</span>"), "the symbol page's price")
        #expect(symbol.contains("<span class=\"change down\">-0.58%</span>"), "the symbol page's change")
        #expect(try await demo.daemon.stop() == 0, "standard error: \(demo.daemon.errorLines.suffix(8))")
    }

    /// Issue 26, item 2: the symbol page's ranges read the history `pricewatch history` reads
    /// (the demo stores none, and its replay provider has no chart endpoint: the page says so);
    /// an unknown range is a 400 naming the ranges.
    @Test func theSymbolPagesRangesReadTheHistoryOfTheCommandLine() async throws {
        let demo = try DashboardDaemon(rows: 4)
        try await demo.waitUntilListening()
        _ = try await waitFor("AAPL on the watchlist") { () async -> Bool? in
            await demo.text("/")?.contains("<tr data-symbol=\"AAPL\"") == true ? true : nil
        }
        let command = try await CommandRunner.run(["history", "AAPL", "--range", "5d", "--config", "pricewatch.toml"], in: demo.directory.path)
        let page = try #require(await demo.request("/symbol/AAPL?range=5d"))
        #expect(page.status == 200)
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(html.contains("<a href=\"?range=5d\" aria-current=\"page\">5D</a>"))
        let reason = try #require(command.standardError.split(separator: "\n").last.map(String.init), "history says why")
        #expect(command.status != 0 && reason.contains("no stored history of AAPL in this range"), "\(command.standardError)")
        #expect(html.contains("no chart over 5 days: no stored history of AAPL in this range"), "the command's reason: \(reason)")
        #expect(html.contains("<dt>52-week range</dt><dd>"), "the facts' 52-week range, from the 1Y read")
        let bad = try #require(await demo.request("/symbol/AAPL?range=2w"))
        #expect(bad.status == 400)
        #expect(String(decoding: bad.body, as: UTF8.self).contains("range: expected one of 1d, 5d, 1mo, 6mo, 1y, 5y, found &quot;2w&quot;"))
        let head = try await RawHTTP.exchangeBytes(port: demo.port, method: "HEAD", path: "/symbol/AAPL?range=1y")
        #expect(head.status == "HTTP/1.1 200 OK" && head.body.isEmpty, "HEAD of a range")
        #expect(try await demo.daemon.stop() == 0, "standard error: \(demo.daemon.errorLines.suffix(8))")
    }

    /// Issue 26, item 3: `[http] markets` is the markets page's list, polled through the main
    /// file's provider: its tile shows the replayed price.
    @Test func theMarketsListIsPolledAndShown() async throws {
        let demo = try DashboardDaemon(http: "markets = [\"AAPL\"]\n", rows: 4)
        try await demo.waitUntilListening()
        let page = try await waitFor("the markets list to show AAPL's price") { () async -> String? in
            guard let page = await demo.text("/markets"), page.contains("<article class=\"tile\" data-symbol=\"AAPL\">"),
                  page.contains("<span class=\"price\">2") else { return nil }
            return page
        }
        #expect(page.contains("<h3><a href=\"symbol/AAPL\">AAPL</a></h3>"))
        #expect(try await demo.daemon.stop() == 0, "standard error: \(demo.daemon.errorLines.suffix(8))")
    }

    /// Issue 26: a portfolio's page shows the figures `pricewatch portfolio` prints for the
    /// same state (the demo replayed to its fourth row, 224.89); an unknown name is a 404
    /// naming the portfolios there are.
    @Test func thePortfolioPageShowsTheFiguresOfPortfolio() async throws {
        let demo = try DashboardDaemon(rows: 4)
        try demo.directory.write("portfolios.d/core.toml",
                                 "currency = \"USD\"\n[[lot]]\nsymbol = \"AAPL\"\nquantity = 10\nprice = 200\ncurrency = \"USD\"\ndate = 2024-01-02\n")
        _ = chmod(demo.directory.file("portfolios.d/core.toml"), 0o640)
        try await demo.waitUntilListening()
        let text = try await waitFor("portfolio to value AAPL at the fourth row's price") { () async throws -> String? in
            let result = try await CommandRunner.run(["portfolio", "core", "--config", "pricewatch.toml"], in: demo.directory.path)
            guard result.status == 0, result.standardOutput.contains("224.89") else { return nil }
            return result.standardOutput
        }
        // 10 x 224.89 = 2,248.90 against a cost of 2,000.00; the recorded price is of 2024, so
        // both leave it out of the totals as stale.
        #expect(text.contains("AAPL    10        USD  2000.00  224.89  2248.90  -13.20  248.90      +12.45%  2248.90"), "\(text)")
        #expect(text.contains("not in the totals: AAPL: stale price of 2024-10-02T13:33:00Z (replay)"), "\(text)")
        #expect(text.contains("total value 0.00 USD; cost 0.00; unrealised 0.00"), "\(text)")
        let page = try await waitFor("the page to value AAPL at the same price") { () async -> String? in
            guard let page = await demo.text("/portfolio/core"), page.contains("224.89") else { return nil }
            return page
        }
        #expect(page.contains("<td>2000.00 USD</td><td class=\"price\">224.89</td><td>2248.90</td><td>-13.20</td>"
                              + "<td class=\"up\">248.90</td><td class=\"up\">+12.45%</td><td>2248.90</td>"), "the row of portfolio")
        #expect(page.contains("not in the totals: AAPL: stale price of 2024-10-02T13:33:00Z (replay)"))
        #expect(page.contains("<dt>Value</dt><dd>0.00</dd>"), "the total of portfolio")
        #expect(page.contains("<a href=\"../symbol/AAPL\">AAPL</a>"))
        let all = try #require(await demo.text("/portfolio"))
        #expect(all.contains("<a href=\"symbol/AAPL\">AAPL</a>"))
        // The symbol's page says where it is held, with the portfolio's figures.
        let symbol = try #require(await demo.text("/symbol/AAPL"))
        #expect(symbol.contains("<tr><td>portfolio <a href=\"../portfolio/core\">core</a></td><td>10</td><td>2000.00 USD</td>"
                                + "<td>2248.90</td><td class=\"up\">248.90</td></tr>"), "the holding: \(symbol)")
        let unknown = try #require(await demo.request("/portfolio/nope"))
        #expect(unknown.status == 404)
        #expect(String(decoding: unknown.body, as: UTF8.self).contains("no portfolio named nope; portfolios: <a href=\"core\">core</a>"))
        #expect(try await demo.daemon.stop() == 0, "standard error: \(demo.daemon.errorLines.suffix(8))")
    }

    /// Issue 26: the paper pages show `pricewatch paper`'s figures: an account opened and
    /// filled while the daemon replays the demo's first 30 rows, both read once the replay has
    /// ended at the 30th (223.36), so the page and the command value the position alike.
    @Test func thePaperPagesShowTheFiguresOfPaper() async throws {
        // Rows enough that the order is placed before the replay ends (it fills at the next
        // quote polled after it, and there is none after the last row).
        let demo = try DashboardDaemon(rows: 30)
        try await demo.waitUntilListening()
        func paper(_ arguments: [String]) async throws -> CommandRunner.Result {
            try await CommandRunner.run(["paper"] + arguments + ["--config", "pricewatch.toml"], in: demo.directory.path)
        }
        let opened = try await paper(["open", "alice", "--cash", "10000", "--currency", "USD"])
        #expect(opened.status == 0, "\(opened.standardError)")
        let bought = try await paper(["buy", "alice", "AAPL", "10", "--limit", "1000", "--order-id", "o1"])
        #expect(bought.status == 0, "\(bought.standardError)")
        // The order fills at the next quote the daemon polls after it was placed.
        _ = try await waitFor("alice's order to fill") { () async throws -> Bool? in
            let show = try await paper(["show", "alice"])
            return show.status == 0 && show.standardOutput.contains("filled") ? true : nil
        }
        _ = try await waitFor("the watchlist to show the last row's price", timeout: .seconds(120)) { () async -> Bool? in
            await demo.text("/")?.contains("<td class=\"price\">223.36</td>") == true ? true : nil
        }
        let shown = try await paper(["show", "alice"]).standardOutput
        let equity = try #require(shown.split(separator: "\n").first { $0.hasPrefix("equity") }, "\(shown)")
        let figure = try #require(equity.split(separator: " ").dropFirst().first, "\(equity)")
        let page = try #require(await demo.request("/paper/alice"))
        #expect(page.status == 200)
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(html.contains("<dt>Equity</dt><dd>\(figure) USD</dd>"), "paper show says \(equity)")
        #expect(html.contains("<a href=\"../symbol/AAPL\">AAPL</a>"))
        #expect(html.contains("filled"), "the order and its fill")
        let board = try #require(await demo.text("/paper"))
        #expect(board.contains("<a href=\"paper/alice\">alice</a>"))
        let symbol = try #require(await demo.text("/symbol/AAPL"))
        #expect(symbol.contains("<tr><td>paper <a href=\"../paper/alice\">alice</a></td><td>10</td>"), "the paper holding: \(symbol)")
        #expect(!symbol.contains("not held in any portfolio or paper account"))
        let unknown = try #require(await demo.request("/paper/bob"))
        #expect(unknown.status == 404)
        #expect(try await demo.daemon.stop() == 0, "standard error: \(demo.daemon.errorLines.suffix(8))")
    }

    @Test func theDashboardIsGzippedForClientsThatAcceptIt() async throws {
        let demo = try DashboardDaemon()
        try await demo.waitUntilListening()
        for path in ["/", "/sections"] {
            let zipped = try await RawHTTP.exchangeBytes(port: demo.port, method: "GET", path: path,
                                                         headers: ["Accept-Encoding: br, gzip;q=0.9, deflate"])
            #expect(zipped.status == "HTTP/1.1 200 OK", "GET \(path): \(zipped.status)")
            #expect(zipped.headers["content-encoding"] == "gzip", "GET \(path): \(zipped.headers)")
            #expect(zipped.headers["vary"] == "Accept-Encoding")
            #expect(zipped.headers["content-length"] == "\(zipped.body.count)")
            var buffer = ByteBuffer(bytes: zipped.body)
            let page = String(buffer: try buffer.decompress(with: .gzip))
            #expect(page.contains("<tr data-symbol=\"AAPL\""), "\(path) inflates to the dashboard: \(page.prefix(300))")
            let plain = try await RawHTTP.exchange(port: demo.port, method: "GET", path: path)
            #expect(plain.headers["content-encoding"] == nil, "no gzip unasked: \(plain.headers)")
            #expect(plain.headers["vary"] == "Accept-Encoding")
            #expect(plain.body.contains("<tr data-symbol=\"AAPL\""))
            #expect(zipped.body.count < plain.body.utf8.count / 2, "\(zipped.body.count) bytes of gzip for \(plain.body.utf8.count)")
            let refused = try await RawHTTP.exchange(port: demo.port, method: "GET", path: path, headers: ["Accept-Encoding: gzip;q=0"])
            #expect(refused.headers["content-encoding"] == nil, "q=0 refuses gzip: \(refused.headers)")
            let head = try await RawHTTP.exchangeBytes(port: demo.port, method: "HEAD", path: path, headers: ["Accept-Encoding: gzip"])
            #expect(head.headers["content-encoding"] == "gzip" && head.body.isEmpty, "HEAD \(path): \(head.headers)")
        }
        #expect(try await demo.daemon.stop() == 0, "standard error: \(demo.daemon.errorLines.suffix(8))")
    }

    @Test func metricsHealthAndDashboardOfTheDemo() async throws {
        let demo = try DashboardDaemon()
        try await demo.waitUntilListening()

        // The demo's first quote fires aapl-above-225.5 at once; the dashboard shows it.
        let page = try await waitFor("the dashboard to show an alert of aapl-above-225.5") { () async -> String? in
            guard let page = await demo.text("/"), page.contains("aapl-above-225.5</td>") && page.contains("class=\"alert\"") else { return nil }
            return page
        }
        #expect(page.contains("<tr data-symbol=\"AAPL\""))
        #expect(page.contains("prefers-color-scheme: dark"))
        #expect(page.contains("name=\"viewport\""))
        #expect(!page.contains("src=\"http"), "no external asset")

        let health = try #require(await demo.request("/healthz"))
        #expect(health.status == 200)
        #expect(String(decoding: health.body, as: UTF8.self) == "ok\n")

        let metrics = try await waitFor("metrics with a fired alert and a successful poll") { () async -> String? in
            guard let text = await demo.text("/metrics"), text.contains("pricewatch_alerts_fired_total{rule=\"aapl-above-225.5\"}"),
                  text.contains("pricewatch_polls_total{provider=\"replay\",outcome=\"success\"}") else { return nil }
            return text
        }
        for name in ["pricewatch_provider_request_duration_seconds_bucket", "pricewatch_quotes_accepted_total{provider=\"replay\"}",
                     "pricewatch_deliveries_total{sink=\"console\",outcome=\"delivered\"}", "pricewatch_outbox_pending_deliveries",
                     "pricewatch_outbox_oldest_pending_age_seconds", "pricewatch_rules_watched 7", "pricewatch_symbols_watched 1",
                     "pricewatch_last_successful_poll_timestamp_seconds{provider=\"replay\"}",
                     "pricewatch_build_info{version=\"\(PriceWatchVersion.current)\"} 1"] {
            #expect(metrics.contains(name), "\(name) in /metrics")
        }
        let check = try await Promtool.checkMetrics(metrics)
        #expect(check.status == 0, "promtool check metrics: \(check.output)")

        // The live feed: a poll arrives by server-sent events with the demo's symbol.
        let stream = try await RawHTTP.read(port: demo.port, path: "/events", until: "\"symbol\":\"AAPL\"")
        #expect(stream.hasPrefix("HTTP/1.1 200"))
        #expect(stream.lowercased().contains("content-type: text/event-stream"))
        #expect(stream.contains("event: poll"))

        #expect(try await demo.daemon.stop() == 0, "standard error: \(demo.daemon.errorLines.suffix(8))")
    }

    /// A fresh daemon's first scrape has every counter of its providers and sinks, each label
    /// value known up front, so `rate()` alerts see the series before the first error; the
    /// process's standard metrics; the reload counters, which then count a good and a bad
    /// reload.
    @Test func everyCounterExistsAtZeroFromTheFirstScrape() async throws {
        let demo = try DashboardDaemon()
        try await demo.waitUntilListening()
        let text = try #require(await demo.text("/metrics"))
        let samples = MetricsSamples(text)
        // Series that the demo (a replay provider that never fails, quotes that pass) cannot move.
        var zero = ["transient", "rate_limited", "unknown_symbol", "malformed_response", "permanent"].map {
            "pricewatch_provider_errors_total{provider=\"replay\",kind=\"\($0)\"}"
        }
        zero += ["non_positive_price", "future_time"].map { "pricewatch_quotes_rejected_total{provider=\"replay\",reason=\"\($0)\"}" }
        zero += ["retry", "failed"].map { "pricewatch_deliveries_total{sink=\"console\",outcome=\"\($0)\"}" }
        zero += ["pricewatch_polls_total{provider=\"replay\",outcome=\"failure\"}",
                 "pricewatch_config_reloads_total{outcome=\"success\"}", "pricewatch_config_reloads_total{outcome=\"failure\"}",
                 "pricewatch_outbox_dead_deliveries"]
        for series in zero { #expect(samples[series] == 0, "\(series) at 0") }
        for series in ["pricewatch_polls_total{provider=\"replay\",outcome=\"success\"}", "pricewatch_quotes_accepted_total{provider=\"replay\"}",
                       "pricewatch_deliveries_total{sink=\"console\",outcome=\"delivered\"}", "pricewatch_outbox_pending_deliveries"] {
            #expect(samples[series] != nil, "\(series) in the first scrape")
        }
        #expect(samples["pricewatch_config_last_reload_successful"] == 1)
        let now = Date().timeIntervalSince1970
        let loaded = try #require(samples["pricewatch_config_last_reload_success_timestamp_seconds"])
        #expect(loaded <= now && loaded > now - 600)
        // The process's own metrics, from /proc.
        let started = try #require(samples["process_start_time_seconds"])
        #expect(started <= now + 1 && started > now - 600, "process_start_time_seconds \(started), now \(now)")
        #expect(try #require(samples["process_resident_memory_bytes"]) > 1_000_000)
        #expect(try #require(samples["process_virtual_memory_bytes"]) > 1_000_000)
        #expect(try #require(samples["process_open_fds"]) >= 3)
        #expect(try #require(samples["process_max_fds"]) >= 64)
        #expect(try #require(samples["process_cpu_seconds_total"]) > 0)
        // Every counter family has its series, and none of the counters is missing.
        let counters = samples.names(ofType: "counter")
        #expect(Set(counters).isSuperset(of: [
            "pricewatch_polls_total", "pricewatch_provider_errors_total", "pricewatch_quotes_accepted_total",
            "pricewatch_quotes_rejected_total", "pricewatch_deliveries_total", "pricewatch_config_reloads_total",
            "process_cpu_seconds_total",
        ]), "counters: \(counters)")
        for name in counters { #expect(samples.hasSample(of: name), "\(name) has a sample") }
        let check = try await Promtool.checkMetrics(text)
        #expect(check.status == 0, "promtool check metrics: \(check.output)")

        // A reload that works, then one the configuration's errors refuse.
        demo.daemon.signal(SIGHUP)
        _ = try await waitFor("a successful reload counted") { () async -> Bool? in
            guard let text = await demo.text("/metrics"), MetricsSamples(text)["pricewatch_config_reloads_total{outcome=\"success\"}"] == 1 else { return nil }
            return true
        }
        try demo.directory.write("pricewatch.toml", "interval = [\n")
        demo.daemon.signal(SIGHUP)
        let refused = try await waitFor("a refused reload counted") { () async -> MetricsSamples? in
            guard let text = await demo.text("/metrics") else { return nil }
            let samples = MetricsSamples(text)
            return samples["pricewatch_config_reloads_total{outcome=\"failure\"}"] == 1 ? samples : nil
        }
        #expect(refused["pricewatch_config_last_reload_successful"] == 0)
        #expect(refused["pricewatch_config_reloads_total{outcome=\"success\"}"] == 1)
        #expect(try await demo.daemon.stop() == 0, "standard error: \(demo.daemon.errorLines.suffix(8))")
    }

    /// Browsers that come and go on the event stream cost nothing once gone: polling goes on
    /// (a stream whose client left once kept a core busy until its lifetime ended).
    @Test func eventStreamClientsThatLeaveDoNotStallPolling() async throws {
        let demo = try DashboardDaemon()
        try await demo.waitUntilListening()
        for _ in 0..<4 {
            _ = try await RawHTTP.read(port: demo.port, path: "/events", until: "event: poll")
        }
        let polls = try await waitFor("the poll count") { await Self.successfulPolls(demo) }
        try await waitUntil("three more polls after \(polls)") { (await Self.successfulPolls(demo) ?? 0) >= polls + 3 }
        #expect(try await demo.daemon.stop() == 0, "standard error: \(demo.daemon.errorLines.suffix(8))")
    }

    static func successfulPolls(_ demo: DashboardDaemon) async -> Int? {
        guard let text = await demo.text("/metrics") else { return nil }
        let prefix = "pricewatch_polls_total{provider=\"replay\",outcome=\"success\"} "
        return text.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap { Int($0.dropFirst(prefix.count)) }
    }

    @Test func theEndpointIsReadOnlyAndRefusesBodies() async throws {
        let demo = try DashboardDaemon()
        try await demo.waitUntilListening()
        let post = try #require(await demo.request("/", method: .post, body: Array("x=1".utf8)))
        #expect(post.status == 405)
        let missing = try #require(await demo.request("/nothing-here"))
        #expect(missing.status == 404)
        #expect(try await demo.daemon.stop() == 0, "standard error: \(demo.daemon.errorLines.suffix(8))")
    }

    /// A client that starts a request and never finishes it (slowloris) is cut off by the idle
    /// timeout; meanwhile everyone else is served.
    @Test func aSlowClientIsCutOffAndOthersAreServed() async throws {
        let demo = try DashboardDaemon()
        try await demo.waitUntilListening()
        async let closedAfter = RawHTTP.secondsUntilClosed(port: demo.port, sending: "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        let health = try #require(await demo.request("/healthz"))
        #expect(health.status == 200, "served while a slow client holds a connection")
        let seconds = try await closedAfter
        #expect(seconds >= 10, "closed by the idle timeout (15 s), not at once: \(seconds) s")
        #expect(try await demo.daemon.stop() == 0, "standard error: \(demo.daemon.errorLines.suffix(8))")
    }

    @Test func aTokenIsRequiredAndComparedWhenConfigured() async throws {
        let token = "s3cret-token-\(UUID().uuidString)"
        let demo = try DashboardDaemon(http: "token = { env = \"DASHBOARD_TOKEN\" }\n", environment: ["DASHBOARD_TOKEN": token])
        try await demo.waitUntilListening()
        let anonymous = try #require(await demo.request("/metrics"))
        #expect(anonymous.status == 401)
        let wrong = try #require(await demo.request("/metrics", headers: [HTTPHeader("Authorization", "Bearer \(token)x")]))
        #expect(wrong.status == 401)
        let right = try #require(await demo.request("/metrics", headers: [HTTPHeader("Authorization", "Bearer \(token)")]))
        #expect(right.status == 200)
        #expect(try await demo.daemon.stop() == 0, "standard error: \(demo.daemon.errorLines.suffix(8))")
        #expect(!(demo.daemon.errorLines + demo.daemon.outputLines).contains { $0.contains(token) }, "the token never appears in output")
    }

    /// Socket activation: the daemon serves the listening socket `systemd-socket-activate`
    /// passes (as `pricewatch-http.socket` does), not the `listen` address.
    @Test func aSocketPassedBySystemdIsServed() async throws {
        let directory = try TemporaryDirectory()
        try ReplayDaemonFiles.write(in: directory, prices: ["10", "20"])
        let port = try DashboardDaemon.freePort()
        let main = try String(contentsOfFile: directory.file("pricewatch.toml"), encoding: .utf8)
        try directory.write("pricewatch.toml", main + "\n[http]\nlisten = \"127.0.0.1:1\"\n")
        let daemon = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml"], directory: directory.path,
                                       launcher: ("/usr/bin/systemd-socket-activate", ["-l", "127.0.0.1:\(port)", "--fdname=http"]))
        let transport = CurlHTTPTransport()
        let health = try await waitFor("/healthz on the passed socket; standard error: \(daemon.errorLines.suffix(5))") { () async -> Int? in
            try? await transport.send(HTTPRequest(method: .get, url: "http://127.0.0.1:\(port)/healthz", timeout: .seconds(20))).status
        }
        #expect(health == 200)
        let metrics = try await transport.send(HTTPRequest(method: .get, url: "http://127.0.0.1:\(port)/metrics", timeout: .seconds(20)))
        #expect(String(decoding: metrics.body, as: UTF8.self).contains("pricewatch_build_info"))
        #expect(daemon.errorLines.contains { $0.contains("listening on the socket passed by the service manager") }, "\(daemon.errorLines)")
        #expect(try await daemon.stop() == 0)
    }

    @Test func aMalformedHTTPTableIsAnErrorNamingFileAndLine() async throws {
        let directory = try TemporaryDirectory()
        try ReplayDaemonFiles.write(in: directory, prices: ["10"])
        let main = try String(contentsOfFile: directory.file("pricewatch.toml"), encoding: .utf8)
        try directory.write("pricewatch.toml", main + "\n[http]\nlisten = \"localhost\"\nmax_conections = 5\n")
        let result = try await CommandRunner.run(["check", "--config", "pricewatch.toml"], in: directory.path)
        #expect(result.status != 0)
        let lines = main.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(result.errorLines.contains { $0.hasPrefix("pricewatch.toml:\(lines + 2):") && $0.contains("127.0.0.1:8490") },
                "\(result.errorLines)")
        #expect(result.errorLines.contains { $0.contains("max_conections") && $0.contains("max_connections") }, "\(result.errorLines)")
    }

    @Test func listeningBeyondLoopbackWithoutATokenIsRefused() async throws {
        let directory = try TemporaryDirectory()
        try ReplayDaemonFiles.write(in: directory, prices: ["10"])
        let main = try String(contentsOfFile: directory.file("pricewatch.toml"), encoding: .utf8)
        try directory.write("pricewatch.toml", main + "\n[http]\nlisten = \"0.0.0.0:8490\"\n")
        let result = try await CommandRunner.run(["check", "--config", "pricewatch.toml"], in: directory.path)
        #expect(result.status != 0)
        #expect(result.errorLines.contains { $0.contains("http.listen") && $0.contains("requires 'token'") },
                "\(result.errorLines)")
    }
}
