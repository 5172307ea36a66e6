import Foundation
import PriceWatchTestKit

/// A request over a plain socket whose answer is read until a marker appears: for responses
/// that never end (server-sent events). Every read has a deadline (SO_RCVTIMEO), so nothing
/// here can hang a test, and the blocking reads run off the cooperative pool (``offPool``).
enum RawHTTP {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Connects to 127.0.0.1:`port`, sends a GET for `path` and reads until `marker` has been
    /// received (returns everything read) or `timeout` passes (throws, with what was read).
    static func read(port: Int, path: String, until marker: String, timeout: Duration = .seconds(60)) async throws -> String {
        try await offPool {
            let fd = try connect(port: port)
            defer { close(fd) }
            try send(fd, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
            let deadline = ContinuousClock.now.advanced(by: timeout)
            var received = Data()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while ContinuousClock.now < deadline {
                let count = recv(fd, &buffer, buffer.count, 0)
                if count > 0 {
                    received.append(contentsOf: buffer[0..<count])
                    let text = String(decoding: received, as: UTF8.self)
                    if text.contains(marker) { return text }
                } else if count == 0 {
                    break
                }
            }
            throw Failure(description: "no '\(marker)' from \(path) within \(timeout); received: \(String(decoding: received, as: UTF8.self))")
        }
    }

    /// Sends `method` for `path` with `Connection: close` and reads the whole answer, until the
    /// server closes the connection: the status line, the headers (names lower-cased) and the
    /// body. Throws when the connection stays open past `timeout`.
    static func exchange(port: Int, method: String, path: String, headers extra: [String] = [],
                         timeout: Duration = .seconds(60)) async throws -> (status: String, headers: [String: String], body: String) {
        let answer = try await exchangeBytes(port: port, method: method, path: path, headers: extra, timeout: timeout)
        return (answer.status, answer.headers, String(decoding: answer.body, as: UTF8.self))
    }

    /// ``exchange(port:method:path:headers:timeout:)`` with the body as bytes (a compressed
    /// one), and `extra` header lines (`Name: value`) in the request.
    static func exchangeBytes(port: Int, method: String, path: String, headers extra: [String] = [],
                              timeout: Duration = .seconds(60)) async throws -> (status: String, headers: [String: String], body: [UInt8]) {
        let received: [UInt8] = try await offPool {
            let fd = try connect(port: port)
            defer { close(fd) }
            try send(fd, "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                     + extra.map { $0 + "\r\n" }.joined() + "\r\n")
            let deadline = ContinuousClock.now.advanced(by: timeout)
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while ContinuousClock.now < deadline {
                let count = recv(fd, &buffer, buffer.count, 0)
                if count > 0 {
                    received.append(contentsOf: buffer[0..<count])
                } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) {
                    return received
                }
            }
            throw Failure(description: "\(method) \(path): the connection stayed open for \(timeout); received: "
                          + String(decoding: received, as: UTF8.self))
        }
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = (0..<max(received.count - 3, 0)).first(where: { Array(received[$0..<($0 + 4)]) == separator }) else {
            throw Failure(description: "\(method) \(path): no header end in \(String(decoding: received, as: UTF8.self))")
        }
        let lines = String(decoding: received[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return (lines.first ?? "", headers, Array(received[(end + 4)...]))
    }

    /// Connects, sends `partial` (an unfinished request) and waits, reading, until the server
    /// closes the connection; the time that took. Throws when it stays open past `timeout`.
    static func secondsUntilClosed(port: Int, sending partial: String, timeout: Duration = .seconds(60)) async throws -> Double {
        try await offPool {
            let fd = try connect(port: port)
            defer { close(fd) }
            try send(fd, partial)
            let start = ContinuousClock.now
            var buffer = [UInt8](repeating: 0, count: 1024)
            while start.duration(to: .now) < timeout {
                let count = recv(fd, &buffer, buffer.count, 0)
                if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
                    let elapsed = start.duration(to: .now).components
                    return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
                }
            }
            throw Failure(description: "the server kept a connection with an unfinished request open for \(timeout)")
        }
    }

    /// A connected socket to 127.0.0.1:`port` whose reads time out after a second.
    static func connect(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed") }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Foundation.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            close(fd)
            throw Failure(description: "could not connect to 127.0.0.1:\(port)")
        }
        return fd
    }

    static func send(_ fd: Int32, _ text: String) throws {
        let bytes = Array(text.utf8)
        let sent = bytes.withUnsafeBytes { Foundation.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else { throw Failure(description: "could not send the request") }
    }
}
