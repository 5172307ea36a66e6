import Foundation
import Synchronization
import PriceWatchCore
import PriceWatchSinks
import PriceWatchTestKit
import Testing

/// What the tests of the Telegram, Pushover, Gotify and Matrix sinks share: one attempt as a
/// verdict, the secret-leak check, and readers of the request bodies the services take.
enum ServiceSinkSupport {
    /// The outcome of one delivery: nil when delivered, else the sink's error.
    static func attempt(_ deliver: () async throws(SinkError) -> Void) async -> SinkError? {
        do {
            try await deliver()
            return nil
        } catch {
            return error
        }
    }

    /// Every run of 8 characters of `secret`: none may appear in anything shown.
    static func pieces(of secret: String, length: Int = 8) -> [String] {
        let characters = Array(secret)
        guard characters.count >= length else { return [secret] }
        return (0...(characters.count - length)).map { String(characters[$0..<($0 + length)]) }
    }

    /// Fails the test when `text` contains `secret` or any 8-character part of it.
    static func expectNoSecret(_ text: String, _ secret: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let leaked = pieces(of: secret).filter { text.contains($0) }
        #expect(leaked.isEmpty, "the text shows part of the secret: \(text)", sourceLocation: sourceLocation)
    }

    /// The body as a JSON object.
    static func json(_ request: RecordedRequest) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any], "expected a JSON object: \(request.bodyText)")
    }

    /// The fields of an `application/x-www-form-urlencoded` body, decoded.
    static func form(_ request: RecordedRequest) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in request.bodyText.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).removingPercentEncoding ?? ""
            let value = parts.count > 1 ? (String(parts[1]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "") : ""
            fields[name] = value
        }
        return fields
    }

    /// One part of a `multipart/form-data` body.
    struct Part {
        var name: String
        var filename: String?
        var contentType: String?
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// The parts of a `multipart/form-data` request, strictly: CRLF line ends, the boundary of
    /// its `Content-Type`, a closing delimiter.
    static func multipart(_ request: RecordedRequest) throws -> [Part] {
        let contentType = try #require(request.header("Content-Type"))
        #expect(contentType.hasPrefix("multipart/form-data; boundary="))
        let boundary = String(try #require(contentType.split(separator: "=", maxSplits: 1).last))
        let delimiter = Array("--\(boundary)".utf8)
        let body = request.body
        var starts: [Int] = []
        var index = 0
        while index + delimiter.count <= body.count {
            if Array(body[index..<(index + delimiter.count)]) == delimiter {
                starts.append(index)
                index += delimiter.count
            } else {
                index += 1
            }
        }
        try #require(starts.count >= 2, "expected at least one part")
        let closing = try #require(starts.last)
        #expect(Array(body[closing...]) == Array("--\(boundary)--\r\n".utf8))
        var parts: [Part] = []
        for (start, end) in zip(starts, starts.dropFirst()) {
            // "--boundary\r\n" headers "\r\n\r\n" body "\r\n"
            let section = Array(body[(start + delimiter.count)..<end])
            #expect(Array(section.prefix(2)) == [13, 10])
            #expect(Array(section.suffix(2)) == [13, 10])
            let content = Array(section.dropFirst(2).dropLast(2))
            let separator = Array("\r\n\r\n".utf8)
            let split = try #require((0...(content.count - 4)).first { Array(content[$0..<($0 + 4)]) == separator })
            let head = String(decoding: content[..<split], as: UTF8.self)
            var part = Part(name: "", filename: nil, contentType: nil, body: Array(content[(split + 4)...]))
            for line in head.components(separatedBy: "\r\n") {
                if line.lowercased().hasPrefix("content-type:") {
                    part.contentType = line.dropFirst("content-type:".count).trimmingCharacters(in: .whitespaces)
                } else if line.lowercased().hasPrefix("content-disposition:") {
                    for parameter in line.components(separatedBy: ";").dropFirst() {
                        let pair = parameter.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1).map(String.init)
                        guard pair.count == 2 else { continue }
                        let value = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                        if pair[0] == "name" { part.name = value }
                        if pair[0] == "filename" { part.filename = value }
                    }
                }
            }
            parts.append(part)
        }
        return parts
    }

    /// A chart provider that draws these bytes for every alert.
    struct FixedChart: AlertChartProvider {
        let png: [UInt8]?
        func chart(for alert: Alert) async -> NotificationAttachment? {
            png.map { NotificationAttachment(filename: "chart-\(alert.symbol).png", contentType: "image/png", bytes: $0) }
        }
    }

    /// Bytes that look like a PNG and contain every byte value, CR and LF included.
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0...255).map { UInt8($0) } + [13, 10, 45, 45]

    /// An alert whose message is `length` characters with markup characters in it.
    static func longAlert(length: Int) -> Alert {
        var alert = WebhookFixtures.crossing
        alert.message = String(repeating: "<b>&é😀 ", count: length / 7 + 1)
        return alert
    }

    /// A thread-safe counter for scripted answers.
    final class Counter: Sendable {
        private let value = Mutex(0)
        func next() -> Int {
            value.withLock { count in
                defer { count += 1 }
                return count
            }
        }
    }

    /// A digest with two charts, as `[[digest]]` with `charts = true` sends.
    static func digest() -> OutgoingNotification {
        let charts = ["AAPL", "MSFT"].map { NotificationAttachment(filename: "chart-\($0).png", contentType: "image/png", bytes: png + Array($0.utf8)) }
        let message = NotificationMessage(title: "Morning digest", text: "AAPL +2.10%\nMSFT -0.40%",
                                          attachments: charts + [NotificationAttachment(filename: "movers.csv", contentType: "text/csv", bytes: Array("a,b\n".utf8))])
        return OutgoingNotification(id: "d1g35t00-0000-0000-0000-000000000001", kind: .digest, time: Timestamp(seconds: 1_727_852_400),
                                    content: .message(message))
    }
}
