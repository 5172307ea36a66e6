import ArgumentParser
import PriceWatchApp
import PriceWatchCore

/// `pricewatch fx FROM TO [--source ecb|frankfurter] [--format text|json]`: a reference
/// exchange rate, with its time and source.
struct FXCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fx",
        abstract: "Look up a reference exchange rate (ECB, keyless).",
        discussion: """
            Fetches the European Central Bank's euro reference rates (from the ECB's daily file, \
            or from Frankfurter, which serves the same rates) and prints the rate from FROM to TO \
            (ISO 4217 codes), directly, inverted or through EUR, with the rate's time (16:00 \
            Frankfurt time on its business day) and source. A rate older than four days is marked \
            stale. Exit 1 when the source cannot be read or the pair is not covered (docs/currencies.md).
            """)


    @Argument(help: "The currency converted from (ISO 4217, e.g. EUR).")
    var from: String

    @Argument(help: "The currency converted to (ISO 4217, e.g. USD).")
    var to: String

    @Option(help: "Where the reference rates come from: ecb or frankfurter.")
    var source: LookUpExchangeRate.Reference = .ecb

    @Option(help: ArgumentHelp("Another address for the source (a mirror, a proxy, a test server).", valueName: "url"))
    var url: String?

    @Option(help: "Output format: text or json.")
    var format: OutputFormat = .text

    // Only for tests and demos: the instant taken as now (RFC 3339). Documented in docs/currencies.md.
    @Option(help: .hidden)
    var now: String?

    func validate() throws {
        for code in [from, to] where code.count != 3 || !code.allSatisfy({ $0.isLetter && $0.isASCII }) {
            throw ValidationError("expected a three-letter ISO 4217 currency code such as EUR, found '\(code)'")
        }
        if let now, Timestamp(parsing: now) == nil { throw ValidationError("--now: expected an RFC 3339 time, found '\(now)'") }
    }

    func run() async throws {
        let instant = now.flatMap(Timestamp.init(parsing:)) ?? Alerts.now()
        let outcome = await LookUpExchangeRate.run(from: from.uppercased(), to: to.uppercased(), source: source,
                                                   url: url, now: instant)
        var output = StandardOutput.output()
        switch outcome {
        case .failed(let message):
            throw StandardOutput.failure("error: \(message)")
        case .unknownPair(let known):
            throw StandardOutput.failure("error: no rate from \(from.uppercased()) to \(to.uppercased()) in the \(source.rawValue) rates "
                                         + "(currencies: \(known.joined(separator: ", ")))")
        case .found(let rate, let stale):
            switch format {
            case .text:
                output.line("1 \(rate.base) = \(rate.rate) \(rate.quote) (\(rate.source), \(rate.time.rfc3339)\(stale ? ", stale" : ""))")
            case .json:
                var json = JSONWriter()
                json.string("base", rate.base)
                json.string("quote", rate.quote)
                json.number("rate", rate.rate)
                json.time("time", rate.time)
                json.string("source", rate.source)
                json.boolean("stale", stale)
                output.line(json.result)
            }
            output.flush()
        }
    }
}

extension LookUpExchangeRate.Reference: ExpressibleByArgument {}
