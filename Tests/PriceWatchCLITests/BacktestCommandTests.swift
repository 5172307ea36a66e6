import Foundation
import PriceWatchTestKit
import Testing

/// `pricewatch backtest` end to end over the real recorded series, against the golden files of
/// the independent reference (`Tests/Fixtures/backtest/oracle.py`).
@Suite struct BacktestCommandTests {
    static func golden(_ name: String) throws -> [[String]] {
        let text = try String(contentsOfFile: RepositoryFiles.path("Tests/Fixtures/backtest/\(name)"), encoding: .utf8)
        return text.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
    }

    static func object(_ line: String) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(line.utf8))
        return try #require(value as? [String: Any])
    }

    /// The literal text of every JSON number in `line` (values after `:` that are not strings,
    /// objects, arrays, booleans or null).
    static func numberLiterals(_ line: String) -> [String: String] {
        var result: [String: String] = [:]
        for match in line.matches(of: /"([a-z_]+)":(-?[0-9][^,}]*)/) {
            result[String(match.output.1)] = String(match.output.2)
        }
        return result
    }

    @Test func jsonLinesMatchTheReferenceOnTheAAPLSession() async throws {
        let result = try await CommandRunner.run(["backtest", "--rules", "demo/rules.d", "--data", "demo/data/aapl-1m-2024-10-02.csv", "--format", "json"])
        #expect(result.status == 0)
        let expected = try Self.golden("aapl-demo.expected")
        #expect(result.outputLines.count == expected.count)
        for (line, golden) in zip(result.outputLines, expected) {
            let object = try Self.object(line)
            #expect(object["rule"] as? String == golden[0])
            #expect(object["symbol"] as? String == golden[1])
            #expect(object["time"] as? String == golden[2])
            let numbers = Self.numberLiterals(line)
            #expect(numbers["price"].flatMap { Decimal(string: $0) } == Decimal(string: golden[3]))
            #expect((object["id"] as? String)?.count == 36)
            #expect(object["condition"] is String)
            // Numbers in plain decimal notation, never an exponent.
            #expect(!numbers.isEmpty)
            #expect(numbers.values.allSatisfy { $0.allSatisfy { "-0123456789.".contains($0) } }, "\(numbers)")
        }
        #expect(result.errorLines == ["backtest: 389 rows, 7 rules, 2723 evaluations, 13 alerts"])
    }

    @Test func percentRulesCarryBaseAndChange() async throws {
        let result = try await CommandRunner.run(["backtest", "--rules", "demo/rules.d", "--data", "demo/data/aapl-1m-2024-10-02.csv", "--format", "json"])
        let fall = try #require(result.outputLines.first { $0.contains("\"rule\":\"aapl-fall-1pct\"") })
        #expect(Self.numberLiterals(fall)["base"] == "226.21")
        #expect(Self.numberLiterals(fall)["change"] == "-1.0123")
        let level = try #require(try result.outputLines.map(Self.object).first { $0["rule"] as? String == "aapl-below-224" })
        #expect(level["base"] == nil && level["change"] == nil)
    }

    /// A rise from a base of one hundred-millionth to billions is a change of about 10^20
    /// percent: more than an exact decimal holds. It is reported as out of range (JSON null,
    /// "change out of range" in text), never clamped to ~92 billion.
    @Test func aChangeTooLargeForAnExactDecimalIsOutOfRangeNotSaturated() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("rules.toml", """
            [[rule]]
            id = "moon"
            symbol = "X"
            rise = 5
            """)
        try directory.write("prices.csv", """
            symbol,time,price,previous_close
            X,2024-10-02T14:00:00Z,90000000000,0.00000001
            """)
        let json = try await CommandRunner.run(["backtest", "--rules", directory.file("rules.toml"), "--data", directory.file("prices.csv"), "--format", "json"])
        #expect(json.status == 0, "\(json.standardError)")
        let line = try #require(json.outputLines.first, "no alert: \(json.standardError)")
        #expect(line.contains("\"change\":null"), "\(line)")
        #expect(Self.numberLiterals(line)["base"] == "0.00000001")
        let text = try await CommandRunner.run(["backtest", "--rules", directory.file("rules.toml"), "--data", directory.file("prices.csv")])
        #expect(text.outputLines.count == 1)
        #expect(text.outputLines.first?.hasSuffix("(base 0.00000001, change out of range)") == true, "\(text.outputLines)")
        #expect(!text.standardOutput.contains("92233720368"))
    }

    @Test func textOutputHasOneLinePerAlertInFiringOrder() async throws {
        let result = try await CommandRunner.run(["backtest", "--rules", "Tests/Fixtures/backtest/monthly.toml", "--data", "demo/data/stocks-monthly-2000-2010.csv"])
        #expect(result.status == 0)
        let expected = try Self.golden("monthly.expected")
        #expect(result.outputLines.count == expected.count)
        for (line, golden) in zip(result.outputLines, expected) {
            let fields = line.split(separator: " ").map(String.init)
            #expect(Array(fields.prefix(3)) == [golden[2], golden[0], golden[1]])
            #expect(Decimal(string: fields[3]) == Decimal(string: golden[3]))
        }
    }

    @Test func malformedRowsAreAllReportedWithFileAndLineAndNothingIsPrinted() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("prices.csv", """
            symbol,time,price,previous_close
            AAPL,2024-10-02T13:30:00Z,225.70,226.21
            AAPL,2024-10-02T13:31:00Z,abc,226.21
            AAPL,2024-10-02T13:32:00Z,225.80
            AAPL,not-a-time,225.90,226.21
            AAPL,2024-10-02T13:34:00Z,0,226.21
            AAPL,2024-10-02T13:35:00Z,1.123456789,226.21
            """)
        try directory.write("rules.toml", "[[rule]]\nid = \"a\"\nsymbol = \"AAPL\"\nabove = 1\n")
        let result = try await CommandRunner.run(["backtest", "--rules", "rules.toml", "--data", "prices.csv"], in: directory.path)
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(result.errorLines == [
            "prices.csv:3:27: error: symbol AAPL: price: expected a decimal number, found 'abc'",
            "prices.csv:4: error: expected 4 fields as in the header, found 3",
            "prices.csv:5:6: error: symbol AAPL: expected a time as RFC 3339 (2024-10-02T13:30:00Z), unix seconds or a date (2024-10-02), found 'not-a-time'",
            "prices.csv:6:27: error: symbol AAPL: price must be greater than zero, found 0",
            "prices.csv:7:27: error: symbol AAPL: price: expected at most 8 fractional digits, found 9 in 1.123456789",
        ])
    }

    @Test func rowsOutOfOrderAreProcessedInTimeOrder() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("prices.csv", """
            time,price,symbol
            1727875920,12,X
            1727875800,8,X
            1727875860,9,X
            """)
        try directory.write("rules.toml", "[[rule]]\nid = \"x\"\nsymbol = \"X\"\ncrosses = 10\n")
        let result = try await CommandRunner.run(["backtest", "--rules", "rules.toml", "--data", "prices.csv"], in: directory.path)
        #expect(result.status == 0)
        #expect(result.outputLines == ["2024-10-02T13:32:00Z x X 12.00 crosses 10 (up)"])
    }

    @Test func aMissingDataFileIsAnError() async throws {
        let result = try await CommandRunner.run(["backtest", "--rules", "demo/rules.d", "--data", "no/such.csv"])
        #expect(result.status == 1)
        #expect(result.errorLines == ["no/such.csv: error: cannot read the price data: no such file"])
    }
}
