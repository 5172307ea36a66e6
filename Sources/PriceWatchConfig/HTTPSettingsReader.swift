import PriceWatchCore
import PriceWatchTOML

/// Reads the main file's `[http]` table: the daemon's HTTP endpoint (dashboard, metrics,
/// health). Off unless the table is written.
extension MainFileReader {
    static let httpKeys = ["listen", "token", "max_connections", "markets"]

    func readHTTP(_ root: TableReader) -> HTTPEndpointSettings? {
        guard let value = root["http"] else { return nil }
        guard case .table(let table) = value else {
            root.error("expected a table ([http] with listen = \"127.0.0.1:8490\"), found \(value.kindDescription)", key: "http")
            return nil
        }
        let reader = root.nested("http", values: table)
        reader.checkUnknownKeys(allowed: Self.httpKeys)
        let errors = file.errorCount
        var settings = HTTPEndpointSettings()
        if let listen = reader.nonEmptyString("listen", expected: "an address and port such as \"127.0.0.1:8490\"") {
            if let parsed = HTTPEndpointSettings.parseListen(listen) {
                settings.host = parsed.host
                settings.port = parsed.port
            } else {
                reader.error("expected an address and port such as \"127.0.0.1:8490\" or \"[::1]:8490\", found \(Wording.quoted(listen))",
                             key: "listen")
            }
        }
        settings.token = SecretResolver(baseDirectory: baseDirectory, environment: environment).resolve("token", in: reader)
        if let maximum = reader.positiveInteger("max_connections") { settings.maximumConnections = maximum }
        if let markets = readMarkets(reader, root: root) { settings.markets = markets }
        if !settings.isLoopback, !reader.has("token"), file.errorCount == errors {
            reader.error("listening on \(settings.host), which is not a loopback address, requires 'token' "
                         + "(a secret as { file = \"PATH\" }, { credential = \"NAME\" } or { env = \"VAR\" })", key: "listen")
        }
        return file.errorCount == errors ? settings : nil
    }

    /// The markets page's list: symbols as a rule writes them, each once, at most
    /// ``maximumMarkets``; they are polled through the main file's provider, so one is needed.
    private func readMarkets(_ reader: TableReader, root: TableReader) -> [String]? {
        guard let markets = reader.stringArray("markets", expected: "an array of symbols such as [\"^GSPC\", \"EURUSD=X\"]") else {
            return nil
        }
        var valid = true
        var seen: Set<String> = []
        for (index, symbol) in markets.enumerated() {
            let elementPath = reader.path.appending("markets").appending(index: index)
            if let problem = RuleReader.symbolProblem(symbol) {
                reader.error(problem, key: "markets", at: elementPath)
                valid = false
            } else if !seen.insert(symbol).inserted {
                reader.error("symbol '\(symbol)' is listed twice", key: "markets", at: elementPath)
                valid = false
            }
        }
        if markets.count > Self.maximumMarkets {
            reader.error("expected at most \(Self.maximumMarkets) symbols, found \(markets.count)", key: "markets")
            valid = false
        }
        // Polled through the main file's provider: `provider`, or the only [providers.NAME].
        let providerTables: Int
        if case .table(let providers) = root["providers"] { providerTables = providers.count } else { providerTables = 0 }
        if !markets.isEmpty, !root.has("provider"), providerTables != 1 {
            reader.error("'markets' are polled through the main file's provider: set 'provider' (there are "
                         + "\(providerTables) [providers.NAME] tables)", key: "markets")
            valid = false
        }
        return valid ? markets : nil
    }

    /// The most symbols the markets page lists.
    static let maximumMarkets = 100
}
