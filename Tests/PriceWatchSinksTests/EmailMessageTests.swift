import Foundation
import PriceWatchCore
import PriceWatchSinks
import Testing

/// The message builder, pure: exact bytes, encodings, line rules, and refusing every value that
/// could break a header or the SMTP envelope.
@Suite struct EmailMessageTests {
    static let golden = [
        "Date: Wed, 02 Oct 2024 14:31:00 +0000",
        "From: \"Price Watch\" <alerts@example.com>",
        "To: ops@example.com, =?utf-8?B?Wm/DqyBPcHM=?= <zoe@example.org>",
        "Subject: AAPL 225.70 USD: above 200 (rule aapl-200)",
        "Message-ID: <3f2a9c1e-0b7d-4e21-9a6f-5c4b3a291807@pricewatch>",
        "X-PriceWatch-Alert-ID: 3f2a9c1e-0b7d-4e21-9a6f-5c4b3a291807",
        "Auto-Submitted: auto-generated",
        "MIME-Version: 1.0",
        "Content-Type: multipart/alternative;",
        " boundary=\"=_pricewatch_3f2a9c1e-0b7d-4e21-9a6f-5c4b3a291807\"",
        "",
        "This is a MIME message with a text and an HTML part.",
        "",
        "--=_pricewatch_3f2a9c1e-0b7d-4e21-9a6f-5c4b3a291807",
        "Content-Type: text/plain; charset=utf-8",
        "Content-Transfer-Encoding: quoted-printable",
        "",
        "AAPL 225.70 USD: above 200 (rule aapl-200)",
        "",
        "Rule:      aapl-200",
        "Symbol:    AAPL",
        "Price:     225.70 USD",
        "Condition: above 200",
        "Time:      2024-10-02T14:31:00Z",
        "Provider:  yahoo",
        "Alert ID:  3f2a9c1e-0b7d-4e21-9a6f-5c4b3a291807",
        "",
        "--=20",
        "Sent by pricewatch. Each alert id stays the same if this message is sent ag=",
        "ain.",
        "",
        "--=_pricewatch_3f2a9c1e-0b7d-4e21-9a6f-5c4b3a291807",
        "Content-Type: text/html; charset=utf-8",
        "Content-Transfer-Encoding: quoted-printable",
        "",
        "<!DOCTYPE html>",
        "<html>",
        "<head>",
        "<meta charset=3D\"utf-8\">",
        "<title>AAPL 225.70 USD: above 200 (rule aapl-200)</title>",
        "</head>",
        "<body>",
        "<h2>AAPL 225.70 USD: above 200 (rule aapl-200)</h2>",
        "<table>",
        "<tr><th align=3D\"left\">Rule</th><td>aapl-200</td></tr>",
        "<tr><th align=3D\"left\">Symbol</th><td>AAPL</td></tr>",
        "<tr><th align=3D\"left\">Price</th><td>225.70 USD</td></tr>",
        "<tr><th align=3D\"left\">Condition</th><td>above 200</td></tr>",
        "<tr><th align=3D\"left\">Time</th><td>2024-10-02T14:31:00Z</td></tr>",
        "<tr><th align=3D\"left\">Provider</th><td>yahoo</td></tr>",
        "<tr><th align=3D\"left\">Alert ID</th><td>3f2a9c1e-0b7d-4e21-9a6f-5c4b3a29180=",
        "7</td></tr>",
        "</table>",
        "<p><small>Sent by pricewatch.</small></p>",
        "</body>",
        "</html>",
        "",
        "--=_pricewatch_3f2a9c1e-0b7d-4e21-9a6f-5c4b3a291807--",
        "",
    ].joined(separator: "\r\n")

    @Test func goldenMessageBytes() throws {
        let message = try MailMessage(from: EmailFixtures.from, to: EmailFixtures.to, alerts: [EmailFixtures.priceAlert],
                                      date: EmailFixtures.date)
        let text = String(decoding: message.bytes, as: UTF8.self)
        #expect(text == Self.golden)
        #expect(message.messageID == "<3f2a9c1e-0b7d-4e21-9a6f-5c4b3a291807@pricewatch>")
    }

    @Test func sameInputsSameBytes() throws {
        let build = { () throws -> [UInt8] in
            try MailMessage(from: EmailFixtures.from, to: EmailFixtures.to, alerts: EmailFixtures.twentyAlerts,
                            date: EmailFixtures.date).bytes
        }
        #expect(try build() == build())
    }

    @Test(arguments: [
        (Timestamp(seconds: 0), "Thu, 01 Jan 1970 00:00:00 +0000"),
        (Timestamp(seconds: 1_727_879_460), "Wed, 02 Oct 2024 14:31:00 +0000"),
        (Timestamp(seconds: 1_709_164_800), "Thu, 29 Feb 2024 00:00:00 +0000"),
        (Timestamp(milliseconds: 1_798_761_599_999), "Thu, 31 Dec 2026 23:59:59 +0000"),
        (Timestamp(seconds: -1), "Wed, 31 Dec 1969 23:59:59 +0000"),
    ])
    func dateHeaderIsRFC5322(_ time: Timestamp, _ expected: String) throws {
        let message = try MailMessage(from: EmailFixtures.from, to: EmailFixtures.to, alerts: [EmailFixtures.priceAlert], date: time)
        let fields = EmailFixtures.headerFields(message.bytes)
        #expect(fields.first { $0.name == "Date" }?.value == expected)
    }

    @Test func everyLineEndsInCRLFAndFitsTheLimits() throws {
        var alerts = EmailFixtures.twentyAlerts
        alerts[3].message = String(repeating: "long-word-without-spaces-", count: 80) + " and ünïcödé " + String(repeating: "€", count: 400)
        alerts[4].message = "line one\nline two\r\nline three\rline four\n"
        let message = try MailMessage(from: EmailFixtures.from, to: EmailFixtures.to, alerts: alerts, date: EmailFixtures.date)
        let bytes = message.bytes
        #expect(bytes.suffix(2) == [0x0D, 0x0A])
        var lineStart = 0
        var inHeader = true
        for index in bytes.indices {
            if bytes[index] == 0x0A {
                #expect(index > 0 && bytes[index - 1] == 0x0D, "bare LF at byte \(index)")
                let length = index - 1 - lineStart
                #expect(length <= 998, "line of \(length) octets")
                if inHeader { #expect(length <= 78, "header line of \(length) octets") }
                // The body is quoted-printable: 76 at most, and ASCII only.
                if !inHeader { #expect(length <= 76, "body line of \(length) octets") }
                if length == 0 { inHeader = false }
                lineStart = index + 1
            } else if bytes[index] == 0x0D {
                #expect(index + 1 < bytes.count && bytes[index + 1] == 0x0A, "bare CR at byte \(index)")
            } else {
                #expect(bytes[index] < 0x80 && bytes[index] != 0, "byte \(bytes[index]) at \(index) is not 7-bit text")
            }
        }
    }

    @Test func nonASCIISubjectIsEncodedWordsThatDecodeBack() throws {
        var alert = EmailFixtures.priceAlert
        alert.message = "Ölpreis über 80 € — Brent steigt weiter, Zürich meldet 🚀 neue Höchststände bei Rohöl und Erdgas"
        let message = try MailMessage(from: EmailFixtures.from, to: EmailFixtures.to, alerts: [alert], date: EmailFixtures.date)
        let subject = try #require(EmailFixtures.headerFields(message.bytes).first { $0.name == "Subject" }?.value)
        let lines = subject.components(separatedBy: "\r\n")
        #expect(lines.count > 1, "a long subject is folded")
        for (index, line) in lines.enumerated() {
            let words = line.split(separator: " ")
            #expect(words.allSatisfy { $0.hasPrefix("=?utf-8?B?") && $0.hasSuffix("?=") && $0.count <= 75 }, "\(line)")
            #expect(line.count + (index == 0 ? "Subject: ".count : 0) <= 76, "\(line)")
        }
        #expect(EmailFixtures.decodeHeaderValue(subject) == alert.message)
        #expect(message.subject == alert.message)
    }

    @Test func asciiSubjectIsFoldedAtSpacesAndUnfoldsBack() throws {
        var alert = EmailFixtures.priceAlert
        alert.message = (1...30).map { "word\($0)" }.joined(separator: " ")
        let message = try MailMessage(from: EmailFixtures.from, to: EmailFixtures.to, alerts: [alert], date: EmailFixtures.date)
        let subject = try #require(EmailFixtures.headerFields(message.bytes).first { $0.name == "Subject" }?.value)
        #expect(subject.contains("\r\n "))
        #expect(!subject.contains("=?"))
        #expect(subject.replacingOccurrences(of: "\r\n", with: "") == alert.message)
    }

    @Test func asciiTextThatLooksLikeAnEncodedWordIsEncoded() throws {
        var alert = EmailFixtures.priceAlert
        alert.message = "price =?utf-8?B?Zm9v?= trick"
        let message = try MailMessage(from: EmailFixtures.from, to: EmailFixtures.to, alerts: [alert], date: EmailFixtures.date)
        let subject = try #require(EmailFixtures.headerFields(message.bytes).first { $0.name == "Subject" }?.value)
        #expect(EmailFixtures.decodeHeaderValue(subject) == alert.message)
    }

    @Test func subjectTemplateAndMultiLineMessages() throws {
        var alert = EmailFixtures.priceAlert
        alert.message = "first line\nsecond line"
        let template = try MessageTemplate(parsing: "[pricewatch] {{symbol}} {{condition}} at {{price}}")
        let templated = try MailMessage(from: EmailFixtures.from, to: EmailFixtures.to, alerts: [alert], date: EmailFixtures.date,
                                        subjectTemplate: template)
        #expect(templated.subject == "[pricewatch] AAPL above 200 at 225.70")
        let plain = try MailMessage(from: EmailFixtures.from, to: EmailFixtures.to, alerts: [alert], date: EmailFixtures.date)
        #expect(plain.subject == "first line second line")
        let text = String(decoding: plain.bytes, as: UTF8.self)
        #expect(text.contains("\r\nfirst line\r\nsecond line\r\n"), "the body keeps the message's lines")
    }

    @Test func htmlPartEscapesEverything() throws {
        var alert = EmailFixtures.priceAlert
        alert.message = "<script>alert('x')</script> & \"quotes\""
        let message = try MailMessage(from: EmailFixtures.from, to: EmailFixtures.to, alerts: [alert], date: EmailFixtures.date)
        let text = String(decoding: message.bytes, as: UTF8.self)
        let html = EmailFixtures.decodeQuotedPrintable(try #require(text.components(separatedBy: "Content-Type: text/html; charset=utf-8\r\n").last))
        #expect(html.contains("<h2>&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;quotes&quot;</h2>"))
        #expect(!html.contains("<script>"))
    }

    @Test func quotedPrintableRoundTrips() throws {
        var alert = EmailFixtures.priceAlert
        alert.message = "a=b trailing space \ttab " + String(repeating: "x", count: 200) + " €uro ünïcödé\u{1F680}"
        let message = try MailMessage(from: EmailFixtures.from, to: EmailFixtures.to, alerts: [alert], date: EmailFixtures.date)
        let text = String(decoding: message.bytes, as: UTF8.self)
        let plainPart = try #require(text.components(separatedBy: "Content-Transfer-Encoding: quoted-printable\r\n\r\n").dropFirst().first)
        let decoded = EmailFixtures.decodeQuotedPrintable(plainPart)
        #expect(decoded.hasPrefix(alert.message + "\r\n"))
    }

    @Test func twentyAlertsMakeOneMessage() throws {
        let alerts = EmailFixtures.twentyAlerts
        let message = try MailMessage(from: EmailFixtures.from, to: EmailFixtures.to, alerts: alerts, date: EmailFixtures.date)
        let fields = EmailFixtures.headerFields(message.bytes)
        #expect(fields.filter { $0.name == "X-PriceWatch-Alert-ID" }.map(\.value) == alerts.map(\.id))
        #expect(message.subject == "20 price alerts: AAPL, MSFT, BTC-USD, ETH-USD, NVDA and 2 more")
        #expect(message.messageID.hasPrefix("<group-") && message.messageID.hasSuffix("-20@pricewatch>"))
        let text = EmailFixtures.decodeQuotedPrintable(String(decoding: message.bytes, as: UTF8.self))
        for alert in alerts { #expect(text.contains(alert.message)) }
        // Another group gets another id; the same group always the same one.
        let other = try MailMessage(from: EmailFixtures.from, to: EmailFixtures.to, alerts: Array(alerts.dropLast()), date: EmailFixtures.date)
        #expect(other.messageID != message.messageID)
    }

    // MARK: - Injection

    @Test(arguments: [
        "ops@example.com\r\nBcc: victim@example.net",
        "ops@example.com\nRCPT TO:<victim@example.net>",
        "ops@example.com\r",
        "ops@example.com\u{0}",
        "Ops\r\nBcc: x@y.z <ops@example.com>",
        "<ops@example.com>\r\nX: y",
        "ops@exa\tmple.com",
        "ops@example.com>, <victim@example.net",
        "\"Ops\" <ops@example.com>, victim@example.net",
        "ops@@example.com",
        "ops@example..com",
        ".ops@example.com",
        "ops@-example.com",
        "opś@example.com",
        "ops example@example.com",
        "",
        "@example.com",
    ])
    func unsafeOrMalformedAddressesAreRefused(_ text: String) {
        #expect(throws: MailAddress.ParseError.self) { try MailAddress(parsing: text) }
    }

    @Test func refusalsNameTheValueOnOneLine() {
        do {
            _ = try MailAddress(parsing: "ops@example.com\r\nBcc: victim@example.net")
            Issue.record("expected a refusal")
        } catch {
            #expect(error.description == "expected a mail address without control characters (CR, LF, NUL, ...), "
                    + "found \"ops@example.com\\r\\nBcc: victim@example.net\"")
        }
    }

    @Test(arguments: ["alerts@example.com", "first.last+tag@mail.example.co.uk", "Price Watch <alerts@example.com>",
                      "\"Watch, Price\" <alerts@example.com>", "Zoë <zoe@example.org>", "  ops@example.com  "])
    func validAddressesParse(_ text: String) throws {
        let address = try MailAddress(parsing: text)
        #expect(!MailText.hasLineBreakOrNUL(address.address))
    }

    @Test(arguments: [
        ("rule", "aapl\r\nBcc: victim@example.net"),
        ("symbol", "AAPL\nX-Injected: 1"),
        ("currency", "USD\r\n"),
        ("provider", "yahoo\u{0}"),
        ("id", "abc\r\nBcc: x@y.z"),
        ("id", "abc def"),
    ])
    func alertFieldsThatWouldBreakAHeaderAreRefused(_ field: String, _ value: String) {
        var alert = EmailFixtures.priceAlert
        switch field {
        case "rule": alert.rule = value
        case "symbol": alert.symbol = value
        case "currency": alert.currency = value
        case "provider": alert.provider = value
        default: alert.id = value
        }
        #expect(throws: MailMessage.BuildError.self) {
            try MailMessage(from: EmailFixtures.from, to: EmailFixtures.to, alerts: [alert], date: EmailFixtures.date)
        }
    }

    @Test func aSubjectTemplateCannotSmuggleControlCharacters() throws {
        var alert = EmailFixtures.priceAlert
        alert.message = "bell \u{7} here"
        #expect(throws: MailMessage.BuildError.self) {
            try MailMessage(from: EmailFixtures.from, to: EmailFixtures.to, alerts: [alert], date: EmailFixtures.date)
        }
    }

    @Test func aMessageTextWithHeaderLinesStaysInTheBody() throws {
        var alert = EmailFixtures.priceAlert
        alert.message = "price\r\nBcc: victim@example.net\r\n\r\n.\r\nMAIL FROM:<x@y.z>"
        let message = try MailMessage(from: EmailFixtures.from, to: EmailFixtures.to, alerts: [alert], date: EmailFixtures.date)
        let fields = EmailFixtures.headerFields(message.bytes)
        #expect(!fields.contains { $0.name.lowercased() == "bcc" })
        #expect(message.subject == "price Bcc: victim@example.net . MAIL FROM:<x@y.z>")
    }
}
