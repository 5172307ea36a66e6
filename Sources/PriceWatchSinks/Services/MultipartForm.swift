import Foundation

/// A `multipart/form-data` body (RFC 7578) with a random boundary: Discord's files, Telegram's
/// `sendPhoto`, Pushover's attachment.
struct MultipartForm {
    let boundary = "pricewatch-" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    private(set) var body: [UInt8] = []

    var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// One part; `contentType` nil for a plain text field (RFC 7578's default, `text/plain`).
    mutating func add(name: String, filename: String? = nil, contentType: String?, bytes: [UInt8]) {
        if !body.isEmpty { body.removeLast(Array("--\(boundary)--\r\n".utf8).count) }
        var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.quoted(name))\""
        if let filename { head += "; filename=\"\(Self.quoted(filename))\"" }
        if let contentType { head += "\r\nContent-Type: \(contentType)" }
        head += "\r\n\r\n"
        body += Array(head.utf8) + bytes + Array("\r\n--\(boundary)--\r\n".utf8)
    }

    /// A text field.
    mutating func field(_ name: String, _ value: String) {
        add(name: name, contentType: nil, bytes: Array(value.utf8))
    }

    /// A file.
    mutating func file(_ name: String, filename: String, contentType: String, bytes: [UInt8]) {
        add(name: name, filename: filename, contentType: contentType, bytes: bytes)
    }

    /// A name inside a quoted parameter: quotes, backslashes and line breaks cannot end it early.
    private static func quoted(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0 != "\"" && $0 != "\r" && $0 != "\n" && $0 != "\\" }.map(Character.init))
    }
}
