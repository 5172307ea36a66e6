import Foundation
import PriceWatchCore
import PriceWatchTOML

/// Reads the portfolio files of `portfolios.d` beside the main file (docs/portfolios.md), with
/// the positioned diagnostics of rule files, and warns about files others may read: they hold
/// private financial data.
public enum PortfolioReader {
    static let keys = ["currency", "cash", "lot"]
    static let lotKeys = ["symbol", "quantity", "price", "currency", "date", "fees"]
    /// How the unit names the credential copies of `portfolios.d/NAME.toml`:
    /// `LoadCredential=portfolios:/etc/pricewatch/portfolios.d` gives `portfolios_NAME.toml`.
    static let credentialFilePrefix = "portfolios_"

    /// `portfolios.d` beside the main file at `mainFile`, absolute.
    public static func directory(mainFile: String) -> String {
        ConfigPaths.absolute(ConfigPaths.join(ConfigPaths.directory(of: mainFile), "portfolios.d"))
    }

    /// The portfolios of `portfolios.d` in the main file's directory (none when it does not
    /// exist) and every diagnostic; a file with errors gives no portfolio.
    ///
    /// Under systemd the daemon's dynamic user cannot read `portfolios.d` (root's, mode 0750):
    /// the unit hands the files over as credentials (`LoadCredential=portfolios:...`), and when
    /// `$CREDENTIALS_DIRECTORY` in `environment` holds any `portfolios_NAME.toml`, those copies
    /// are read instead (made when the service started; diagnostics still name
    /// `portfolios.d/NAME.toml`).
    public static func load(mainFile: String, environment: [String: String] = [:]) -> (portfolios: [Portfolio], diagnostics: [Diagnostic]) {
        let directory = ConfigPaths.directory(of: mainFile)
        let display = ConfigPaths.join(directory, "portfolios.d")
        var absolute = ConfigPaths.absolute(display)
        var names: [String] = []
        var credentialPrefix = ""
        if let credentials = environment["CREDENTIALS_DIRECTORY"], !credentials.isEmpty,
           let entries = try? FileManager.default.contentsOfDirectory(atPath: credentials),
           entries.contains(where: { $0.hasPrefix(credentialFilePrefix) && $0.hasSuffix(".toml") }) {
            absolute = credentials
            credentialPrefix = credentialFilePrefix
            names = entries.filter { $0.hasPrefix(credentialFilePrefix) }
        } else {
            guard ConfigPaths.kind(of: absolute) == .directory else { return ([], []) }
            // Under systemd the dynamic user cannot read root's directory, and an empty one
            // gives no credential copies: that is no portfolio, not an error.
            if environment["CREDENTIALS_DIRECTORY"].map({ !$0.isEmpty }) == true, access(absolute, R_OK | X_OK) != 0 {
                return ([], [])
            }
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: absolute)
            } catch {
                return ([], [.error("cannot list the portfolios directory: \(ConfigPaths.describe(error))", path: display)])
            }
        }
        var portfolios: [Portfolio] = []
        var diagnostics: [Diagnostic] = []
        for entry in names.filter({ $0.hasSuffix(".toml") && !$0.hasPrefix(".") }).sorted() {
            let name = String(entry.dropFirst(credentialPrefix.count))
            let path = ConfigPaths.join(absolute, entry)
            let file = ConfigFile.read(absolutePath: path, displayPath: ConfigPaths.join(display, name), what: "portfolio file")
            let portfolio = read(file, name: String(name.dropLast(5)))
            if credentialPrefix.isEmpty, let warning = looseModeWarning(path: path, display: ConfigPaths.join(display, name)) {
                diagnostics.append(warning)
            }
            diagnostics += file.diagnostics
            if let portfolio, !file.diagnostics.containsErrors { portfolios.append(portfolio) }
        }
        return (portfolios, diagnostics.sortedByLocation())
    }

    /// The diagnostics of the one portfolio file at `path` (absolute), named `displayPath` in
    /// them, as ``load(mainFile:environment:)`` would give them for it: what `portfolio import`
    /// checks before it puts a new file in place.
    public static func check(path: String, displayPath: String, name: String) -> [Diagnostic] {
        let file = ConfigFile.read(absolutePath: path, displayPath: displayPath, what: "portfolio file")
        _ = read(file, name: name)
        return file.diagnostics
    }

    /// The portfolio in `file`; nil when it could not be parsed (its errors are in the file).
    static func read(_ file: ConfigFile, name: String) -> Portfolio? {
        guard let root = file.root else { return nil }
        let reader = TableReader(file: file, path: .root, values: root, subject: .root)
        reader.checkUnknownKeys(allowed: keys)
        let currency = currencyCode(reader, "currency")
        if !reader.has("currency") { reader.missing("missing 'currency' (the home currency, such as \"EUR\")", keys: ["currency"]) }
        var cash: [String: ExactDecimal] = [:]
        if let value = root["cash"] {
            if case .table(let table) = value {
                let cashReader = reader.nested("cash", values: table)
                for code in cashReader.keys {
                    guard isCurrencyCode(code) else {
                        cashReader.error("expected a three-letter currency code such as \"USD\", found \(Wording.quoted(code))", key: code)
                        continue
                    }
                    if let amount = cashReader.decimal(code) { cash[code] = amount }
                }
            } else {
                reader.error("expected a table of balances ([cash] with USD = 1000), found \(value.kindDescription)", key: "cash")
            }
        }
        var lots: [PortfolioLot] = []
        if let value = root["lot"] {
            guard case .array(let array) = value else {
                reader.error("expected an array of tables ([[lot]]), found \(value.kindDescription)", key: "lot")
                return nil
            }
            for (index, element) in array.elements.enumerated() {
                let path = TOMLKeyPath(keys: "lot").appending(index: index)
                guard case .table(let values) = element else {
                    file.error("lot #\(index + 1): expected a table, found \(element.kindDescription)", at: path)
                    continue
                }
                if let lot = readLot(TableReader(file: file, path: path, values: values, subject: .rule("lot #\(index + 1)"))) {
                    lots.append(lot)
                }
            }
        }
        guard let currency else { return nil }
        return Portfolio(name: name, currency: currency, cash: cash, lots: lots)
    }

    private static func readLot(_ reader: TableReader) -> PortfolioLot? {
        reader.checkUnknownKeys(allowed: lotKeys)
        let errors = reader.file.errorCount
        let symbol = reader.nonEmptyString("symbol", expected: "a symbol such as \"AAPL\"")
        let quantity = reader.decimal("quantity")
        if let quantity, quantity.scaled == 0 { reader.error("expected a quantity other than 0 (negative for a sale), found 0", key: "quantity") }
        let price = reader.decimal("price")
        if let price, price.scaled < 0 { reader.error("expected a price of 0 or more, found \(price)", key: "price") }
        let currency = currencyCode(reader, "currency")
        let fees = reader.decimal("fees") ?? .zero
        if fees.scaled < 0 { reader.error("expected fees of 0 or more, found \(fees)", key: "fees") }
        var date: CivilDate?
        if let value = reader["date"] {
            if case .date(let written) = value, let civil = CivilDate(year: written.year, month: written.month, day: written.day) {
                date = civil
            } else {
                reader.error("expected a date such as 2024-10-02, found \(value.kindDescription)", key: "date")
            }
        }
        let missing = ["symbol", "quantity", "price", "currency", "date"].filter { !reader.has($0) }
        if !missing.isEmpty {
            reader.missing("missing " + Wording.quotedList(missing, conjunction: "and"), keys: missing)
        }
        guard reader.file.errorCount == errors, let symbol, let quantity, let price, let currency, let date else { return nil }
        return PortfolioLot(symbol: symbol, quantity: quantity, price: price, currency: currency, date: date, fees: fees)
    }

    private static func currencyCode(_ reader: TableReader, _ key: String) -> String? {
        guard let code = reader.nonEmptyString(key, expected: "a three-letter currency code such as \"USD\"") else { return nil }
        guard isCurrencyCode(code) else {
            reader.error("expected a three-letter currency code such as \"USD\" (GBp and other minor units are written as their major currency), found \(Wording.quoted(code))", key: key)
            return nil
        }
        return code
    }

    static func isCurrencyCode(_ code: String) -> Bool {
        code.utf8.count == 3 && code.utf8.allSatisfy { (0x41...0x5A).contains($0) }
    }

    /// A warning when every user of the machine may read the file (its group may: the
    /// operators' group).
    static func looseModeWarning(path: String, display: String) -> Diagnostic? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let mode = UInt32(info.st_mode) & 0o777
        guard mode & 0o004 != 0 else { return nil }
        let octal = String(mode, radix: 8)
        return .warning("the portfolio file is readable by every user (mode \(String(repeating: "0", count: max(0, 4 - octal.count)) + octal)); "
                        + "it holds private financial data: make it readable by its owner and group only (chmod 640)",
                        path: display)
    }
}
