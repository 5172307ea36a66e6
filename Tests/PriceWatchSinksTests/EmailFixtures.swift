import Foundation
import PriceWatchCore
import PriceWatchSinks

/// Alerts, addresses and decoding helpers shared by the email tests.
enum EmailFixtures {
    /// 2024-10-02T14:31:00Z, a Wednesday.
    static let date = Timestamp(seconds: 1_727_879_460)

    static func address(_ text: String) -> MailAddress {
        do { return try MailAddress(parsing: text) } catch { preconditionFailure("fixture address \(text): \(error)") }
    }

    static let from = address("Price Watch <alerts@example.com>")
    static let to = [address("ops@example.com"), address("Zoë Ops <zoe@example.org>")]

    static let priceAlert = Alert(
        id: "3f2a9c1e-0b7d-4e21-9a6f-5c4b3a291807", rule: "aapl-200", symbol: "AAPL", provider: "yahoo",
        condition: "above 200", price: ExactDecimal("225.7") ?? .zero, currency: "USD",
        time: Timestamp(seconds: 1_727_879_460), base: nil, change: nil, direction: nil,
        message: "AAPL 225.70 USD: above 200 (rule aapl-200)")

    /// Twenty alerts for one grouped email.
    static let twentyAlerts: [Alert] = (0..<20).map { index in
        var alert = priceAlert
        alert.id = String(format: "00000000-0000-0000-0000-%012d", index)
        alert.symbol = ["AAPL", "MSFT", "BTC-USD", "ETH-USD", "NVDA", "TSLA", "SAP.DE"][index % 7]
        alert.time = Timestamp(seconds: 1_727_879_460 + Int64(index) * 60)
        alert.message = "\(alert.symbol) alert number \(index + 1) — €"
        return alert
    }

    /// Decodes an RFC 2047 header value made of `=?utf-8?B?...?=` words and plain text, after
    /// unfolding; an independent check of what the builder wrote.
    static func decodeHeaderValue(_ folded: String) -> String {
        let unfolded = folded.replacingOccurrences(of: "\r\n ", with: " ")
        var words = unfolded.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        var result = ""
        var previousWasEncoded = false
        for (index, word) in words.enumerated() {
            if word.hasPrefix("=?utf-8?B?"), word.hasSuffix("?="),
               let data = Data(base64Encoded: String(word.dropFirst(10).dropLast(2))) {
                result += String(decoding: data, as: UTF8.self)
                previousWasEncoded = true
            } else {
                if index > 0 && !(previousWasEncoded && word.isEmpty) { result += " " }
                result += word
                previousWasEncoded = false
            }
        }
        words.removeAll()
        return result
    }

    /// The header block of a message, split into unfolded fields `(name, raw value)`.
    static func headerFields(_ bytes: [UInt8]) -> [(name: String, value: String)] {
        let text = String(decoding: bytes, as: UTF8.self)
        let head = text.components(separatedBy: "\r\n\r\n").first ?? ""
        var fields: [(name: String, value: String)] = []
        for line in head.components(separatedBy: "\r\n") {
            if line.hasPrefix(" ") || line.hasPrefix("\t"), let last = fields.popLast() {
                fields.append((last.name, last.value + "\r\n" + line))
            } else if let colon = line.firstIndex(of: ":") {
                fields.append((String(line[..<colon]), String(line[line.index(after: colon)...].dropFirst())))
            }
        }
        return fields
    }

    /// Decodes a quoted-printable body (RFC 2045 6.7), independently of the encoder.
    static func decodeQuotedPrintable(_ text: String) -> String {
        var bytes: [UInt8] = []
        let input = Array(text.replacingOccurrences(of: "=\r\n", with: "").utf8)
        var index = 0
        while index < input.count {
            if input[index] == UInt8(ascii: "="), index + 2 < input.count,
               let value = UInt8(String(decoding: input[(index + 1)...(index + 2)], as: UTF8.self), radix: 16) {
                bytes.append(value)
                index += 3
            } else {
                bytes.append(input[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
