import Foundation
import PriceWatchCore
import PriceWatchCurl
import PriceWatchSinks
import PriceWatchTestKit
import Synchronization
import Testing

/// A kind of notification defined here, in test code only: the sinks carry it unchanged,
/// which is what lets later features add kinds without touching them.
struct PaperFill: NotificationContent {
    static let kind = NotificationKind("paper-fill")
    var symbol: String
    var quantity: Int
    var price: String

    func message() -> NotificationMessage {
        NotificationMessage(title: "Paper trade filled: \(symbol)", text: "Bought \(quantity) \(symbol) at \(price)",
                            attachments: [NotificationAttachment(filename: "fill.csv", contentType: "text/csv",
                                                                 bytes: Array("symbol,qty\n\(symbol),\(quantity)\n".utf8))])
    }

    static func notification() -> OutgoingNotification {
        let time = Timestamp(seconds: 1_727_879_460)
        return OutgoingNotification(id: NotificationID.make(kind: kind, parts: ["AAPL", "\(time.milliseconds)"]), time: time,
                            content: PaperFill(symbol: "AAPL", quantity: 10, price: "219.42"))
    }
}

/// Every sink carries notifications of any kind, with the guarantees of alerts (stable id,
/// signature); alert-shaped ones exactly as alerts.
@Suite struct NotificationKindSinkTests {
    static let secret = WebhookReceiverTests.secret

    @Test func aKindFromTestCodeArrivesSignedWithItsKind() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", "/hook") { _ in .status(200, body: "ok") }
        let clock = WebhookReceiverTests.currentClock()
        let sink = try WebhookSink(name: "ops", settings: .init(url: server.baseURL + "/hook", secret: Self.secret),
                                   transport: CurlHTTPTransport(), wallClock: clock.function)
        let notification = PaperFill.notification()
        try await sink.deliver(notification)
        try await sink.deliver(notification)   // a retry: the same id

        let requests = server.requests
        try #require(requests.count == 2)
        #expect(requests[0].bodyText == """
            {"version":1,"type":"notification","kind":"paper-fill","id":"\(notification.id)","time":"2024-10-02T14:31:00Z",\
            "title":"Paper trade filled: AAPL","text":"Bought 10 AAPL at 219.42","html":null,\
            "attachments":[{"filename":"fill.csv","content_type":"text/csv","size":19,"content":"c3ltYm9sLHF0eQpBQVBMLDEwCg=="}]}
            """)
        #expect(requests.map { $0.header("webhook-id") } == [notification.id, notification.id])
        let verdicts = try await StandardWebhooksVerifier.verify(requests, secret: Self.secret)
        #expect(verdicts == ["ok \(notification.id)", "ok \(notification.id)"])
    }

    @Test(arguments: WebhookFormat.allCases)
    func alertShapedNotificationsKeepTheAlertPayloadByteForByte(format: WebhookFormat) throws {
        let builder = try WebhookRequestBuilder(.init(url: "https://hooks.example.com/x", format: format))
        let now = Timestamp(seconds: 1_727_879_500)
        let alert = WebhookFixtures.fall
        for kind in [NotificationKind.alert, .test] {
            let notification = OutgoingNotification(id: alert.id, kind: kind, time: alert.time, content: .alert(alert))
            let request = builder.request(for: notification, at: now)
            #expect(request == builder.request(for: alert, at: now))
            #expect(String(decoding: request.body, as: UTF8.self) == WebhookFixtures.fallBodies[format])
        }
    }

    @Test func chatFormatsShowTheTitleAndText() throws {
        let notification = PaperFill.notification()
        #expect(String(decoding: WebhookFormat.slack.content(for: notification).body, as: UTF8.self)
            == #"{"text":"Paper trade filled: AAPL\nBought 10 AAPL at 219.42"}"#)
        #expect(String(decoding: WebhookFormat.discord.content(for: notification).body, as: UTF8.self)
            == #"{"content":"Paper trade filled: AAPL\nBought 10 AAPL at 219.42","allowed_mentions":{"parse":[]}}"#)
        let ntfy = WebhookFormat.ntfy.content(for: notification)
        #expect(String(decoding: ntfy.body, as: UTF8.self) == "Bought 10 AAPL at 219.42")
        #expect(ntfy.headers.first { $0.name == "Title" }?.value == "Paper trade filled: AAPL")
        #expect(ntfy.headers.first { $0.name == "Tags" }?.value == "paper-fill")
    }

    @Test func stdoutPrintsOtherKindsOnOneLine() async throws {
        let lines = Mutex<[String]>([])
        let notification = PaperFill.notification()
        for format in [StdoutSink.Format.text, .json] {
            let sink = StdoutSink(name: "console", format: format) { line throws(SinkError) in lines.withLock { $0.append(line) } }
            try await sink.deliver(notification)
        }
        #expect(lines.withLock { $0 } == [
            "PAPER-FILL 2024-10-02T14:31:00Z [\(notification.id)] Paper trade filled: AAPL: Bought 10 AAPL at 219.42",
            #"{"kind":"paper-fill","id":"\#(notification.id)","time":"2024-10-02T14:31:00Z","title":"Paper trade filled: AAPL","text":"Bought 10 AAPL at 219.42","attachments":[{"filename":"fill.csv","content_type":"text/csv","size":19}]}"#,
        ])
    }

    @Test func emailCarriesTitleTextHTMLAndAttachments() throws {
        let notification = PaperFill.notification()
        let from = try MailAddress(parsing: "pricewatch@example.com")
        let to = [try MailAddress(parsing: "me@example.com")]
        let mail = try MailMessage(from: from, to: to, notification: notification, message: try #require(notification.message),
                                   date: notification.time)
        let text = String(decoding: mail.bytes, as: UTF8.self)
        #expect(mail.subject == "Paper trade filled: AAPL")
        #expect(mail.messageID == "<\(notification.id)@pricewatch>")
        #expect(text.contains("X-PriceWatch-Kind: paper-fill\r\n"))
        #expect(text.contains("Content-Type: multipart/mixed;"))
        #expect(text.contains("Content-Disposition: attachment; filename=\"fill.csv\"\r\n"))
        #expect(text.contains("c3ltYm9sLHF0eQpBQVBMLDEwCg==\r\n"))
        #expect(text.contains("Bought 10 AAPL at 219.42"))
        // The same notification builds the same bytes (retries send the same message).
        #expect(try MailMessage(from: from, to: to, notification: notification, message: try #require(notification.message),
                                date: notification.time) == mail)
    }

    @Test func aSinkWithoutTheNotificationFormRefusesOtherKindsPermanently() async throws {
        let sink = RecordingSink()
        let error = await #expect(throws: SinkError.self) { try await sink.deliver(PaperFill.notification()) }
        #expect(error?.isRetryable == false)
        try await sink.deliver(OutgoingNotification(WebhookFixtures.fall))
        #expect(sink.delivered == [WebhookFixtures.fall])
    }
}
