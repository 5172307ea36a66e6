/// Reads the backtest CSV of `docs/rules.md` incrementally: feed it the file's bytes in chunks of
/// any size, then call ``finish()``.
///
/// - A header names the columns; `symbol`, `time` and `price` are required, `previous_close`
///   and `currency` optional, in any order. Other columns are ignored with a warning.
/// - `time` is RFC 3339, unix seconds, or a date (midnight UTC).
/// - Fields may be quoted (`"BRK.B"`, with `""` for a quote inside); CRLF and a UTF-8 byte
///   order mark are accepted; blank lines are skipped.
/// - Every malformed row is an error naming `path:line`; reading goes on so that all of them
///   are reported at once (up to ``maximumErrors``).
/// - Input is bounded: a line longer than ``maximumLineBytes`` is an error and is skipped
///   without being held (so one huge field costs neither memory nor a huge message), a symbol
///   longer than ``maximumSymbolLength`` is an error, and a message shows only the start of a
///   bad value.
public struct PriceSeriesReader {
    public let path: String
    public private(set) var series = PriceSeries()
    public private(set) var diagnostics: [Diagnostic] = []
    /// After this many errors the rest are counted, not listed.
    public static let maximumErrors = 50
    /// The longest line read, in bytes; a row of five fields needs well under 200.
    public static let maximumLineBytes = 1 << 16
    /// The longest symbol accepted, in characters.
    public static let maximumSymbolLength = 64

    private var pending: [UInt8] = []
    private var line = 0
    private var columns: Columns?
    private var errorCount = 0
    private var symbolIndex: [String: Int32] = [:]
    private var currencyIndex: [String: Int32] = [:]
    private var sawBOMCheck = false
    /// Set after a line over ``maximumLineBytes``: its rest is dropped up to the next newline.
    private var skippingLongLine = false
    private var fieldBuffer: [Field] = []

    struct Columns {
        var symbol = -1, time = -1, price = -1, previousClose = -1, currency = -1
        var count = 0
    }

    public init(path: String) { self.path = path }

    /// Reads every complete line of `chunk`, keeping a trailing partial line for later.
    public mutating func feed(_ chunk: some Collection<UInt8>) {
        if skippingLongLine {
            guard let newline = chunk.firstIndex(of: UInt8(ascii: "\n")) else { return }
            skippingLongLine = false
            pending.append(contentsOf: chunk[chunk.index(after: newline)...])
        } else {
            pending.append(contentsOf: chunk)
        }
        var start = 0
        if !sawBOMCheck, pending.count >= 3 {
            sawBOMCheck = true
            if pending[0] == 0xEF, pending[1] == 0xBB, pending[2] == 0xBF { start = 3 }
        }
        var consumedUpTo = start
        pending.withUnsafeBufferPointer { buffer in
            var lineStart = start
            var inQuotes = false
            var index = start
            while index < buffer.count {
                let byte = buffer[index]
                if byte == UInt8(ascii: "\"") {
                    inQuotes.toggle()
                } else if byte == UInt8(ascii: "\n"), !inQuotes {
                    readLine(buffer[lineStart..<index])
                    lineStart = index + 1
                    consumedUpTo = lineStart
                }
                index += 1
            }
        }
        pending.removeFirst(consumedUpTo)
        if pending.count > Self.maximumLineBytes {
            // A line (or a quoted field never closed) without end in sight: report it, and drop
            // what comes up to its newline instead of holding it.
            line += 1
            error(Self.longLineMessage)
            pending.removeAll()
            skippingLongLine = true
        }
    }

    private static let longLineMessage = "the line is longer than \(maximumLineBytes) bytes; expected a row of symbol, time and price (the line is skipped)"

    /// Hands the rows read since the last call to `body`, in file order, and forgets them:
    /// a streaming consumer calls this after each ``feed(_:)`` so rows are never all held.
    /// The symbol and currency tables (``PriceSeries/symbols``) stay and keep growing.
    public mutating func drainRows(_ body: (PriceRow) throws -> Void) rethrows {
        for index in 0..<series.count { try body(series.row(at: index)) }
        series.removeAllRows()
    }

    /// Reads the last line (if it has no newline) and reports a missing header or data.
    public mutating func finish() -> (series: PriceSeries, diagnostics: [Diagnostic]) {
        if !pending.isEmpty {
            let rest = pending
            pending.removeAll()
            rest.withUnsafeBufferPointer { readLine($0[...]) }
        }
        if columns == nil {
            diagnostics.append(.error("expected a header row naming the columns symbol, time and price, found an empty file", path: path))
        }
        if errorCount > Self.maximumErrors {
            diagnostics.append(.error("\(errorCount - Self.maximumErrors) more malformed rows not listed", path: path))
        }
        return (series, diagnostics)
    }

    private mutating func error(_ message: String, column: Int? = nil) {
        errorCount += 1
        if errorCount <= Self.maximumErrors {
            diagnostics.append(.error(message, path: path, line: line, column: column))
        }
    }

    private mutating func readLine(_ raw: Slice<UnsafeBufferPointer<UInt8>>) {
        line += 1
        guard raw.count <= Self.maximumLineBytes else {
            error(Self.longLineMessage)
            return
        }
        var bytes = raw
        if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
        if bytes.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { return }
        // One array of fields reused for every line (no allocation per row).
        var fields = fieldBuffer
        fieldBuffer = []
        defer {
            fields.removeAll(keepingCapacity: true)
            fieldBuffer = fields
        }
        Self.split(bytes, into: &fields)
        guard let columns else {
            readHeader(fields)
            return
        }
        guard fields.count == columns.count else {
            error("expected \(columns.count) fields as in the header, found \(fields.count)")
            return
        }
        readRow(fields, columns)
    }

    private mutating func readHeader(_ fields: [Field]) {
        var columns = Columns()
        columns.count = fields.count
        for (index, field) in fields.enumerated() {
            let name = Substring(field.text).trimmingSpaces().lowercased()
            func assign(_ slot: inout Int) {
                if slot >= 0 { error("column '\(ControlCharacters.shortened(name))' appears twice in the header") } else { slot = index }
            }
            switch name {
            case "symbol": assign(&columns.symbol)
            case "time": assign(&columns.time)
            case "price": assign(&columns.price)
            case "previous_close": assign(&columns.previousClose)
            case "currency": assign(&columns.currency)
            default:
                var message = "ignoring unknown column '\(ControlCharacters.shortened(name))'"
                let known = ["symbol", "time", "price", "previous_close", "currency"]
                if let suggestion = Suggestion.closest(to: name, among: known) { message += "; did you mean '\(suggestion)'?" }
                diagnostics.append(.warning(message, path: path, line: line))
            }
        }
        let missing = [("symbol", columns.symbol), ("time", columns.time), ("price", columns.price)].filter { $0.1 < 0 }.map(\.0)
        if !missing.isEmpty {
            error("expected a header with the columns symbol, time and price, missing \(missing.joined(separator: ", "))")
        }
        self.columns = columns
    }

    private mutating func readRow(_ fields: [Field], _ columns: Columns) {
        guard columns.symbol >= 0, columns.time >= 0, columns.price >= 0 else { return }
        let symbolField = fields[columns.symbol]
        let symbol = symbolField.text
        // A symbol is printed in alert lines, tables and messages: no blank, no control character.
        guard !symbol.isEmpty, !symbol.contains(where: { $0 == " " || $0 == "\t" }), !ControlCharacters.contains(symbol) else {
            error("expected a symbol without blanks or control characters, found '\(ControlCharacters.shortened(symbol))'", column: symbolField.column)
            return
        }
        guard symbol.count <= Self.maximumSymbolLength else {
            error("expected a symbol of at most \(Self.maximumSymbolLength) characters, found \(symbol.count): '\(ControlCharacters.shortened(symbol))'",
                  column: symbolField.column)
            return
        }
        let timeField = fields[columns.time]
        guard let time = timeField.withBytes({ Timestamp.parse($0) }) else {
            error("symbol \(symbol): expected a time as RFC 3339 (2024-10-02T13:30:00Z), unix seconds or a date (2024-10-02), found '\(ControlCharacters.shortened(timeField.text))'",
                  column: timeField.column)
            return
        }
        let priceField = fields[columns.price]
        let price: ExactDecimal
        switch priceField.withBytes({ Self.decimal($0) }) {
        case .success(let value): price = value
        case .failure(let reason):
            error("symbol \(symbol): price: \(reason)", column: priceField.column)
            return
        }
        guard price.isPositive else {
            error("symbol \(symbol): price must be greater than zero, found \(price)", column: priceField.column)
            return
        }
        var previousClose: Int64 = 0
        if columns.previousClose >= 0 {
            let field = fields[columns.previousClose]
            if !field.isEmpty {
                switch field.withBytes({ Self.decimal($0) }) {
                case .success(let value): previousClose = max(value.scaled, 0)
                case .failure(let reason):
                    error("symbol \(symbol): previous_close: \(reason)", column: field.column)
                    return
                }
            }
        }
        var currency: Int32 = -1
        if columns.currency >= 0 {
            let field = fields[columns.currency]
            let text = field.text
            if ControlCharacters.contains(text) {
                error("symbol \(symbol): currency: expected a currency code, found '\(ControlCharacters.shortened(text))'", column: field.column)
                return
            }
            if !text.isEmpty {
                if let known = currencyIndex[text] {
                    currency = known
                } else {
                    currency = Int32(series.currencies.count)
                    currencyIndex[text] = currency
                    series.currencies.append(text)
                }
            }
        }
        let symbolID: Int32
        if let known = symbolIndex[symbol] {
            symbolID = known
        } else {
            symbolID = Int32(series.symbols.count)
            symbolIndex[symbol] = symbolID
            series.symbols.append(symbol)
        }
        series.append(symbol: symbolID, time: time.milliseconds, price: price.scaled, previousClose: previousClose, currency: currency)
    }

    private static func decimal(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Result<ExactDecimal, ExactDecimal.ParseError> {
        do throws(ExactDecimal.ParseError) {
            return .success(try ExactDecimal.parse(bytes))
        } catch {
            return .failure(error)
        }
    }

    /// One field of a row: its bytes (unquoted) and its 1-based column in the line.
    struct Field {
        var storage: [UInt8]?
        var slice: Slice<UnsafeBufferPointer<UInt8>>
        var column: Int

        var isEmpty: Bool { storage?.isEmpty ?? slice.isEmpty }
        var text: String {
            if let storage { return String(decoding: storage, as: UTF8.self) }
            return String(decoding: slice, as: UTF8.self)
        }

        func withBytes<T>(_ body: (Slice<UnsafeBufferPointer<UInt8>>) -> T) -> T {
            if let storage { return storage.withUnsafeBufferPointer { body($0[...]) } }
            return body(slice)
        }
    }

    /// Splits a line at commas outside quotes. Unquoted fields are slices of the line (no copy).
    static func split(_ line: Slice<UnsafeBufferPointer<UInt8>>, into fields: inout [Field]) {
        var index = line.startIndex
        let lineStart = line.startIndex
        while true {
            let fieldStart = index
            if index < line.endIndex, line[index] == UInt8(ascii: "\"") {
                var unquoted: [UInt8] = []
                index += 1
                while index < line.endIndex {
                    if line[index] == UInt8(ascii: "\"") {
                        if index + 1 < line.endIndex, line[index + 1] == UInt8(ascii: "\"") {
                            unquoted.append(UInt8(ascii: "\""))
                            index += 2
                            continue
                        }
                        index += 1
                        break
                    }
                    unquoted.append(line[index])
                    index += 1
                }
                while index < line.endIndex, line[index] != UInt8(ascii: ",") { index += 1 }
                fields.append(Field(storage: unquoted, slice: line[fieldStart..<index], column: fieldStart - lineStart + 1))
            } else {
                while index < line.endIndex, line[index] != UInt8(ascii: ",") { index += 1 }
                var end = index
                var start = fieldStart
                while start < end, line[start] == UInt8(ascii: " ") { start += 1 }
                while end > start, line[end - 1] == UInt8(ascii: " ") { end -= 1 }
                fields.append(Field(storage: nil, slice: line[start..<end], column: fieldStart - lineStart + 1))
            }
            if index >= line.endIndex { break }
            index += 1
        }
    }
}
