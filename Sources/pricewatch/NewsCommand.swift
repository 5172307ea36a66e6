import ArgumentParser
import FoundationEssentials
import PriceWatchApp
import PriceWatchCore

/// `pricewatch news [--limit N] [--format text|json] [--tz ZONE] [--base-url URL] [SYMBOL...]`
struct NewsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "news",
        abstract: "Print the latest news headlines per symbol (Yahoo Finance, keyless).",
        discussion: """
            One request per symbol to Yahoo Finance's per-symbol headline feed (RSS), no retries. \
            Without a symbol: the symbols of the configuration's rules, as 'watch' lists them. \
            Per symbol, newest first: the time, the outlet ('-' when the feed names none), the \
            title and the link; 'no headlines for SYMBOL' when the feed lists none. JSON: one \
            object per symbol with a 'headlines' array (empty when there are none). A symbol whose \
            feed cannot be read prints 'yahoo news feed for SYMBOL: error: MESSAGE' to standard \
            error, the other symbols are still printed, and the exit status is 1.
            """)

    @OptionGroup var config: ConfigOption
    @OptionGroup var credentials: CredentialsDirectoryOption

    @Option(help: ArgumentHelp("Headlines per symbol, newest first.", valueName: "n"))
    var limit: Int = LookUpNews.defaultLimit

    @Option(help: "Output format: text, or json for JSON Lines (one object per symbol, times UTC).")
    var format: OutputFormat = .text

    @OptionGroup var timeZone: TimeZoneOption

    @Option(help: ArgumentHelp("Another address for the feed (a mirror, a proxy, a test server); default https://feeds.finance.yahoo.com.",
                               valueName: "url"))
    var baseURL: String?

    @Argument(help: ArgumentHelp("Symbols as Yahoo writes them (AAPL, ASML.AS); default: the configuration's.", valueName: "symbol"))
    var symbols: [String] = []

    func validate() throws {
        try timeZone.refuseMarket("news")
        if limit < 1 { throw ValidationError("--limit: expected a whole number of at least 1, found \(limit)") }
        if let bad = symbols.first(where: { $0.isEmpty || $0.contains(where: \.isWhitespace) }) {
            throw ValidationError("expected a symbol without blanks, found '\(ControlCharacters.escaped(bad))'")
        }
        if let baseURL {
            let lower = baseURL.lowercased()
            guard lower.hasPrefix("http://") || lower.hasPrefix("https://"), !baseURL.contains(where: \.isWhitespace) else {
                throw ValidationError("--base-url: expected an http:// or https:// URL, found '\(ControlCharacters.escaped(baseURL))'")
            }
        }
    }

    func run() async throws {
        var wanted = symbols
        var feedBaseURL = baseURL
        if wanted.isEmpty {
            if config.isDefault && !FileManager.default.fileExists(atPath: config.path) {
                throw StandardOutput.failure("error: no symbol given, and no configuration at \(config.path) to take its rules' symbols from (pricewatch news AAPL)")
            }
            let (serviceCredentials, environment) = credentials.resolve()
            defer { serviceCredentials.cleanUp() }
            switch LookUpNews.configuredSymbols(configPath: config.path, environment: environment, report: StandardOutput.report) {
            case .configurationFailed:
                throw ExitCode.failure
            case .symbols(let configured, let configuredFeed):
                feedBaseURL = baseURL ?? configuredFeed
                // As `watch` does with no rules: said, and nothing else to do.
                guard !configured.isEmpty else {
                    var errors = StandardOutput.error()
                    errors.line("\(config.path): no rules")
                    errors.flush()
                    return
                }
                wanted = configured
            }
        }
        let answers = await LookUpNews.fetch(wanted, limit: limit, baseURL: feedBaseURL)
        var output = StandardOutput.output()
        var errors = StandardOutput.error()
        var failed = false
        for (symbol, answer) in answers {
            switch answer {
            case .success(let headlines):
                switch format {
                case .json: output.line(NewsRendering.jsonLine(symbol: symbol, headlines: headlines, feed: LookUpNews.feedName))
                case .text: for line in NewsRendering.text(symbol: symbol, headlines: headlines, zone: timeZone.zone) { output.line(line) }
                }
            case .failure(let error):
                failed = true
                let message = ControlCharacters.escaped(error.message)
                errors.line(SubjectErrorLine.text(subject: "yahoo news feed for \(ControlCharacters.escaped(symbol))", message: message))
            }
        }
        output.flush()
        errors.flush()
        if failed { throw ExitCode.failure }
    }
}
