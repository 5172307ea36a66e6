import FoundationEssentials

/// The content of a notification that is not an alert: a title, plain text, and optionally
/// HTML and attachments. Sinks show what their medium can: an email the HTML part and the
/// attachments, a chat message the title and text, the JSON webhook everything.
public struct NotificationMessage: Sendable, Hashable, Codable {
    /// One line: an email's subject, a chat message's first line, ntfy's `Title`.
    public var title: String
    /// The plain-text body.
    public var text: String
    /// An HTML body (emails), when the kind renders one.
    public var html: String?
    public var attachments: [NotificationAttachment]
    /// The text in titled parts, for chat formats that lay them out (Slack blocks, Discord
    /// embed fields); nil or empty: the text is one part.
    public var sections: [NotificationSection]?
    /// The content as one JSON object, for plain webhooks (`data`); nil: none.
    public var data: String?

    public init(title: String, text: String, html: String? = nil, attachments: [NotificationAttachment] = [],
                sections: [NotificationSection]? = nil, data: String? = nil) {
        self.title = title
        self.text = text
        self.html = html
        self.attachments = attachments
        self.sections = sections
        self.data = data
    }
}

/// A titled part of a notification's text: a heading and its lines.
public struct NotificationSection: Sendable, Hashable, Codable {
    public var title: String
    public var lines: [String]

    public init(title: String, lines: [String]) {
        self.title = title
        self.lines = lines
    }
}

/// A file carried by a notification (a chart, a CSV report).
public struct NotificationAttachment: Sendable, Hashable, Codable {
    /// The file name receivers see: letters, digits, `.`, `-` and `_` are safe everywhere.
    public var filename: String
    /// The MIME type, e.g. `image/png`.
    public var contentType: String
    public var bytes: [UInt8]

    public init(filename: String, contentType: String, bytes: [UInt8]) {
        self.filename = filename
        self.contentType = contentType
        self.bytes = bytes
    }

    private enum CodingKeys: String, CodingKey {
        case filename, contentType = "content_type", content
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        filename = try container.decode(String.self, forKey: .filename)
        contentType = try container.decode(String.self, forKey: .contentType)
        let base64 = try container.decode(String.self, forKey: .content)
        guard let data = Data(base64Encoded: base64) else {
            throw DecodingError.dataCorruptedError(forKey: .content, in: container, debugDescription: "expected base64 content")
        }
        bytes = Array(data)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(filename, forKey: .filename)
        try container.encode(contentType, forKey: .contentType)
        try container.encode(base64, forKey: .content)
    }

    /// The bytes in base64 (RFC 4648, with padding).
    public var base64: String { Data(bytes).base64EncodedString() }
}
