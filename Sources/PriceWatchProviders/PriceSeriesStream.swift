#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PriceWatchCore

/// Reads a backtest CSV and hands its rows on in time order (equal times in file order)
/// without holding the file's rows in memory.
///
/// A file already in time order (the usual export) is read once and every row is handed on
/// as it is read. A file that turns out not to be (found at its first row earlier than the
/// one before) is read again from the start and sorted in bounded memory: runs of
/// ``Options/runSize`` rows are sorted and written to an unlinked temporary file, then merged
/// (``PriceRowRuns``). Memory grows with the symbol table and the run size, never with rows.
public enum PriceSeriesStream {
    /// Tuning; the defaults suit any file size.
    public struct Options: Sendable {
        /// Rows sorted in memory at a time when the file is not in time order (32 bytes each).
        public var runSize = 1 << 18
        /// Bytes read from the file at a time.
        public var chunkSize = 1 << 20
        /// Where the sorted runs go; nil: `$TMPDIR`, else `/tmp`.
        public var temporaryDirectory: String?

        public init(runSize: Int = 1 << 18, chunkSize: Int = 1 << 20, temporaryDirectory: String? = nil) {
            self.runSize = max(runSize, 1)
            self.chunkSize = max(chunkSize, 1)
            self.temporaryDirectory = temporaryDirectory
        }
    }

    /// What reading found.
    public struct Outcome: Sendable {
        /// Every diagnostic of the file (errors name `path:line`). With an error, rows handed
        /// on so far are to be discarded: the file is not valid.
        public var diagnostics: [Diagnostic] = []
        /// Whether the file was out of time order (and so read twice and sorted).
        public var sorted = false
        /// Sorted runs written to the temporary file (0: sorted in memory or not sorted).
        public var runs = 0
    }

    /// Reads `path`, calling `row` with each row in time order and the symbol and currency
    /// tables its indexes refer to. When the file is found out of order, `restart` is called
    /// first: everything handed on before is void, and the rows come again from the earliest.
    public static func forEachRowInTimeOrder(
        path: String, options: Options = Options(), restart: () -> Void,
        row body: (PriceRow, _ symbols: [String], _ currencies: [String]) -> Void
    ) -> Outcome {
        let descriptor: Int32
        switch RegularFile.opening(path) {
        case .success(let opened): descriptor = opened
        case .failure(let failure): return Outcome(diagnostics: [.error("cannot read the price data: \(failure.reason)", path: path)])
        }
        defer { close(descriptor) }
        var chunk = [UInt8](repeating: 0, count: options.chunkSize)

        // Pass one: in time order, every row is handed on as it is read.
        var reader = PriceSeriesReader(path: path)
        var last = Int64.min
        var outOfOrder = false
        func handOn(_ reader: inout PriceSeriesReader) {
            if outOfOrder || reader.diagnostics.containsErrors {
                reader.drainRows { _ in }
                return
            }
            let symbols = reader.series.symbols, currencies = reader.series.currencies
            reader.drainRows { row in
                guard !outOfOrder else { return }
                if row.time < last {
                    outOfOrder = true
                    return
                }
                last = row.time
                body(row, symbols, currencies)
            }
        }
        let first = readAll(descriptor, chunk: &chunk, reader: &reader, afterChunk: handOn)
        if let failure = first { return Outcome(diagnostics: [failure]) }
        let (_, firstDiagnostics) = reader.finish()
        handOn(&reader)
        if !outOfOrder || firstDiagnostics.containsErrors {
            return Outcome(diagnostics: firstDiagnostics)
        }

        // Pass two: sort in runs, spill, merge.
        restart()
        guard lseek(descriptor, 0, SEEK_SET) == 0 else {
            return Outcome(diagnostics: [.error("cannot read the price data again to sort it: \(String(cString: strerror(errno)))", path: path)])
        }
        var outcome = Outcome(sorted: true)
        reader = PriceSeriesReader(path: path)
        var run: [PriceRow] = []
        run.reserveCapacity(min(options.runSize, 1 << 16))
        var runs: PriceRowRuns?
        var spillFailure: String?
        let second = readAll(descriptor, chunk: &chunk, reader: &reader) { reader in
            reader.drainRows { row in
                guard spillFailure == nil else { return }
                run.append(row)
                guard run.count >= options.runSize else { return }
                do {
                    let spill = try runs ?? PriceRowRuns(directory: options.temporaryDirectory)
                    runs = spill
                    try spill.append(sortedRun: PriceRowRuns.sortedByTime(run))
                } catch {
                    spillFailure = "\(error)"
                }
                run.removeAll(keepingCapacity: true)
            }
        }
        if let failure = second { return Outcome(diagnostics: [failure]) }
        let (series, diagnostics) = reader.finish()
        reader.drainRows { run.append($0) }
        outcome.diagnostics = diagnostics
        if let spillFailure {
            outcome.diagnostics.append(.error("cannot sort the price data: \(spillFailure)", path: path))
        }
        guard !outcome.diagnostics.containsErrors else { return outcome }
        let symbols = series.symbols, currencies = series.currencies
        guard let runs else {
            for row in PriceRowRuns.sortedByTime(run) { body(row, symbols, currencies) }
            return outcome
        }
        do {
            if !run.isEmpty { try runs.append(sortedRun: PriceRowRuns.sortedByTime(run)) }
            run = []
            outcome.runs = runs.count
            try runs.merge { body($0, symbols, currencies) }
        } catch {
            outcome.diagnostics.append(.error("cannot sort the price data: \(error)", path: path))
        }
        return outcome
    }

    /// Feeds the whole file to `reader`, calling `afterChunk` after each chunk; a diagnostic
    /// when reading fails.
    private static func readAll(_ descriptor: Int32, chunk: inout [UInt8], reader: inout PriceSeriesReader,
                                afterChunk: (inout PriceSeriesReader) -> Void) -> Diagnostic? {
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .error("cannot read the price data: \(String(cString: strerror(errno)))", path: reader.path)
            }
            if count == 0 { return nil }
            chunk.withUnsafeBufferPointer { reader.feed($0[0..<count]) }
            afterChunk(&reader)
        }
    }
}
