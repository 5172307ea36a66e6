import Foundation
import PriceWatchCore
import PriceWatchTestKit
import Testing

/// Issue 28, calendars: the daemon reads Yahoo's calendar module for a calendar rule's symbol
/// (a loopback stand-in, with the cookie and crumb session of the quotes) and sends the
/// earnings reminder once, not again after a restart.
@Suite struct CalendarRuleDaemonTests {
    /// A loopback Yahoo that hands out the cookie and crumb session of the quotes.
    static func yahooStandIn() throws -> LoopbackHTTPServer {
        let server = try LoopbackHTTPServer()
        server.route("GET", "/") { _ in LoopbackResponse(status: 404, headers: [HTTPHeader("Set-Cookie", "A3=cookie; Path=/")]) }
        server.route("GET", "/v1/test/getcrumb") { _ in .text("haT3oykhHqZ") }
        return server
    }

    /// The main file: the stand-in as the `yahoo` provider (and, with `nasdaq`, as a provider
    /// of type `nasdaq` too), a console sink.
    static func mainFile(_ server: LoopbackHTTPServer, nasdaq: Bool = false) -> String {
        """
        state = "state/pricewatch.db"
        [providers.yahoo]
        type = "yahoo"
        base_url = "\(server.baseURL)"
        session_url = "\(server.baseURL)/"
        """ + (nasdaq ? "\n[providers.nasdaq]\ntype = \"nasdaq\"\nbase_url = \"\(server.baseURL)\"" : "") + """

        [sinks.console]
        type = "stdout"
        """
    }

    @Test func anEarningsReminderIsSentOnceAcrossARestart() async throws {
        let server = try Self.yahooStandIn()
        // Earnings tomorrow (UTC): with `before = "2d"` the reminder is due already.
        let tomorrow = CivilDate(utcDateOf: Timestamp(milliseconds: Int64(Date().timeIntervalSince1970 * 1000) + 86_400_000))
        let answer = #"{"quoteSummary":{"result":[{"calendarEvents":{"maxAge":1,"earnings":{"earningsDate":[{"raw":0,"fmt":"\#(tomorrow)"}],"#
            + #""earningsAverage":{"raw":0.66,"fmt":"0.66"}},"exDividendDate":{},"dividendDate":{}}}],"error":null}}"#
        server.route("GET", "/v10/finance/quoteSummary/NVDA") { request in
            request.queryValue("crumb") == "haT3oykhHqZ" ? .json(answer) : .status(401)
        }
        let directory = try TemporaryDirectory()
        try directory.write("rules.d/events.toml", """
            [[rule]]
            id = "nvda-earnings"
            symbol = "NVDA"
            event = "earnings"
            before = "2d"
            """)
        try directory.write("pricewatch.toml", Self.mainFile(server))
        let first = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml", "--log-level", "debug"], directory: directory.path)
        try await first.waitForOutput("the earnings reminder") { lines in lines.contains { $0.contains("Earnings of NVDA on \(tomorrow)") } }
        #expect(try await first.stop() == 0)
        let reminders = first.outputLines.filter { $0.hasPrefix("EVENT ") }
        #expect(reminders.count == 1, "\(first.outputLines)")
        #expect(reminders.first?.contains("NVDA: Earnings of NVDA on \(tomorrow) (EPS estimate 0.66)") == true, "\(reminders)")

        // What the daemon read, as `pricewatch events` lists it.
        let listed = try await CommandRunner.run(["events", "--config", "pricewatch.toml", "NVDA", "ASML"], in: directory.path)
        #expect(listed.status == 0, "\(listed.standardError)")
        #expect(listed.outputLines == ["\(tomorrow)  NVDA  earnings of NVDA on \(tomorrow) (EPS estimate 0.66)  [yahoo]",
                                       "no events known for ASML"])
        let json = try await CommandRunner.run(["events", "--config", "pricewatch.toml", "--format", "json"], in: directory.path)
        #expect(json.outputLines == [#"{"symbol":"NVDA","event":"earnings","date":"\#(tomorrow)","last_date":null,"estimate":0.66,"#
            + #""moved_from":null,"timing":null,"amount":null,"currency":null,"ratio":null,"source":"yahoo"}"#])

        let second = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml", "--log-level", "debug"], directory: directory.path)
        try await waitUntil("the restarted daemon's first look at the calendars") {
            second.errorLines.contains { $0.contains("reminders: 1 due, 0 queued") } || !second.isRunning
        }
        #expect(try await second.stop() == 0)
        #expect(second.outputLines.filter { $0.hasPrefix("EVENT ") }.isEmpty, "\(second.outputLines)")
        #expect(server.requests(path: "/v10/finance/quoteSummary/NVDA").count == 1, "the calendar is read once a day")
    }

    /// Nasdaq's calendars beside Yahoo's (a provider of type `nasdaq`): a split and an
    /// ex-dividend day with its amount, each reminded once with what Nasdaq says of it, and
    /// Yahoo's failing calendar failing nothing else.
    @Test func nasdaqsSplitAndDividendRemindersCarryTheRatioAndTheAmount() async throws {
        let server = try Self.yahooStandIn()
        server.route("GET", "/v10/finance/quoteSummary/NVDA") { _ in .text("<html>busy</html>", status: 503) }
        let now = Timestamp(milliseconds: Int64(Date().timeIntervalSince1970 * 1000))
        let tomorrow = CivilDate(utcDateOf: Timestamp(milliseconds: now.milliseconds + 86_400_000))
        let day = String(format: "%02d/%02d/%04d", tomorrow.month, tomorrow.day, tomorrow.year)
        server.route("GET", "/api/calendar/earnings") { _ in
            .json(#"{"data":{"asOf":"","headers":null,"rows":null},"message":null,"status":{"rCode":200}}"#)
        }
        server.route("GET", "/api/calendar/splits") { _ in
            .json(#"{"data":{"rows":[{"symbol":"NVDA","name":"NVIDIA Corporation","ratio":"10 : 1","payableDate":"\#(day)","#
                  + #""executionDate":"\#(day)","announcedDate":"N/A"}]},"message":null,"status":{"rCode":200}}"#)
        }
        server.route("GET", "/api/quote/NVDA/dividends") { _ in
            .json(#"{"data":{"dividends":{"rows":[{"exOrEffDate":"\#(day)","type":"Cash","amount":"$0.01","#
                  + #""declarationDate":"N/A","recordDate":"N/A","paymentDate":"N/A","currency":"USD"}]}},"message":null,"status":{"rCode":200}}"#)
        }
        let directory = try TemporaryDirectory()
        try directory.write("rules.d/events.toml", """
            [[rule]]
            id = "nvda-split"
            symbol = "NVDA"
            event = "split"
            before = "2d"

            [[rule]]
            id = "nvda-ex"
            symbol = "NVDA"
            event = "ex_dividend"
            before = "2d"
            """)
        try directory.write("pricewatch.toml", Self.mainFile(server, nasdaq: true))
        let daemon = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml", "--log-level", "debug"], directory: directory.path)
        try await daemon.waitForOutput("both reminders") { lines in lines.filter { $0.hasPrefix("EVENT ") }.count >= 2 }
        #expect(try await daemon.stop() == 0)
        let reminders = daemon.outputLines.filter { $0.hasPrefix("EVENT ") }
        #expect(reminders.count == 2, "\(daemon.outputLines)")
        #expect(reminders.contains { $0.contains("NVDA: Split of NVDA on \(tomorrow) (10-for-1)") }, "\(reminders)")
        #expect(reminders.contains { $0.contains("NVDA: Ex-dividend day of NVDA on \(tomorrow) (0.01 USD per share)") }, "\(reminders)")
        #expect(daemon.errorLines.contains { $0.contains("could not read the calendar of NVDA from yahoo") },
                "Yahoo's failure is said and stops nothing")
        #expect(server.requests(path: "/api/calendar/earnings").count == 10, "the earnings calendar of ten weekdays")
    }
}
