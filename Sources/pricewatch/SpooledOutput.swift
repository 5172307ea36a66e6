#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Lines for standard output held back until a command knows they are final: in memory up to
/// ``memoryLimit`` bytes, beyond that in an unlinked temporary file, so holding them never
/// grows memory. The backtest writes its alerts here while it cannot yet know whether the file
/// is in time order (if it is not, the lines are dropped and the sorted pass writes them again).
struct SpooledOutput: ~Copyable {
    static let memoryLimit = 1 << 22
    private var buffer: [UInt8] = []
    private var file: Int32 = -1
    private var fileBytes = 0
    /// Set when the temporary file could not be created or written: lines then stay in memory.
    private var failure: String?

    init() {}

    deinit { if file >= 0 { close(file) } }

    mutating func line(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= Self.memoryLimit { spill() }
    }

    /// Forgets every line so far.
    mutating func discard() {
        buffer.removeAll(keepingCapacity: true)
        if file >= 0 { _ = ftruncate(file, 0) }
        fileBytes = 0
    }

    /// Writes every line to standard output, in order.
    mutating func writeToStandardOutput() {
        var offset = 0
        var block = [UInt8](repeating: 0, count: fileBytes > 0 ? 1 << 16 : 0)
        while offset < fileBytes {
            let count = block.withUnsafeMutableBytes { pread(file, $0.baseAddress, min($0.count, fileBytes - offset), off_t(offset)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            _ = block.withUnsafeBytes { Self.writeAll(1, UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            offset += count
        }
        _ = buffer.withUnsafeBytes { Self.writeAll(1, $0) }
        discard()
    }

    private mutating func spill() {
        guard failure == nil else { return }
        if file < 0 {
            let base = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
            var template = Array((base + "/pricewatch-out-XXXXXX").utf8CString)
            file = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard file >= 0 else {
                // Keep the lines in memory rather than lose them.
                failure = "cannot create a temporary file in \(base): \(String(cString: strerror(errno)))"
                return
            }
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        }
        let written = buffer.withUnsafeBytes { Self.writeAll(file, $0, at: fileBytes) }
        guard written == buffer.count else {
            failure = "cannot write a temporary file: \(String(cString: strerror(errno)))"
            return
        }
        fileBytes += written
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes all of `bytes` (at `offset` with pwrite when given); the count written.
    @discardableResult
    private static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int? = nil) -> Int {
        var done = 0
        while done < bytes.count {
            let count = offset.map { pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t($0 + done)) }
                ?? write(descriptor, bytes.baseAddress! + done, bytes.count - done)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            done += count
        }
        return done
    }
}
