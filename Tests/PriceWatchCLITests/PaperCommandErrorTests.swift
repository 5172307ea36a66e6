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

    static func paper(_ arguments: [String], _ directory: TemporaryDirectory) throws -> CommandRunner.Result {
        try CommandRunner.run(["paper"] + arguments + ["--config", "pricewatch.toml"], in: directory.path)
    }

    @Test func withoutAStateDatabaseNothingIsCreated() throws {
        let directory = try Self.directory()
        let result = try Self.paper(["buy", "alice", "AAPL", "1"], directory)
        #expect(result.status == 1)
        #expect(result.standardError.contains("no paper account"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("state/pricewatch.db")))
    }

    @Test func usageErrorsNameTheArgument() throws {
        let directory = try Self.directory()
        for (arguments, expected) in [
            (["open", "alice", "--cash=-5", "--currency", "USD"], "--cash: expected a number above 0, found -5"),
            (["open", "alice", "--cash", "5", "--currency", "dollars"], "--currency: expected a three-letter ISO 4217 code"),
            (["open", "a b", "--cash", "5", "--currency", "USD"], "account 'a b': expected 1 to 64 letters"),
            (["buy", "alice", "AAPL", "1e3"], "quantity: expected a decimal number, found '1e3'"),
            (["sell", "alice", "AAPL", "1", "--limit", "0"], "--limit: expected a number above 0, found 0"),
        ] {
            let result = try Self.paper(arguments, directory)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.standardError.contains(expected), "\(arguments): \(result.standardError)")
        }
    }

    @Test func unknownAccountsAndOrdersAreNamed() throws {
        let directory = try Self.directory()
        #expect(try Self.paper(["open", "alice", "--cash", "100", "--currency", "USD"], directory).status == 0)
        let buy = try Self.paper(["buy", "bob", "AAPL", "1"], directory)
        #expect(buy.status == 1)
        #expect(buy.standardError.contains("no paper account named bob"), "\(buy.standardError)")
        let cancel = try Self.paper(["cancel", "alice", "nope"], directory)
        #expect(cancel.status == 1)
        #expect(cancel.standardError.contains("no paper order with id nope"), "\(cancel.standardError)")
        let show = try Self.paper(["show", "alice"], directory)
        #expect(show.status == 0)
        #expect(show.standardOutput.contains("cash       100.00 USD"), "\(show.standardOutput)")
    }
}
