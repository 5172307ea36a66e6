#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PriceWatchCore

/// Sorted runs of ``PriceRow``s in one unlinked temporary file, merged back in time order:
/// the external sort of ``PriceSeriesStream`` for files not in time order.
///
/// Runs are appended in file order and each is sorted by time with equal times in file order,
/// so the merge, taking the earliest time and on a tie the earliest run, yields equal times in
/// file order. The merge reads every run through a buffer of its own whose size shrinks as
/// runs grow in number, so it holds about ``mergeBufferRows`` rows whatever the file's size.
final class PriceRowRuns {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Rows held in memory by the merge, over all runs.
    static let mergeBufferRows = 1 << 18
    private static let rowSize = MemoryLayout<PriceRow>.stride

    private let descriptor: Int32
    /// Row ranges of the runs in the file, in file order.
    private var runRanges: [Range<Int>] = []
    private var rowsWritten = 0

    var count: Int { runRanges.count }

    /// Creates the file in `directory` (nil: `$TMPDIR`, else `/tmp`) and unlinks it at once,
    /// so it disappears with the process however it ends.
    init(directory: String?) throws(Failure) {
        let base = directory ?? getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/pricewatch-sort-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw Failure(description: "cannot create a temporary file in \(base): \(String(cString: strerror(errno)))")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// `rows` sorted by time, equal times keeping their order.
    static func sortedByTime(_ rows: [PriceRow]) -> [PriceRow] {
        var order = Array(0..<Int32(truncatingIfNeeded: rows.count))
        rows.withUnsafeBufferPointer { rows in
            order.sort { a, b in
                let ta = rows[Int(a)].time, tb = rows[Int(b)].time
                return ta != tb ? ta < tb : a < b
            }
        }
        return order.map { rows[Int($0)] }
    }

    /// Writes one run, already sorted by ``sortedByTime(_:)``.
    func append(sortedRun rows: [PriceRow]) throws(Failure) {
        guard !rows.isEmpty else { return }
        let result: Int = rows.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = pwrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset,
                                     off_t(rowsWritten * Self.rowSize + offset))
                if written < 0 {
                    if errno == EINTR { continue }
                    return -1
                }
                offset += written
            }
            return offset
        }
        guard result >= 0 else {
            throw Failure(description: "cannot write a temporary file: \(String(cString: strerror(errno)))")
        }
        runRanges.append(rowsWritten..<(rowsWritten + rows.count))
        rowsWritten += rows.count
    }

    /// Hands every row of every run to `body` in time order, equal times in file order.
    func merge(_ body: (PriceRow) -> Void) throws(Failure) {
        let blockRows = max(Self.mergeBufferRows / max(runRanges.count, 1), 64)
        var cursors = runRanges.map { Cursor(remaining: $0, capacity: blockRows) }
        // A binary min-heap of run indexes keyed by (the run's current time, run index).
        var heap: [Int] = []
        heap.reserveCapacity(cursors.count)
        for index in cursors.indices {
            try cursors[index].refill(descriptor)
            if cursors[index].current != nil { heap.append(index) }
        }
        func key(_ run: Int) -> (Int64, Int) { (cursors[run].current!.time, run) }
        func siftDown(_ start: Int) {
            var parent = start
            while true {
                let left = 2 * parent + 1
                guard left < heap.count else { return }
                var smallest = left
                if left + 1 < heap.count, key(heap[left + 1]) < key(heap[left]) { smallest = left + 1 }
                guard key(heap[smallest]) < key(heap[parent]) else { return }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
        while let top = heap.first {
            body(cursors[top].current!)
            try cursors[top].advance(descriptor)
            if cursors[top].current == nil {
                heap[0] = heap[heap.count - 1]
                heap.removeLast()
            }
            if !heap.isEmpty { siftDown(0) }
        }
    }

    /// One run being merged: a block of its rows in memory and what is left in the file.
    private struct Cursor {
        var remaining: Range<Int>
        var buffer: [PriceRow] = []
        var position = 0
        let capacity: Int

        init(remaining: Range<Int>, capacity: Int) {
            self.remaining = remaining
            self.capacity = capacity
        }

        var current: PriceRow? { position < buffer.count ? buffer[position] : nil }

        mutating func advance(_ descriptor: Int32) throws(Failure) {
            position += 1
            if position >= buffer.count { try refill(descriptor) }
        }

        mutating func refill(_ descriptor: Int32) throws(Failure) {
            position = 0
            let count = min(capacity, remaining.count)
            guard count > 0 else {
                buffer = []
                return
            }
            let start = remaining.lowerBound
            buffer = [PriceRow](unsafeUninitializedCapacity: count) { rows, initialized in
                let bytes = UnsafeMutableRawBufferPointer(rows)
                var offset = 0
                let wanted = count * PriceRowRuns.rowSize
                while offset < wanted {
                    let got = pread(descriptor, bytes.baseAddress! + offset, wanted - offset,
                                    off_t(start * PriceRowRuns.rowSize + offset))
                    if got < 0, errno == EINTR { continue }
                    if got <= 0 { break }
                    offset += got
                }
                initialized = offset == wanted ? count : 0
            }
            guard buffer.count == count else {
                throw Failure(description: "cannot read back a temporary file: \(String(cString: strerror(errno)))")
            }
            remaining = (start + count)..<remaining.upperBound
        }
    }
}
