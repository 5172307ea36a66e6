import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A minimal HTTP/1.1 server on 127.0.0.1 (port 0) for the poll-cycle benchmark: it answers
/// Binance's `/api/v3/ticker/24hr?symbols=[...]` with a 24-hour ticker for every requested
/// symbol (`lastPrice` from the symbol's name, `closeTime` = now) and counts requests.
/// Keep-alive, one thread per connection; GET only. Not for tests (they use TestKit's server).
final class LoopbackQuoteServer: Sendable {
    let port: UInt16
    private let listener: Int32
    private let requests = Atomic<Int>(0)

    /// Requests answered so far.
    var requestCount: Int { requests.load(ordering: .relaxed) }

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerError("socket() failed: errno \(errno)") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 128) == 0 else { throw ServerError("bind/listen on 127.0.0.1 failed: errno \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    struct ServerError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Accepts connections on a background thread until the process ends.
    func start() {
        let listener = self.listener
        Thread.detachNewThread { [self] in
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 { continue }
                Thread.detachNewThread { [self] in serve(client) }
            }
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            guard let end = Self.headerEnd(buffer) else {
                let count = read(client, &chunk, chunk.count)
                if count <= 0 { return }
                buffer += chunk[0..<count]
                continue
            }
            let head = String(decoding: buffer[0..<end], as: UTF8.self)
            buffer.removeFirst(end + 4)
            let target = head.split(separator: " ", maxSplits: 2).dropFirst().first.map(String.init) ?? "/"
            let body = answer(target)
            requests.add(1, ordering: .relaxed)
            let header = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
            let response = Array(header.utf8) + body
            var written = 0
            while written < response.count {
                let count = response[written...].withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
                if count <= 0 { return }
                written += count
            }
            if head.lowercased().contains("connection: close") { return }
        }
    }

    private static func headerEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4) where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// The ticker list for the `symbols` (or `symbol`) query parameter.
    private func answer(_ target: String) -> [UInt8] {
        let query = target.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
        var symbols: [String] = []
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let value = parts[1].removingPercentEncoding else { continue }
            if parts[0] == "symbols" {
                symbols = value.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).split(separator: ",")
                    .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            } else if parts[0] == "symbol" {
                symbols = [value]
            }
        }
        let closeTime = Int64(Date().timeIntervalSince1970 * 1000)
        var json = "["
        for (index, symbol) in symbols.enumerated() {
            let cents = 5_000 + abs(symbol.hashValue % 20_000)
            if index > 0 { json += "," }
            json += #"{"symbol":"\#(symbol)","lastPrice":"\#(cents / 100).\#(String(format: "%02d", cents % 100))000000","#
                + #""prevClosePrice":"100.00000000","openTime":\#(closeTime - 86_400_000),"closeTime":\#(closeTime),"count":1}"#
        }
        json += "]"
        return Array(json.utf8)
    }
}
