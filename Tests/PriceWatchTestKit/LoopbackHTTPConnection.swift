#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PriceWatchCore

/// Serves one accepted connection of ``LoopbackHTTPServer`` on its own thread: reads HTTP/1.1
/// requests (keep-alive, `Expect: 100-continue`, `Content-Length` or chunked bodies), asks the
/// core for the response and writes it, or performs the response's fault.
final class LoopbackHTTPConnection {
    private let socket: Int32
    private let core: LoopbackServerCore
    private var buffer: [UInt8] = []
    private static let maximumHeadBytes = 64 << 10

    init(socket: Int32, core: LoopbackServerCore) {
        self.socket = socket
        self.core = core
    }

    func serve() {
        while let request = readRequest() {
            let response = core.respond(to: request)
            if let gate = response.gate { core.wait(for: gate) }
            if core.isStopped { break }
            switch response.fault {
            case .closeWithoutAnswer:
                return finish()
            case .hang:
                core.waitUntilStopped()
                return finish()
            case .truncateBody(let afterBytes):
                let body = encodedBody(response)
                _ = send(head(response, bodyLength: body.count, keepAlive: false) + body.prefix(max(0, afterBytes)))
                return finish()
            case nil:
                let body = encodedBody(response)
                let keepAlive = request.header("Connection")?.lowercased() != "close"
                guard send(head(response, bodyLength: body.count, keepAlive: keepAlive) + chunkedIfAsked(body, response)),
                      keepAlive else { return finish() }
            }
        }
        finish()
    }

    private func finish() {
        core.forget(socket: socket)
        close(socket)
    }

    // MARK: Writing

    private func encodedBody(_ response: LoopbackResponse) -> [UInt8] {
        response.isGzipped ? LoopbackGzip.encode(response.body) : response.body
    }

    private func head(_ response: LoopbackResponse, bodyLength: Int, keepAlive: Bool) -> [UInt8] {
        var text = "HTTP/1.1 \(response.status) \(LoopbackResponse.reasonPhrase(response.status))\r\n"
        for header in response.headers { text += "\(header.name): \(header.value)\r\n" }
        if response.isGzipped { text += "Content-Encoding: gzip\r\n" }
        if response.isChunked && response.fault == nil {
            text += "Transfer-Encoding: chunked\r\n"
        } else {
            text += "Content-Length: \(bodyLength)\r\n"
        }
        if !keepAlive { text += "Connection: close\r\n" }
        text += "\r\n"
        return Array(text.utf8)
    }

    private func chunkedIfAsked(_ body: [UInt8], _ response: LoopbackResponse) -> [UInt8] {
        guard response.isChunked else { return body }
        var out: [UInt8] = []
        var offset = 0
        while offset < body.count {
            let length = min(1000, body.count - offset)
            out += Array((String(length, radix: 16) + "\r\n").utf8) + body[offset..<offset + length] + Array("\r\n".utf8)
            offset += length
        }
        return out + Array("0\r\n\r\n".utf8)
    }

    private func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { raw in
                #if canImport(Glibc)
                Glibc.send(socket, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL))
                #else
                Darwin.send(socket, raw.baseAddress, raw.count, 0)
                #endif
            }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    // MARK: Reading

    /// The next request, or nil when the peer closed, the request was malformed or the server stops.
    private func readRequest() -> RecordedRequest? {
        if buffer.isEmpty && !receive() { return nil }
        // Not HTTP (a TLS ClientHello, say): hang up rather than wait for a head that never comes.
        guard let first = buffer.first, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first) else { return nil }
        guard let headEnd = readUntil(Array("\r\n\r\n".utf8), limit: Self.maximumHeadBytes) else { return nil }
        let headText = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeSubrange(..<(headEnd + 4))
        var lines = headText.split(separator: "\r\n", omittingEmptySubsequences: false)[...]
        guard let requestLine = lines.popFirst() else { return nil }
        let parts = requestLine.split(separator: " ")
        guard parts.count == 3 else { return nil }
        var headers: [HTTPHeader] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append(HTTPHeader(String(line[..<colon]), line[line.index(after: colon)...].trimmed(of: " \t")))
        }
        func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name }?.value }

        if header("expect")?.lowercased() == "100-continue" {
            // The interim header lets tests check that clients keep only the final response's headers.
            guard send(Array("HTTP/1.1 100 Continue\r\nX-Interim: 100-continue\r\n\r\n".utf8)) else { return nil }
        }
        var body: [UInt8] = []
        if header("transfer-encoding")?.lowercased().contains("chunked") == true {
            guard let chunked = readChunkedBody() else { return nil }
            body = chunked
        } else if let lengthText = header("content-length") {
            guard let length = Int(lengthText), length >= 0, fill(to: length) else { return nil }
            body = Array(buffer[..<length])
            buffer.removeSubrange(..<length)
        }
        return RecordedRequest(method: String(parts[0]), target: String(parts[1]), headers: headers, body: body)
    }

    private func readChunkedBody() -> [UInt8]? {
        var body: [UInt8] = []
        while true {
            guard let lineEnd = readUntil(Array("\r\n".utf8), limit: 1024) else { return nil }
            let sizeText = String(decoding: buffer[..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            buffer.removeSubrange(..<(lineEnd + 2))
            guard let size = Int(sizeText.trimmed(of: " "), radix: 16), size >= 0 else { return nil }
            if size == 0 {
                // Trailers end with an empty line.
                while let end = readUntil(Array("\r\n".utf8), limit: Self.maximumHeadBytes) {
                    buffer.removeSubrange(..<(end + 2))
                    if end == 0 { return body }
                }
                return nil
            }
            guard fill(to: size + 2) else { return nil }
            body += buffer[..<size]
            buffer.removeSubrange(..<(size + 2))
        }
    }

    /// Reads until `buffer` contains `marker`; returns its offset.
    private func readUntil(_ marker: [UInt8], limit: Int) -> Int? {
        var searchFrom = 0
        while true {
            if buffer.count >= marker.count {
                for start in searchFrom...(buffer.count - marker.count) where buffer[start..<start + marker.count].elementsEqual(marker) {
                    return start
                }
                searchFrom = buffer.count - marker.count + 1
            }
            guard buffer.count < limit, receive() else { return nil }
        }
    }

    private func fill(to count: Int) -> Bool {
        while buffer.count < count {
            guard receive() else { return false }
        }
        return true
    }

    private func receive() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let received = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if received < 0 && errno == EINTR { continue }
            guard received > 0 else { return false }
            buffer += chunk[..<received]
            return true
        }
    }
}

private extension Substring {
    func trimmed(of characters: String) -> String {
        String(drop { characters.contains($0) }.reversed().drop { characters.contains($0) }.reversed())
    }
}
