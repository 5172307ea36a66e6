import PriceWatchConfig
import PriceWatchCore
import Testing

/// `[http] markets`: the markets page's list, polled through the main file's provider like a
/// rule's symbols; every mistake a diagnostic at its element.
@Suite struct MarketsListConfigTests {
    static let rules = ["rules.d/a.toml": GoldenCase.rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 1")]

    @Test func theListIsReadInOrderAndPolledThroughTheMainProvider() throws {
        let main = GoldenCase.main + """


            [http]
            listen = "127.0.0.1:8490"
            markets = ["^GSPC", "EURUSD=X", "BTC-USD"]
            """
        let (rendered, configuration, fixture) = try GoldenCase(name: "markets", main: main, files: Self.rules, expected: []).run()
        defer { fixture.remove() }
        #expect(rendered == [])
        let loaded = try #require(configuration)
        #expect(loaded.http?.markets == ["^GSPC", "EURUSD=X", "BTC-USD"], "in the order written")
        #expect(loaded.symbols(for: "demo") == ["AAPL", "BTC-USD", "EURUSD=X", "^GSPC"], "polled with the rules' symbols")
        #expect(loaded.allSymbols == ["AAPL", "BTC-USD", "EURUSD=X", "^GSPC"])
    }

    @Test func everyMistakeIsADiagnosticAtItsElement() throws {
        let main = GoldenCase.main + """


            [http]
            markets = ["^GSPC", "", "^GSPC", "A B", 5]
            """
        let (rendered, configuration, fixture) = try GoldenCase(name: "bad markets", main: main, files: Self.rules, expected: []).run()
        defer { fixture.remove() }
        #expect(configuration == nil)
        #expect(rendered == [
            #"$DIR/pricewatch.toml:9:41: error: http.markets: expected an array of symbols such as ["^GSPC", "EURUSD=X"], found an integer at index 4"#,
        ], "a wrong element type is reported first, alone: \(rendered)")
        let strings = GoldenCase.main + "\n\n[http]\nmarkets = [\"^GSPC\", \"\", \"^GSPC\", \"A B\"]\n"
        let (more, _, fixture2) = try GoldenCase(name: "bad markets 2", main: strings, files: Self.rules, expected: []).run()
        defer { fixture2.remove() }
        #expect(more.count == 3, "\(more)")
        #expect(more.contains { $0.contains("expected a symbol such as \"AAPL\", found an empty string") }, "\(more)")
        #expect(more.contains { $0.contains("symbol '^GSPC' is listed twice") }, "\(more)")
        #expect(more.contains { $0.contains("expected a symbol without whitespace, found \"A B\"") }, "\(more)")
    }

    @Test func withSeveralProvidersTheMainFileMustNameOne() throws {
        let main = GoldenCase.main + """

            [providers.other]
            type = "replay"
            file = "quotes.csv"

            [http]
            markets = ["^GSPC"]
            """
        let (rendered, configuration, fixture) = try GoldenCase(name: "markets without provider", main: main, files: Self.rules, expected: []).run()
        defer { fixture.remove() }
        #expect(configuration == nil)
        #expect(rendered.contains { $0.contains("http.markets: 'markets' are polled through the main file's provider: set 'provider'") },
                "\(rendered)")
    }
}
