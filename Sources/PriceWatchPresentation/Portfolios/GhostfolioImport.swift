import PriceWatchCore
import Foundation

/// Reads a Ghostfolio activities CSV (the columns Ghostfolio's own import accepts, any case:
/// date or tradedate; code, symbol or ticker; action, type or buy/sell; qty, quantity, shares or
/// units; price, unitprice, tradeprice or value; fee, commission or ibcommission; ccy, currency
/// or currencyprimary) into a ``Portfolio``: BUY and SELL become lots, DIVIDEND and INTEREST add
/// to cash, FEE takes from it; ITEM and LIABILITY are skipped with a note. Pure; every problem
/// names its line.
public enum GhostfolioImport {
    /// What the import made, and the rows it skipped with why.
    public struct Result: Sendable, Hashable {
        public var portfolio: Portfolio
        public var notes: [String]
    }

    /// Why the file cannot be imported: names the line, what was expected and what was found.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    static let columns: [(field: String, names: [String])] = [
        ("date", ["date", "tradedate", "trade date"]),
        ("symbol", ["code", "symbol", "ticker"]),
        ("type", ["action", "type", "buy/sell"]),
        ("quantity", ["qty", "quantity", "shares", "units"]),
        ("price", ["price", "unitprice", "tradeprice", "value", "purchase price"]),
        ("fee", ["fee", "commission", "ibcommission"]),
        ("currency", ["ccy", "currency", "currencyprimary"]),
    ]

    /// The largest file read, in bytes.
    public static let maximumFileBytes = 4 << 20
    /// The most rows read (a portfolio file may hold at most 1 MiB: about 10,000 lots).
    public static let maximumRows = 10_000
    /// The longest symbol accepted, in characters.
    public static let maximumSymbolLength = 64

    /// - Parameter currency: the home currency; nil: the currency most rows use.
    public static func read(_ text: String, name: String, currency: String?) throws(Failure) -> Result {
        // Counted before the rows are split (which holds them all).
        var lines = 0
        for byte in text.utf8 where byte == UInt8(ascii: "\n") {
            lines += 1
            if lines > maximumRows + 1 {
                throw Failure(description: "expected at most \(maximumRows) rows, found more")
            }
        }
        let rows = CSVRows.parse(text)
        guard let header = rows.first else { throw Failure(description: "line 1: expected a header row, found an empty file") }
        let names = header.fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        var index: [String: Int] = [:]
        for (field, aliases) in columns {
            if let position = names.firstIndex(where: aliases.contains) { index[field] = position }
        }
        let required = ["date", "symbol", "type", "quantity", "price", "currency"]
        let missing = required.filter { index[$0] == nil }
        guard missing.isEmpty else {
            throw Failure(description: "line 1: expected the columns \(missing.joined(separator: ", ")) (Ghostfolio's names, such as Date, Symbol, Type, Quantity, UnitPrice, Currency), found \(header.fields.joined(separator: ", "))")
        }
        var lots: [PortfolioLot] = []
        var cash: [String: ExactDecimal] = [:]
        var notes: [String] = []
        var currencyCounts: [String: Int] = [:]
        for row in rows.dropFirst() where !row.fields.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
            func value(_ field: String) -> String {
                guard let position = index[field], position < row.fields.count else { return "" }
                return row.fields[position].trimmingCharacters(in: .whitespaces)
            }
            func number(_ field: String, required: Bool = true) throws(Failure) -> ExactDecimal {
                let text = value(field)
                if text.isEmpty && !required { return .zero }
                guard let number = ExactDecimal(text) else {
                    throw Failure(description: "line \(row.line): \(field): expected a number, found \(ControlCharacters.shown(text))")
                }
                return number
            }
            let type = value("type").uppercased()
            let code = value("currency")
            guard code.utf8.count == 3, code.utf8.allSatisfy({ (0x41...0x5A).contains($0) }) else {
                throw Failure(description: "line \(row.line): currency: expected a three-letter code such as USD, found \(ControlCharacters.shown(code))")
            }
            guard let date = parseDate(value("date")) else {
                throw Failure(description: "line \(row.line): date: expected a date such as 2024-10-02 or 02-10-2024, found \(ControlCharacters.shown(value("date")))")
            }
            let quantity = try number("quantity"), price = try number("price"), fee = try number("fee", required: false)
            currencyCounts[code, default: 0] += 1
            switch type {
            case "BUY", "SELL":
                let symbol = value("symbol")
                guard !symbol.isEmpty else { throw Failure(description: "line \(row.line): symbol: expected a symbol, found none") }
                guard !symbol.contains(where: \.isWhitespace), !ControlCharacters.contains(symbol), symbol.count <= maximumSymbolLength else {
                    throw Failure(description: "line \(row.line): symbol: expected a symbol of at most \(maximumSymbolLength) characters without blanks or control characters, found \(ControlCharacters.shown(symbol))")
                }
                guard price.scaled >= 0 else {
                    throw Failure(description: "line \(row.line): price: expected a price of 0 or more, found \(price)")
                }
                guard quantity.scaled != 0 else { throw Failure(description: "line \(row.line): quantity: expected a quantity other than 0, found 0") }
                let magnitude = quantity.scaled < 0 ? quantity.negated : quantity
                lots.append(PortfolioLot(symbol: symbol, quantity: type == "BUY" ? magnitude : magnitude.negated, price: price,
                                         currency: code, date: date, fees: fee))
            case "DIVIDEND", "INTEREST":
                let amount = (quantity.multiplied(by: price) ?? .zero).adding(fee.negated) ?? .zero
                cash[code] = (cash[code] ?? .zero).adding(amount) ?? cash[code]
            case "FEE":
                let amount = fee.scaled != 0 ? fee : (quantity.multiplied(by: price) ?? .zero)
                cash[code] = (cash[code] ?? .zero).adding(amount.negated) ?? cash[code]
            case "ITEM", "LIABILITY":
                notes.append("line \(row.line): \(type) skipped: a portfolio file holds securities and cash only")
            default:
                throw Failure(description: "line \(row.line): type: expected BUY, SELL, DIVIDEND, INTEREST, FEE, ITEM or LIABILITY, found \(ControlCharacters.shown(value("type")))")
            }
        }
        let home = currency ?? currencyCounts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key ?? "USD"
        return Result(portfolio: Portfolio(name: name, currency: home, cash: cash, lots: lots), notes: notes)
    }

    /// `2024-10-02`, `2024-10-02T09:30:00Z`, `02-10-2024`, `02/10/2024`, `02.10.2024`, `20241002`.
    static func parseDate(_ text: String) -> CivilDate? {
        if text.count >= 10, let date = CivilDate(parsing: String(text.prefix(10))) { return date }
        let digits = text.filter(\.isNumber)
        if text.count == 8, digits.count == 8, let year = Int(digits.prefix(4)), let month = Int(digits.dropFirst(4).prefix(2)), let day = Int(digits.suffix(2)) {
            return CivilDate(year: year, month: month, day: day)
        }
        for separator in ["-", "/", "."] {
            let parts = text.split(separator: Character(separator)).map(String.init)
            if parts.count == 3, parts[0].count <= 2, parts[2].count == 4, let day = Int(parts[0]), let month = Int(parts[1]), let year = Int(parts[2]) {
                return CivilDate(year: year, month: month, day: day)
            }
        }
        return nil
    }

    /// The portfolio as a portfolio file.
    public static func toml(_ portfolio: Portfolio, source: String) -> String {
        // A TOML basic string: `"` and `\` escaped, and every control character as \uXXXX.
        func quoted(_ text: String) -> String {
            var result = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": result += "\\\""
                case "\\": result += "\\\\"
                default:
                    if ControlCharacters.isControl(scalar) {
                        let hex = String(scalar.value, radix: 16, uppercase: true)
                        result += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                    } else {
                        result.unicodeScalars.append(scalar)
                    }
                }
            }
            return result + "\""
        }
        var lines = ["# Imported by `pricewatch portfolio import` from \(ControlCharacters.escaped(source)).",
                     "# Private financial data: keep this file readable by its owner and group only (chmod 640).", "",
                     "currency = \(quoted(portfolio.currency))"]
        if !portfolio.cash.isEmpty {
            lines += ["", "[cash]"] + portfolio.cash.sorted { $0.key < $1.key }.map { "\($0.key) = \($0.value)" }
        }
        for lot in portfolio.lots {
            lines += ["", "[[lot]]", "symbol = \(quoted(lot.symbol))", "quantity = \(lot.quantity)", "price = \(lot.price)",
                      "currency = \(quoted(lot.currency))", "date = \(lot.date)"]
            if lot.fees.scaled != 0 { lines.append("fees = \(lot.fees)") }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// RFC 4180 rows: fields split at commas, double-quoted fields with `""` for a quote and line
/// breaks inside; each row with the line it starts on.
struct CSVRows {
    var fields: [String]
    var line: Int

    static func parse(_ text: String) -> [CSVRows] {
        var rows: [CSVRows] = []
        var fields: [String] = []
        var field = ""
        var quoted = false
        var line = 1, start = 1
        var iterator = text.makeIterator()
        var pending: Character? = nil
        func next() -> Character? {
            if let character = pending { pending = nil; return character }
            return iterator.next()
        }
        while let character = next() {
            if quoted {
                if character == "\"" {
                    if let following = next() {
                        if following == "\"" { field.append("\"") } else { quoted = false; pending = following }
                    } else { quoted = false }
                } else {
                    if character == "\n" || character == "\r\n" { line += 1 }
                    field.append(character)
                }
                continue
            }
            switch character {
            case "\"" where field.isEmpty: quoted = true
            case ",": fields.append(field); field = ""
            case "\n", "\r\n", "\r":
                fields.append(field); field = ""
                rows.append(CSVRows(fields: fields, line: start))
                fields = []
                line += 1
                start = line
            default: field.append(character)
            }
        }
        if !field.isEmpty || !fields.isEmpty {
            fields.append(field)
            rows.append(CSVRows(fields: fields, line: start))
        }
        return rows
    }
}
