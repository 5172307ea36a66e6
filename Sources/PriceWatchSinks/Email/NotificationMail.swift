import FoundationEssentials
import PriceWatchCore

extension MailMessage {
    /// Builds the email for a notification that is not an alert (a digest, a report): its
    /// title as the `Subject`, `Message-ID` `<ID@pricewatch>`, `X-PriceWatch-Notification-ID`
    /// and `X-PriceWatch-Kind` headers, a `multipart/alternative` body with the text and the
    /// HTML (the text, escaped, when the kind has no HTML), and when there are attachments,
    /// the whole in a `multipart/mixed` with each file in base64.
    ///
    /// - Throws: ``BuildError`` when there is no recipient, the id cannot be a Message-ID, or
    ///   the kind, the title or an attachment's name or type holds a control character.
    public init(from: MailAddress, to: [MailAddress], notification: OutgoingNotification, message: NotificationMessage,
                date: Timestamp) throws(BuildError) {
        guard !to.isEmpty else { throw BuildError(description: "expected at least one recipient, found none") }
        guard MailAddress.isDotAtom(notification.id) else {
            throw BuildError(description: "notification id \(MailText.quoted(notification.id)) cannot be a Message-ID (expected letters, digits, '-' and '.')")
        }
        guard MailAddress.isDotAtom(notification.kind.rawValue) else {
            throw BuildError(description: "notification kind \(MailText.quoted(notification.kind.rawValue)) cannot be a header (expected letters, digits, '-' and '.')")
        }
        let subject = message.title.unicodeScalars
            .split(whereSeparator: { $0 == " " || $0 == "\r" || $0 == "\n" || $0 == "\t" })
            .map { String(String.UnicodeScalarView($0)) }.joined(separator: " ")
        if MailText.hasControlCharacter(subject) {
            throw BuildError(description: "the subject contains a control character: \(MailText.quoted(message.title))")
        }
        for attachment in message.attachments {
            let name = attachment.filename, type = attachment.contentType
            guard !name.isEmpty, name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || ".-_".unicodeScalars.contains($0)) }) else {
                throw BuildError(description: "attachment name \(MailText.quoted(name)) is not a plain file name (expected letters, digits, '.', '-' and '_')")
            }
            guard type.split(separator: "/").count == 2, type.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "/.+-_".unicodeScalars.contains($0)) }) else {
                throw BuildError(description: "attachment \(name): content type \(MailText.quoted(type)) is not TYPE/SUBTYPE")
            }
        }
        let boundary = "=_pricewatch_" + notification.id
        let html = message.html ?? "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>\(AlertMailBody.escape(subject))</title>\n</head>\n<body>\n<h2>\(AlertMailBody.escape(subject))</h2>\n<pre>\(AlertMailBody.escape(message.text))</pre>\n</body>\n</html>\n"

        var header = ""
        header += HeaderEncoding.simpleField("Date", MailDate.rfc5322(date))
        header += HeaderEncoding.addressField("From", [from])
        header += HeaderEncoding.addressField("To", to)
        header += HeaderEncoding.unstructuredField("Subject", subject)
        header += HeaderEncoding.simpleField("Message-ID", "<\(notification.id)@pricewatch>")
        header += HeaderEncoding.simpleField("X-PriceWatch-Notification-ID", notification.id)
        header += HeaderEncoding.simpleField("X-PriceWatch-Kind", notification.kind.rawValue)
        header += HeaderEncoding.simpleField("Auto-Submitted", "auto-generated")
        header += HeaderEncoding.simpleField("MIME-Version", "1.0")

        var alternative = ""
        for (type, content) in [("text/plain", message.text.hasSuffix("\n") ? message.text : message.text + "\n"), ("text/html", html)] {
            alternative += "\r\n--\(boundary)\r\n"
            alternative += HeaderEncoding.simpleField("Content-Type", "\(type); charset=utf-8")
            alternative += HeaderEncoding.simpleField("Content-Transfer-Encoding", "quoted-printable")
            alternative += "\r\n"
            alternative += QuotedPrintable.encode(content)
        }
        alternative += "\r\n--\(boundary)--\r\n"

        // Attachments the HTML shows (`cid:` references) go inline in a multipart/related
        // around the alternative; the others are attachments of a multipart/mixed around that.
        let inline = message.attachments.filter { html.contains($0.inlineReference) }
        let attached = message.attachments.filter { !html.contains($0.inlineReference) }
        var content = (type: ["multipart/alternative;"], boundary: boundary, body: alternative)
        if !inline.isEmpty {
            let related = boundary + "_related"
            var body = "\r\n--\(related)\r\n"
            body += HeaderEncoding.field("Content-Type", tokens: ["multipart/alternative;", "boundary=\"\(boundary)\""])
            body += alternative
            for attachment in inline {
                body += "\r\n--\(related)\r\n" + Self.filePart(attachment, disposition: "inline")
            }
            body += "\r\n--\(related)--\r\n"
            content = (["multipart/related;", "type=\"multipart/alternative\";"], related, body)
        }
        var body: String
        if attached.isEmpty {
            header += HeaderEncoding.field("Content-Type", tokens: content.type + ["boundary=\"\(content.boundary)\""])
            body = (inline.isEmpty ? "This is a MIME message with a text and an HTML part.\r\n"
                : "This is a MIME message with a text and an HTML part with pictures.\r\n") + content.body
        } else {
            let mixed = boundary + "_mixed"
            header += HeaderEncoding.field("Content-Type", tokens: ["multipart/mixed;", "boundary=\"\(mixed)\""])
            body = "This is a MIME message with attachments.\r\n"
            body += "\r\n--\(mixed)\r\n"
            body += HeaderEncoding.field("Content-Type", tokens: content.type + ["boundary=\"\(content.boundary)\""])
            body += content.body
            for attachment in attached {
                body += "\r\n--\(mixed)\r\n" + Self.filePart(attachment, disposition: "attachment")
            }
            body += "\r\n--\(mixed)--\r\n"
        }
        let bytes = Array((header + "\r\n" + body).utf8)
        try Self.checkLines(bytes)
        self.bytes = bytes
        self.messageID = "<\(notification.id)@pricewatch>"
        self.subject = subject
    }

    /// One file as a base64 MIME part (headers and body, no boundary line); inline parts get
    /// the `Content-ID` their `cid:` reference names.
    static func filePart(_ attachment: NotificationAttachment, disposition: String) -> String {
        var part = HeaderEncoding.field("Content-Type", tokens: ["\(attachment.contentType);", "name=\"\(attachment.filename)\""])
        part += HeaderEncoding.field("Content-Disposition", tokens: ["\(disposition);", "filename=\"\(attachment.filename)\""])
        if disposition == "inline" { part += HeaderEncoding.simpleField("Content-ID", "<\(attachment.contentID)>") }
        part += HeaderEncoding.simpleField("Content-Transfer-Encoding", "base64")
        part += "\r\n"
        let encoded = Array(attachment.base64)
        var start = 0
        while start < encoded.count {
            let end = min(start + 76, encoded.count)
            part += String(encoded[start..<end]) + "\r\n"
            start = end
        }
        return part
    }
}
