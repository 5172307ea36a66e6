import Foundation
import PriceWatchTestKit
import Testing

/// `pricewatch check` end to end: the built binary, its output and its exit codes.
@Suite struct CheckCommandTests {
    @Test(arguments: ["etc/pricewatch/pricewatch.toml", "demo/pricewatch.toml"])
    func bundledConfigurationsPass(path: String) async throws {
        let result = try await CommandRunner.run(["check", "--config", path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines.count == 1)
        #expect(result.outputLines.first?.hasPrefix("\(path): ok: ") == true)
        #expect(result.standardError.isEmpty)
    }

    @Test func configPathComesFromTheEnvironmentWhenNotGiven() async throws {
        let result = try await CommandRunner.run(["check"], environment: ["PRICEWATCH_CONFIG": "demo/pricewatch.toml"])
        #expect(result.status == 0)
        #expect(result.standardOutput == "demo/pricewatch.toml: ok: 7 rules on 1 symbol, 1 provider, 1 sink\n")
    }

    @Test func everyErrorOfEveryFileIsReportedAndTheExitCodeIsOne() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("pricewatch.toml", """
            interval = "1m"
            [providers.replay]
            type = "replay"
            file = "prices.csv"
            [sinks.console]
            type = "stdout"
            """)
        try directory.write("prices.csv", "symbol,time,price\nAAPL,2024-10-02,225.70\n")
        try directory.write("rules.d/a.toml", """
            [[rule]]
            id = "one"
            symbol = "AAPL"
            above = 200
            below = 100
            """)
        try directory.write("rules.d/b.toml", """
            [[rule]]
            id = "two"
            symbol = "AAPL"
            rise = 5
            rearm = 6
            """)
        let result = try await CommandRunner.run(["check", "--config", "pricewatch.toml"], in: directory.path)
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        let errors = result.errorLines
        #expect(errors.count == 2, "\(errors)")
        #expect(errors.first?.hasPrefix("rules.d/a.toml:") == true)
        #expect(errors.last?.hasPrefix("rules.d/b.toml:") == true)
        #expect(errors.allSatisfy { $0.contains(": error: ") })
    }

    @Test func aMalformedReplayFileIsAnErrorNamingItsLine() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("pricewatch.toml", """
            [providers.replay]
            type = "replay"
            file = "prices.csv"
            [sinks.console]
            type = "stdout"
            """)
        try directory.write("prices.csv", "symbol,time,price\nAAPL,2024-10-02,225.70\nAAPL,yesterday,225.70\n")
        try directory.write("rules.d/a.toml", "[[rule]]\nid = \"a\"\nsymbol = \"AAPL\"\nabove = 1\n")
        let result = try await CommandRunner.run(["check", "--config", "pricewatch.toml"], in: directory.path)
        #expect(result.status == 1)
        #expect(result.errorLines.count == 1)
        #expect(result.errorLines.first?.hasPrefix("\(directory.path)/prices.csv:3:6: error: symbol AAPL: expected a time") == true,
                "\(result.errorLines)")
    }

    @Test func aSymbolNotInTheProvidersFormIsAWarningWithItsSpelling() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("pricewatch.toml", """
            provider = "yahoo"
            [providers.yahoo]
            type = "yahoo"
            [providers.replay]
            type = "replay"
            file = "prices.csv"
            [sinks.console]
            type = "stdout"
            """)
        try directory.write("prices.csv", "symbol,time,price\naapl,2024-10-02,225.70\n")
        try directory.write("rules.d/a.toml", """
            [[rule]]
            id = "lower"
            symbol = "aapl"
            above = 200

            [[rule]]
            id = "pairs"
            symbols = ["BTCUSD", "MSFT", "eth-usd", "ethusdt"]
            above = 1

            [[rule]]
            id = "replayed"
            provider = "replay"
            symbol = "aapl"
            above = 1
            """)
        let result = try await CommandRunner.run(["check", "--config", "pricewatch.toml"], in: directory.path)
        #expect(result.status == 0, "warnings only: \(result.standardError)")
        #expect(result.errorLines == [
            "rules.d/a.toml:3:1: warning: rule 'lower': symbol: expected a symbol as provider 'yahoo' (yahoo) writes it "
                + "(upper case), found \"aapl\"; did you mean \"AAPL\"?",
            "rules.d/a.toml:8:12: warning: rule 'pairs': symbols: expected a symbol as provider 'yahoo' (yahoo) writes it "
                + "(a crypto pair with a dash), found \"BTCUSD\"; did you mean \"BTC-USD\"?",
            "rules.d/a.toml:8:30: warning: rule 'pairs': symbols: expected a symbol as provider 'yahoo' (yahoo) writes it "
                + "(upper case), found \"eth-usd\"; did you mean \"ETH-USD\"?",
            "rules.d/a.toml:8:41: warning: rule 'pairs': symbols: expected a symbol as provider 'yahoo' (yahoo) writes it "
                + "(upper case, a crypto pair with a dash), found \"ethusdt\"; did you mean \"ETH-USDT\"?",
        ], "\(result.errorLines)")
    }

    @Test func aRuleFileGivenAsTheMainFileSaysWhichFileIsTheMainOne() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("pricewatch.toml", """
            [providers.replay]
            type = "replay"
            file = "prices.csv"
            [sinks.console]
            type = "stdout"
            """)
        try directory.write("prices.csv", "symbol,time,price\nAAPL,2024-10-02,225.70\n")
        try directory.write("rules.d/a.toml", "[[rule]]\nid = \"a\"\nsymbol = \"AAPL\"\nabove = 1\n")
        let result = try await CommandRunner.run(["check", "--config", "rules.d/a.toml"], in: directory.path)
        #expect(result.status == 1)
        #expect(result.errorLines == [
            "rules.d/a.toml: error: expected the main file (providers, sinks and 'rules', the directory of the rule files), "
                + "found a rule file ([[rule]] tables); give the main file instead: 'pricewatch.toml', whose rules directory holds this file",
        ], "\(result.errorLines)")
        // A main file above whose rules are elsewhere is not named: what the main file is.
        try directory.write("elsewhere/a.toml", "[[rule]]\nid = \"a\"\nsymbol = \"AAPL\"\nabove = 1\n")
        let alone = try await CommandRunner.run(["check", "--config", directory.file("elsewhere/a.toml")], in: directory.path)
        #expect(alone.status == 1)
        #expect(alone.errorLines.count == 1)
        #expect(alone.errorLines.first?.hasSuffix("give the main file instead, the one whose 'rules' (default \"rules.d\") names the "
                                                  + "directory of this file") == true, "\(alone.errorLines)")
    }

    @Test func usageErrorsExitWith64() async throws {
        #expect(try await CommandRunner.run(["check", "--no-such-flag"]).status == 64)
        #expect(try await CommandRunner.run(["backtest", "--rules", "demo/rules.d"]).status == 64)
        #expect(try await CommandRunner.run(["no-such-command"]).status == 64)
    }
}
