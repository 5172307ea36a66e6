import Foundation
import PriceWatchTestKit
import Testing

/// Bad input to the paper commands: clear one-line errors naming the thing, never a crash, and
/// nothing created where nothing should be. Serialized: each test blocks a thread on the
/// commands it runs, and a loaded machine has few.
@Suite(.serialized) struct PaperCommandErrorTests {
    static func directory() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        try directory.write("pricewatch.toml", "state = \"state/pricewatch.db\"\n")
        return directory
    }

    static func paper(_ arguments: [String], _ directory: TemporaryDirectory) async throws -> CommandRunner.Result {
        try await CommandRunner.run(["paper"] + arguments + ["--config", "pricewatch.toml"], in: directory.path)
    }

    @Test func withoutAStateDatabaseNothingIsCreated() async throws {
        let directory = try Self.directory()
        let result = try await Self.paper(["buy", "alice", "AAPL", "1"], directory)
        #expect(result.status == 1)
        #expect(result.standardError.contains("no paper account"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("state/pricewatch.db")))
    }

    @Test func usageErrorsNameTheArgument() async throws {
        let directory = try Self.directory()
        for (arguments, expected) in [
            (["open", "alice", "--cash=-5", "--currency", "USD"], "--cash: expected a number above 0, found -5"),
            (["open", "alice", "--cash", "5", "--currency", "dollars"], "--currency: expected a three-letter ISO 4217 code"),
            (["open", "a b", "--cash", "5", "--currency", "USD"], "account 'a b': expected 1 to 64 letters"),
            (["buy", "alice", "AAPL", "1e3"], "quantity: expected a decimal number, found '1e3'"),
            (["sell", "alice", "AAPL", "1", "--limit", "0"], "--limit: expected a number above 0, found 0"),
        ] {
            let result = try await Self.paper(arguments, directory)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.standardError.contains(expected), "\(arguments): \(result.standardError)")
        }
    }

    @Test func unknownAccountsAndOrdersAreNamed() async throws {
        let directory = try Self.directory()
        #expect(try await Self.paper(["open", "alice", "--cash", "100", "--currency", "USD"], directory).status == 0)
        let buy = try await Self.paper(["buy", "bob", "AAPL", "1"], directory)
        #expect(buy.status == 1)
        #expect(buy.standardError.contains("no paper account named bob"), "\(buy.standardError)")
        let cancel = try await Self.paper(["cancel", "alice", "nope"], directory)
        #expect(cancel.status == 1)
        #expect(cancel.standardError.contains("no paper order with id nope"), "\(cancel.standardError)")
        let show = try await Self.paper(["show", "alice"], directory)
        #expect(show.status == 0)
        #expect(show.standardOutput.contains("cash       100.00 USD"), "\(show.standardOutput)")
    }

    /// Issue 30, item 7: a sale of a symbol the account does not hold is refused when placed
    /// (it could only be rejected later), naming the held quantity; an account opened with
    /// --allow-short places it. An order on a symbol nothing polls is placed with a warning.
    @Test func aSaleBeyondThePositionIsRefusedAndAnUnpolledSymbolWarned() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("pricewatch.toml", """
            state = "state/pricewatch.db"
            [providers.replay]
            type = "replay"
            file = "prices.csv"
            [sinks.out]
            type = "stdout"
            """)
        try directory.write("prices.csv", "symbol,time,price\nAAPL,1727875800,190.5\n")
        try directory.write("rules.d/watch.toml", "[[rule]]\nid = \"watch-aapl\"\nsymbol = \"AAPL\"\nabove = 100000\n")
        #expect(try await Self.paper(["open", "alice", "--cash", "100", "--currency", "USD"], directory).status == 0)
        let sale = try await Self.paper(["sell", "alice", "TSLA", "3", "--order-id", "s1"], directory)
        #expect(sale.status == 1)
        #expect(sale.standardError.contains(
            "error: cannot sell 3 TSLA: paper account alice holds 0 TSLA and does not allow short selling"),
            "\(sale.standardError)")
        let show = try await Self.paper(["show", "alice", "--format", "json"], directory)
        #expect(!show.standardOutput.contains("\"s1\""), "nothing placed: \(show.standardOutput)")

        #expect(try await Self.paper(["open", "bob", "--cash", "100", "--currency", "USD", "--allow-short"], directory).status == 0)
        let short = try await Self.paper(["sell", "bob", "TSLA", "3"], directory)
        #expect(short.status == 0, "\(short.standardError)")
        #expect(short.standardError.contains(
            "pricewatch.toml: warning: no rule or watched portfolio makes the daemon poll TSLA"), "\(short.standardError)")
        let watched = try await Self.paper(["buy", "alice", "AAPL", "0.1"], directory)
        #expect(watched.status == 0, "\(watched.standardError)")
        #expect(!watched.standardError.contains("warning"), "AAPL is polled for a rule: \(watched.standardError)")
    }
}
