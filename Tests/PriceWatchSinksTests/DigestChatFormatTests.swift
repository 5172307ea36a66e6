import Foundation
import PriceWatchCore
import PriceWatchPresentation
import PriceWatchCurl
import PriceWatchSinks
import PriceWatchTestKit
import Testing

/// Digests in the chat formats, sent by the real webhook sink over libcurl to a loopback
/// server: Slack Block Kit, Discord embeds with the chart uploaded as a file, ntfy with the
/// chart as the attachment of a PUT, and the digest's JSON on plain webhooks; and the
/// services' size limits kept for a large digest.
@Suite struct DigestChatFormatTests {
    static let due = Timestamp(seconds: 1_727_906_400) // 2024-10-02 18:00 New York
    /// A PNG signature and a few bytes: what travels is checked, not the picture.
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3, 4, 0, 255]

    static func decimal(_ text: String) -> ExactDecimal { ExactDecimal(text) ?? .zero }

    static func digest(alerts count: Int = 1, messageLength: Int = 20, charts: Bool = true) -> Digest {
        let window = Timestamp(seconds: due.seconds - 86_400) ..< due
        func candle(_ hoursBefore: Int64, _ close: String) -> Candle {
            Candle(time: Timestamp(seconds: due.seconds - hoursBefore * 3600), interval: .oneHour, open: decimal(close),
                   high: decimal(close), low: decimal(close), close: decimal(close))
        }
        let candles = ["AAPL": [candle(30, "100"), candle(2, "110")], "MSFT": [candle(30, "200"), candle(2, "190")]]
        let alerts = (0..<count).map { index in
            let alert = Alert(id: "00000000-0000-0000-0000-\(String(format: "%012d", index))", rule: "aapl-above-105", symbol: "AAPL",
                              provider: "yahoo", condition: "above 105", price: decimal("106"), currency: "USD",
                              time: Timestamp(seconds: due.seconds - 3600 + Int64(index)), base: nil, change: nil, direction: nil,
                              message: "AAPL above 105 " + String(repeating: "x", count: messageLength))
            return AlertRecord(alert: alert, deliveries: [Delivery(notification: OutgoingNotification(alert), sink: "chat", status: .delivered,
                                                                   attempts: 1, createdAt: alert.time, nextAttemptAt: nil)])
        }
        return Digest(name: "daily", period: .day, window: window, timeZone: "America/New_York",
                      movers: TopMovers(candles: candles, period: window, count: 5), alerts: alerts,
                      markets: [DigestMarketState(market: MarketIdentifier("XNYS"), status: .closed(until: nil))],
                      charts: charts ? [DigestChart(symbol: "AAPL", png: png)] : [])
    }

    static func notification(_ digest: Digest = digest()) -> OutgoingNotification {
        OutgoingNotification(id: NotificationID.make(kind: .digest, parts: ["daily", due.rfc3339]), time: due, content: DigestNotification(digest))
    }

    static func send(_ format: WebhookFormat, _ notification: OutgoingNotification = notification(),
                     method: String = "POST") async throws -> RecordedRequest {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route(method, "/hook") { _ in .status(200, body: "ok") }
        let sink = try WebhookSink(name: "chat", settings: .init(url: server.baseURL + "/hook", format: format),
                                   transport: CurlHTTPTransport(), wallClock: { due })
        try await sink.deliver(notification)
        return try #require(server.requests.first)
    }

    static func object(_ bytes: [UInt8]) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    @Test func slackGetsBlocksWithEveryPartAndTheWholeTextAsFallback() async throws {
        let request = try await Self.send(.slack)
        let body = try Self.object(request.body)
        let blocks = try #require(body["blocks"] as? [[String: Any]])
        #expect(blocks.first?["type"] as? String == "header")
        #expect((blocks.first?["text"] as? [String: Any])?["text"] as? String
                == "pricewatch digest daily: 2024-10-01 18:00 to 2024-10-02 18:00")
        let texts = blocks.dropFirst().compactMap { ($0["text"] as? [String: Any])?["text"] as? String }
        #expect(texts == ["*Top gainers*\nAAPL +10.00% (100.00 -&gt; 110.00)", "*Top losers*\nMSFT -5.00% (200.00 -&gt; 190.00)",
                          "*Alerts (1)*\n2024-10-02 17:00  aapl-above-105  AAPL above 105 xxxxxxxxxxxxxxxxxxxx  [delivered to chat]",
                          "*Markets*\nXNYS closed"])
        #expect((body["text"] as? String)?.hasPrefix("pricewatch digest daily") == true)
    }

    @Test func discordGetsEmbedsAndTheChartAsAnUploadedFile() async throws {
        let request = try await Self.send(.discord)
        let contentType = try #require(request.header("Content-Type"))
        #expect(contentType.hasPrefix("multipart/form-data; boundary="))
        let boundary = String(contentType.split(separator: "=", maxSplits: 1)[1])
        let parts = MultipartParts(body: request.body, boundary: boundary)
        #expect(parts.names == ["payload_json", "files[0]"])
        let payload = try Self.object(try #require(parts.body(named: "payload_json")))
        let embeds = try #require(payload["embeds"] as? [[String: Any]])
        #expect(embeds.count == 2)
        let fields = try #require(embeds[0]["fields"] as? [[String: Any]])
        #expect(fields.map { $0["name"] as? String } == ["Top gainers", "Top losers", "Alerts (1)", "Markets"])
        #expect(fields.first?["value"] as? String == "AAPL +10.00% (100.00 -> 110.00)")
        #expect(embeds[0]["timestamp"] as? String == "2024-10-02T22:00:00Z")
        #expect((embeds[1]["image"] as? [String: Any])?["url"] as? String == "attachment://chart-AAPL.png")
        #expect(parts.body(named: "files[0]") == Self.png)
        #expect(parts.header(named: "files[0]")?.contains("filename=\"chart-AAPL.png\"") == true)
    }

    @Test func discordWithoutChartsIsPlainJSON() async throws {
        let request = try await Self.send(.discord, Self.notification(Self.digest(charts: false)))
        #expect(request.header("Content-Type") == "application/json")
        let embeds = try #require(try Self.object(request.body)["embeds"] as? [[String: Any]])
        #expect(embeds.count == 1)
    }

    @Test func ntfyGetsTheChartAsTheBodyOfAPutWithTheTextAsMessage() async throws {
        let request = try await Self.send(.ntfy, method: "PUT")
        #expect(request.method == "PUT")
        #expect(request.body == Self.png)
        #expect(request.header("Filename") == "chart-AAPL.png")
        #expect(request.header("Title") == "pricewatch digest daily: 2024-10-01 18:00 to 2024-10-02 18:00")
        let message = try #require(request.queryItems.first { $0.name == "message" }?.value)
        #expect(message.contains("Top gainers\n  AAPL     +10.00%  100.00 -> 110.00\n"), "\(message)")
    }

    @Test func plainWebhooksCarryTheDigestAsData() async throws {
        let request = try await Self.send(.json)
        let body = try Self.object(request.body)
        #expect(body["kind"] as? String == "digest")
        let data = try #require(body["data"] as? [String: Any])
        #expect(data["name"] as? String == "daily")
        #expect((data["gainers"] as? [[String: Any]])?.first?["symbol"] as? String == "AAPL")
        #expect(data["charts"] as? [String] == ["chart-AAPL.png"])
    }

    @Test func aLargeDigestStaysWithinEveryServicesLimits() throws {
        let notification = Self.notification(Self.digest(alerts: 60, messageLength: 300, charts: false))
        let discord = try WebhookRequestBuilder(.init(url: "https://discord.example/hook", format: .discord)).request(for: notification, at: Self.due)
        let embeds = try #require(try Self.object(discord.body)["embeds"] as? [[String: Any]])
        let fields = try #require(embeds.first?["fields"] as? [[String: Any]])
        let values = fields.compactMap { $0["value"] as? String }
        #expect(values.allSatisfy { $0.utf16.count <= 1024 })
        let total = values.map(\.utf16.count).reduce(0, +) + fields.compactMap { ($0["name"] as? String)?.utf16.count }.reduce(0, +)
            + ((embeds.first?["title"] as? String)?.utf16.count ?? 0)
        #expect(total <= 6000)
        #expect(values.contains { $0.hasSuffix("…") }, "the alerts were cut, visibly")
        let slack = try WebhookRequestBuilder(.init(url: "https://hooks.slack.com/x", format: .slack)).request(for: notification, at: Self.due)
        let blocks = try #require(try Self.object(slack.body)["blocks"] as? [[String: Any]])
        #expect(blocks.compactMap { ($0["text"] as? [String: Any])?["text"] as? String }.allSatisfy { $0.utf16.count <= 3000 })
    }
}

/// The parts of a `multipart/form-data` body, by name.
struct MultipartParts {
    var parts: [(header: String, body: [UInt8])] = []

    init(body: [UInt8], boundary: String) {
        let delimiter = Array("--\(boundary)".utf8)
        var chunks: [[UInt8]] = []
        var start = 0
        var index = 0
        while index + delimiter.count <= body.count {
            if Array(body[index ..< index + delimiter.count]) == delimiter {
                chunks.append(Array(body[start ..< index]))
                index += delimiter.count
                start = index
            } else {
                index += 1
            }
        }
        for chunk in chunks.dropFirst() {
            let separator: [UInt8] = Array("\r\n\r\n".utf8)
            guard let split = (0 ..< max(chunk.count - 3, 0)).first(where: { Array(chunk[$0 ..< $0 + 4]) == separator }) else { continue }
            let header = String(decoding: chunk[0 ..< split], as: UTF8.self)
            var content = Array(chunk[(split + 4)...])
            if content.suffix(2) == [13, 10] { content.removeLast(2) }
            parts.append((header, content))
        }
    }

    private func name(_ header: String) -> String? {
        guard let range = header.range(of: "name=\"") else { return nil }
        return String(header[range.upperBound...].prefix { $0 != "\"" })
    }

    var names: [String] { parts.compactMap { name($0.header) } }
    func body(named wanted: String) -> [UInt8]? { parts.first { name($0.header) == wanted }?.body }
    func header(named wanted: String) -> String? { parts.first { name($0.header) == wanted }?.header }
}
