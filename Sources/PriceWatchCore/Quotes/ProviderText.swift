/// The one check of the strings a provider sends besides prices and times: currencies,
/// exchanges, market states, time zones and, in search results, names and types.
///
/// Provider text is data, never markup: it reaches text outputs, log lines, alert messages,
/// email headers and webhook bodies. A field that breaks the rules below is dropped (the quote
/// keeps its price and time, the field becomes absent) and a ``Problem`` names the symbol and
/// the field, so the caller can warn. Rules:
/// - a currency is three ASCII letters (`USD`, `usd` is accepted as written) or one of the
///   minor-unit codes services use (`GBp`, `GBX`, `ZAc`, `ZAC`, `ILA`);
/// - every other field has no control character (``ControlCharacters``) and at most
///   ``maximumLength`` characters; an empty one is absent.
public enum ProviderText {
    /// The longest exchange, market state, time zone, name or type accepted, in characters.
    public static let maximumLength = 120
    /// Minor-unit currency codes (pence, cents, agorot) that are not three upper-case letters
    /// or that stand for a fraction of the currency they look like.
    public static let minorUnitCurrencies: Set<String> = ["GBp", "GBX", "ZAc", "ZAC", "ILA"]

    /// A field that was dropped, with what was found (escaped, shortened).
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        public var symbol: String
        public var field: String
        public var expected: String
        public var found: String

        public var description: String {
            "\(ControlCharacters.escaped(symbol)): ignoring the provider's \(field): expected \(expected), found \(found)"
        }
    }

    /// Whether `text` is a currency code as the rules above define it.
    public static func isCurrency(_ text: String) -> Bool {
        if minorUnitCurrencies.contains(text) { return true }
        let bytes = Array(text.utf8)
        return bytes.count == 3 && bytes.allSatisfy { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }

    /// Whether `text` is an acceptable label (exchange, market state, name, …).
    public static func isLabel(_ text: String) -> Bool {
        !text.isEmpty && text.count <= maximumLength && !ControlCharacters.contains(text)
    }

    /// `quote` with every unacceptable field removed, and what was removed.
    public static func validated(_ quote: Quote) -> (quote: Quote, problems: [Problem]) {
        var quote = quote
        var problems: [Problem] = []
        let symbol = quote.symbol
        func check(_ value: inout String?, field: String, currency: Bool = false) {
            guard let text = value else { return }
            let valid = currency ? isCurrency(text) : isLabel(text)
            guard !valid else { return }
            value = nil
            problems.append(Problem(symbol: symbol, field: field,
                                    expected: currency ? "a three-letter currency code" : label,
                                    found: shown(text)))
        }
        check(&quote.currency, field: "currency", currency: true)
        check(&quote.exchange, field: "exchange")
        check(&quote.marketState, field: "market state")
        check(&quote.exchangeTimeZone, field: "exchange time zone")
        return (quote, problems)
    }

    /// `match` with every unacceptable optional field removed; a symbol that is not a label
    /// (control characters, too long) makes the whole match unusable (`nil`).
    public static func validated(_ match: SymbolMatch) -> (match: SymbolMatch?, problems: [Problem]) {
        guard isLabel(match.symbol), !match.symbol.contains(where: \.isWhitespace) else {
            return (nil, [Problem(symbol: String(match.symbol.prefix(40)), field: "symbol",
                                  expected: "a symbol without blanks or control characters", found: shown(match.symbol))])
        }
        var match = match
        var problems: [Problem] = []
        let symbol = match.symbol
        func check(_ value: inout String?, field: String) {
            guard let text = value, !isLabel(text) else { return }
            value = nil
            problems.append(Problem(symbol: symbol, field: field, expected: label, found: shown(text)))
        }
        check(&match.name, field: "name")
        check(&match.exchange, field: "exchange")
        check(&match.type, field: "type")
        return (match, problems)
    }

    /// Validates every quote of a provider's answer in place; the problems of all of them.
    public static func validate(_ answers: inout [String: Result<Quote, ProviderError>]) -> [Problem] {
        var problems: [Problem] = []
        for (symbol, result) in answers {
            guard case .success(let quote) = result else { continue }
            let checked = validated(quote)
            guard !checked.problems.isEmpty else { continue }
            answers[symbol] = .success(checked.quote)
            problems += checked.problems
        }
        return problems
    }

    private static let label = "text without control characters, at most \(maximumLength) characters"

    /// The value quoted and escaped, at most 60 characters of it.
    private static func shown(_ text: String) -> String {
        text.count > 60 ? ControlCharacters.quoted(String(text.prefix(60))) + "…" : ControlCharacters.quoted(text)
    }
}
