import PriceWatchCore

/// One alert email, or one email listing several alerts: an RFC 5322 / MIME message ready for
/// SMTP submission.
///
/// The message has `Date` (RFC 5322 format, UTC), `From`, `To`, `Subject` (RFC 2047
/// encoded-words when not plain ASCII), `Message-ID` (`<ALERT-ID@pricewatch>` for one alert;
/// for several, a stable id derived from all their ids), one `X-PriceWatch-Alert-ID` per
/// alert, `Auto-Submitted: auto-generated`, and a `multipart/alternative` body with a
/// `text/plain` and a `text/html` part, both UTF-8 and quoted-printable. Every line ends in
/// CRLF and none is longer than 998 octets; no header holds a CR, an LF or a NUL of the input.
///
/// Building is pure and deterministic: the same alerts, addresses and date give the same bytes.
public struct MailMessage: Sendable, Hashable {
    /// The whole message, with CRLF line ends.
    public let bytes: [UInt8]
    /// `<…@pricewatch>`, with the angle brackets.
    public let messageID: String
    /// The subject as decoded text (before encoding and folding).
    public let subject: String

    /// Why a message could not be built: a value that would break a header or the envelope.
    public struct BuildError: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Builds the message for `alerts` (at least one; several make one email listing them all,
    /// in the given order).
    ///
    /// - Parameters:
    ///   - subjectTemplate: the subject of a single-alert message, with the placeholders of a
    ///     rule's `message`; without it the subject is the alert's message. A message with
    ///     several alerts is titled `N price alerts: SYMBOL, SYMBOL, …`.
    ///   - date: the `Date` header (the sending time, from the caller's clock).
    /// - Throws: ``BuildError`` when there is no alert, or an alert field that goes into a header
    ///   (id, rule, symbol, currency, provider, condition, direction) holds a control character.
    ///   The alert's free-text message may span lines: its line breaks become spaces in the subject.
    public init(from: MailAddress, to: [MailAddress], alerts: [Alert], date: Timestamp,
                subjectTemplate: MessageTemplate? = nil) throws(BuildError) {
        guard let first = alerts.first else { throw BuildError(description: "expected at least one alert, found none") }
        guard !to.isEmpty else { throw BuildError(description: "expected at least one recipient, found none") }
        for alert in alerts { try Self.check(alert) }

        let subject = try Self.subject(for: alerts, template: subjectTemplate)
        let messageID = alerts.count == 1 ? "<\(first.id)@pricewatch>" : "<\(AlertGroupID.make(alerts))@pricewatch>"
        let boundary = "=_pricewatch_" + (alerts.count == 1 ? first.id : AlertGroupID.hash(alerts))

        var header = ""
        header += HeaderEncoding.simpleField("Date", MailDate.rfc5322(date))
        header += HeaderEncoding.addressField("From", [from])
        header += HeaderEncoding.addressField("To", to)
        header += HeaderEncoding.unstructuredField("Subject", subject)
        header += HeaderEncoding.simpleField("Message-ID", messageID)
        for alert in alerts { header += HeaderEncoding.simpleField("X-PriceWatch-Alert-ID", alert.id) }
        header += HeaderEncoding.simpleField("Auto-Submitted", "auto-generated")
        header += HeaderEncoding.simpleField("MIME-Version", "1.0")
        header += HeaderEncoding.field("Content-Type", tokens: ["multipart/alternative;", "boundary=\"\(boundary)\""])

        var body = "This is a MIME message with a text and an HTML part.\r\n"
        for (type, content) in [("text/plain", AlertMailBody.text(alerts)), ("text/html", AlertMailBody.html(alerts, title: subject))] {
            body += "\r\n--\(boundary)\r\n"
            body += HeaderEncoding.simpleField("Content-Type", "\(type); charset=utf-8")
            body += HeaderEncoding.simpleField("Content-Transfer-Encoding", "quoted-printable")
            body += "\r\n"
            body += QuotedPrintable.encode(content)
        }
        body += "\r\n--\(boundary)--\r\n"

        let bytes = Array((header + "\r\n" + body).utf8)
        try Self.checkLines(bytes)
        self.bytes = bytes
        self.messageID = messageID
        self.subject = subject
    }

    // MARK: - Subject

    static func subject(for alerts: [Alert], template: MessageTemplate?) throws(BuildError) -> String {
        let text: String
        if alerts.count == 1, let alert = alerts.first {
            text = template.map { $0.render(alert.placeholderValue) } ?? alert.message
        } else {
            var symbols: [String] = []
            for alert in alerts where !symbols.contains(alert.symbol) { symbols.append(alert.symbol) }
            let shown = symbols.prefix(5).joined(separator: ", ")
            let more = symbols.count > 5 ? " and \(symbols.count - 5) more" : ""
            text = "\(alerts.count) price alerts: \(shown)\(more)"
        }
        // A multi-line message template is legitimate; in a header its lines run together,
        // and runs of white space become one space (folding could not keep them anyway).
        let collapsed = text.unicodeScalars.split(whereSeparator: { $0 == " " || $0 == "\r" || $0 == "\n" || $0 == "\t" })
            .map { String(String.UnicodeScalarView($0)) }.joined(separator: " ")
        if MailText.hasControlCharacter(collapsed) {
            throw BuildError(description: "the subject contains a control character: \(MailText.quoted(text))")
        }
        return collapsed
    }

    // MARK: - Checks

    /// Refuses an alert whose identifying fields could break a header: they come from rule ids,
    /// symbols and provider data and never legitimately hold control characters.
    static func check(_ alert: Alert) throws(BuildError) {
        guard MailAddress.isDotAtom(alert.id) else {
            throw BuildError(description: "alert id \(MailText.quoted(alert.id)) cannot be a Message-ID (expected letters, digits, '-' and '.')")
        }
        let fields: [(String, String?)] = [("rule", alert.rule), ("symbol", alert.symbol), ("currency", alert.currency),
                                           ("provider", alert.provider), ("condition", alert.condition),
                                           ("direction", alert.direction)]
        for (name, value) in fields {
            if let value, MailText.hasControlCharacter(value) {
                throw BuildError(description: "alert \(alert.id): the \(name) contains a control character: \(MailText.quoted(value))")
            }
        }
    }

    /// Every line ends in CRLF and holds at most 998 octets (RFC 5322 2.1.1).
    static func checkLines(_ bytes: [UInt8]) throws(BuildError) {
        var lineLength = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0D {
                guard index + 1 < bytes.count, bytes[index + 1] == 0x0A else {
                    throw BuildError(description: "internal error: a CR without LF at byte \(index)")
                }
                lineLength = 0
                index += 2
                continue
            }
            if byte == 0x0A { throw BuildError(description: "internal error: an LF without CR at byte \(index)") }
            if byte == 0x00 { throw BuildError(description: "internal error: a NUL at byte \(index)") }
            lineLength += 1
            if lineLength > HeaderEncoding.maximumLineLength {
                throw BuildError(description: "internal error: a line longer than \(HeaderEncoding.maximumLineLength) octets")
            }
            index += 1
        }
    }
}
