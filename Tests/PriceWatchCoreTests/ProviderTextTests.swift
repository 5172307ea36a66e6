import PriceWatchCore
import Testing

/// Provider strings are data (issue 10.7): one check of currencies and labels, one escaper.
@Suite struct ProviderTextTests {
    func quote(currency: String? = nil, exchange: String? = nil, state: String? = nil, zone: String? = nil) -> Quote {
        Quote(symbol: "AAPL", price: ExactDecimal(scaled: 100 * ExactDecimal.unit), time: Timestamp(seconds: 1_700_000_000),
              currency: currency, exchange: exchange, marketState: state, exchangeTimeZone: zone)
    }

    @Test(arguments: ["USD", "EUR", "usd", "GBp", "GBX", "ZAc", "ZAC", "ILA"])
    func currenciesThatAreKept(code: String) {
        let checked = ProviderText.validated(quote(currency: code))
        #expect(checked.quote.currency == code)
        #expect(checked.problems.isEmpty)
    }

    @Test(arguments: ["USD\r\nBcc: victim@example.com", "US", "USDT", "U$D", "ÉUR", "", "USD ", "\u{0}SD"])
    func currenciesThatAreDropped(code: String) {
        let checked = ProviderText.validated(quote(currency: code, exchange: "NMS"))
        #expect(checked.quote.currency == nil)
        #expect(checked.quote.exchange == "NMS")
        #expect(checked.quote.price == ExactDecimal(scaled: 100 * ExactDecimal.unit))
        #expect(checked.problems.map(\.field) == ["currency"])
        let line = checked.problems.first?.description ?? ""
        #expect(line.hasPrefix("AAPL: ignoring the provider's currency: expected a three-letter currency code, found \""))
        #expect(!ControlCharacters.contains(line), "\(line)")
    }

    @Test func labelsWithControlCharactersOrTooLongAreDropped() {
        let checked = ProviderText.validated(quote(exchange: "NMS\u{1b}[2J", state: "REGULAR\u{85}", zone: String(repeating: "x", count: 121)))
        #expect(checked.quote.exchange == nil && checked.quote.marketState == nil && checked.quote.exchangeTimeZone == nil)
        #expect(checked.problems.map(\.field) == ["exchange", "market state", "exchange time zone"])
        #expect(checked.problems.allSatisfy { !ControlCharacters.contains($0.description) })
        let fine = ProviderText.validated(quote(exchange: "Nasdaq GS", state: "POST", zone: "America/New_York"))
        #expect(fine.problems.isEmpty && fine.quote.exchange == "Nasdaq GS")
    }

    @Test func searchMatchesLoseBadFieldsAndBadSymbolsAreDropped() {
        let match = ProviderText.validated(SymbolMatch(symbol: "AAPL", name: "Apple\nFAKE", exchange: "NMS", type: "EQUITY"))
        #expect(match.match == SymbolMatch(symbol: "AAPL", name: nil, exchange: "NMS", type: "EQUITY"))
        #expect(match.problems.map(\.field) == ["name"])
        #expect(ProviderText.validated(SymbolMatch(symbol: "AA\r\nPL")).match == nil)
    }

    @Test func answersAreValidatedInPlace() {
        var answers: [String: Result<Quote, ProviderError>] = [
            "AAPL": .success(quote(currency: "USD\n")),
            "BAD": .failure(ProviderError(.unknownSymbol, "no")),
        ]
        let problems = ProviderText.validate(&answers)
        #expect(problems.count == 1)
        if case .success(let kept)? = answers["AAPL"] { #expect(kept.currency == nil) } else { Issue.record("AAPL lost") }
    }

    @Test func oneEscaperForEveryTextOutput() {
        #expect(ControlCharacters.escaped("plain – ünïcode") == "plain – ünïcode")
        #expect(ControlCharacters.escaped("a\r\nb\tc\u{1b}d\u{7f}e\u{85}f\u{2028}") == #"a\r\nb\tc\u{1b}d\u{7f}e\u{85}f\u{2028}"#)
        #expect(ControlCharacters.quoted("say \"hi\"\\\n") == #""say \"hi\"\\\n""#)
    }

    @Test(arguments: [
        ("htps://hooks.slack.com/services/T0/B0/XXXX", #""htps://hooks.slack.com" (the rest of the URL is not shown)"#),
        ("ftp://example.com", #""ftp://example.com""#),
        ("ftp://user:pw@example.com:21/x?y", #""ftp://example.com:21" (the rest of the URL is not shown)"#),
        ("fc.yahoo.com", #""fc.yahoo.com""#),
        ("hooks.slack.com/services/T0/B0/XXXX", #""hooks.slack.com" (the rest of the URL is not shown)"#),
        ("http://host\n/x", #""http://host\n" (the rest of the URL is not shown)"#),
    ])
    func urlsAreShownAsSchemeAndHost(url: String, shown: String) {
        #expect(URLDisplay.schemeAndHost(url) == shown)
    }
}
