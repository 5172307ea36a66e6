import CCurl
import PriceWatchCore

/// Collects one HTTP response from libcurl's header and write callbacks, enforcing the size cap.
///
/// Used only by the loop thread while the transfer runs and by the caller after it ended.
/// Headers are those of the last response: a new status line (a redirect followed, a
/// `100 Continue`, a proxy's `CONNECT` answer) starts the list again.
final class CurlResponseCollector {
    private(set) var headers: [HTTPHeader] = []
    private(set) var body: [UInt8] = []
    /// Set when the body went over ``limit`` and the transfer was aborted for it.
    private(set) var exceededLimit = false
    let limit: Int

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// Installs the callbacks on `handle`. The caller keeps `self` alive until the transfer ended.
    func install(on handle: CurlEasyHandle) -> CURLcode {
        let context = Unmanaged.passUnretained(self).toOpaque()
        for code in [
            handle.set(callback: CURLOPT_WRITEFUNCTION, { buffer, size, count, context in
                guard let buffer, let context else { return 0 }
                let collector = Unmanaged<CurlResponseCollector>.fromOpaque(context).takeUnretainedValue()
                return collector.receiveBody(UnsafeRawBufferPointer(start: buffer, count: size * count))
            }),
            handle.set(pointer: CURLOPT_WRITEDATA, context),
            handle.set(callback: CURLOPT_HEADERFUNCTION, { buffer, size, count, context in
                guard let buffer, let context else { return 0 }
                let collector = Unmanaged<CurlResponseCollector>.fromOpaque(context).takeUnretainedValue()
                collector.receiveHeaderLine(UnsafeRawBufferPointer(start: buffer, count: size * count))
                return size * count
            }),
            handle.set(pointer: CURLOPT_HEADERDATA, context),
        ] where code != CURLE_OK {
            return code
        }
        return CURLE_OK
    }

    /// Returns a count other than the one given to abort the transfer (`CURLE_WRITE_ERROR`).
    private func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard body.count + bytes.count <= limit else {
            exceededLimit = true
            return 0
        }
        body.append(contentsOf: bytes)
        return bytes.count
    }

    private func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) {
        var line = Substring(String(decoding: bytes, as: UTF8.self))
        while let last = line.last, last == "\r\n" || last == "\n" || last == "\r" { line = line.dropLast() }
        if line.hasPrefix("HTTP/") {
            headers = []
            body = []
        } else if line.isEmpty {
            return
        } else if let first = line.first, first == " " || first == "\t", !headers.isEmpty {
            // An obsolete folded continuation of the previous header's value.
            headers[headers.count - 1].value += " " + Self.trimmed(line)
        } else if let colon = line.firstIndex(of: ":") {
            headers.append(HTTPHeader(String(line[..<colon]), Self.trimmed(line[line.index(after: colon)...])))
        }
    }

    /// `text` without the spaces and tabs around it (on its UTF-8 bytes: every answer's
    /// every header passes here).
    private static func trimmed(_ text: Substring) -> String {
        let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        let bytes = text.utf8
        guard let first = bytes.firstIndex(where: { !blank($0) }),
              let last = bytes.lastIndex(where: { !blank($0) }) else { return "" }
        return String(text[first...last])
    }
}
