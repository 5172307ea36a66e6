/// One series a rule names, with its arguments: `sma(50)`, `bb_upper(20,2)`, `price`.
///
/// Made only by ``init(parsing:)``, which checks the name and arguments against the
/// indicator's parameters, so a spec always describes a computable series. Two specs are equal
/// when they name the same series (`sma(50)` and `sma( 50 )` are one series, computed once).
public struct SeriesSpec: Sendable, Hashable, CustomStringConvertible {
    /// The canonical text: `sma(50)`, `bb_upper(20,2)`, `price`.
    public let description: String
    public let arguments: [Double]
    /// The indicator's name (a key into ``IndicatorCatalog``).
    public let name: String
    /// The indicator that computes it (found once, when the spec is made: the engine asks for
    /// it on every bar).
    public let indicator: any Indicator

    /// The price series, tested by default.
    public static let price = SeriesSpec(indicator: PriceIndicator(), arguments: [])

    private init(indicator: any Indicator, arguments: [Double]) {
        self.indicator = indicator
        let name = indicator.name
        self.name = name
        self.arguments = arguments
        self.description = arguments.isEmpty ? name : "\(name)(\(arguments.map(Self.format).joined(separator: ",")))"
    }

    /// Closed bars needed before the first value.
    public var warmUpBars: Int { indicator.warmUpBars(arguments) }

    public static func == (lhs: SeriesSpec, rhs: SeriesSpec) -> Bool { lhs.description == rhs.description }
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }

    /// Why a series text could not be read; the description is the whole message.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Reads `name` or `name(arg, …)`, checking the name (with a suggestion), the count of
    /// arguments, each one's kind and range, and the indicator's own checks.
    public init(parsing text: String) throws(ParseError) {
        let trimmed = text.filter { $0 != " " }
        let name: String
        var arguments: [Double] = []
        if let open = trimmed.firstIndex(of: "(") {
            name = String(trimmed[..<open])
            guard trimmed.hasSuffix(")") else {
                throw ParseError(description: "expected a series such as \"sma(50)\" with its arguments in parentheses, "
                                 + "found \(Self.quoted(text)) (no closing parenthesis)")
            }
            let inner = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
            for part in inner.split(separator: ",", omittingEmptySubsequences: false) {
                guard let number = Double(part), number.isFinite else {
                    throw ParseError(description: "expected numbers as the arguments of '\(name)', found \(Self.quoted(String(part)))")
                }
                arguments.append(number)
            }
        } else {
            name = trimmed
        }
        guard let indicator = IndicatorCatalog.indicator(named: name) else {
            var message = "expected a series such as \"price\", \"sma(50)\" or \"rsi(14)\", found \(Self.quoted(text))"
            let known = name.isEmpty ? nil : Suggestion.closest(to: name, among: IndicatorCatalog.names)
            if let known { message += "; did you mean '\(known)'?" } else {
                message += " (known series: " + IndicatorCatalog.names.joined(separator: ", ") + ")"
            }
            throw ParseError(description: message)
        }
        let parameters = indicator.parameters
        guard arguments.count == parameters.count else {
            throw ParseError(description: "\(name) takes \(Self.describe(parameters)), found \(arguments.count)")
        }
        for (parameter, value) in zip(parameters, arguments) {
            if parameter.isWhole, value.rounded() != value {
                throw ParseError(description: "\(name)'s \(parameter.name) is a whole number of bars, found \(Self.format(value))")
            }
            guard parameter.range.contains(value) else {
                throw ParseError(description: "\(name)'s \(parameter.name) must be between \(Self.format(parameter.range.lowerBound)) "
                                 + "and \(Self.format(parameter.range.upperBound)), found \(Self.format(value))")
            }
        }
        if let problem = indicator.problem(with: arguments) { throw ParseError(description: problem) }
        self.init(indicator: indicator, arguments: arguments)
    }

    /// `one length`, `three arguments (fast, slow, signal)`, `no arguments`.
    private static func describe(_ parameters: [IndicatorParameter]) -> String {
        switch parameters.count {
        case 0: return "no arguments"
        case 1: return "one \(parameters[0].name)"
        default:
            let words = ["two", "three", "four", "five"]
            let count = parameters.count - 2 < words.count ? words[parameters.count - 2] : String(parameters.count)
            return "\(count) arguments (\(parameters.map(\.name).joined(separator: ", ")))"
        }
    }

    /// `50`, `2`, `2.5`: whole numbers without a fraction.
    static func format(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    private static func quoted(_ text: String) -> String {
        "\"" + ControlCharacters.escaped(text.count > 40 ? String(text.prefix(40)) + "…" : text) + "\""
    }
}
