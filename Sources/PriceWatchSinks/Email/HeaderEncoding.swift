import FoundationEssentials
import PriceWatchCore

/// Writes header fields of a mail message: RFC 2047 encoded-words for text that is not plain
/// ASCII, and RFC 5322 folding so that no line is longer than 78 characters where it can be
/// avoided and never longer than 998.
///
/// Every field is built from tokens that cannot hold a CR, an LF or a NUL: unstructured text
/// has its line breaks collapsed by the caller or refused, and anything that is not printable
/// ASCII is base64-encoded inside encoded-words. The only line breaks in the output are the
/// folds and the final CRLF this type writes itself.
enum HeaderEncoding {
    /// The longest line we aim for (RFC 5322 2.1.1 "SHOULD") and the longest an encoded-word
    /// line may be (RFC 2047 2).
    static let preferredLineLength = 76
    /// The hard limit of RFC 5322, without the CRLF.
    static let maximumLineLength = 998

    /// `Name: value` for unstructured text (`Subject`): the text as is when it is short printable
    /// ASCII words, else as UTF-8 encoded-words. Runs of spaces become one space.
    static func unstructuredField(_ name: String, _ text: String) -> String {
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let plain = words.allSatisfy { word in
            isPrintableASCII(word) && !word.contains("=?") && word.utf8.count <= maximumLineLength - name.utf8.count - 3
        }
        if plain {
            return field(name, tokens: words)
        }
        return field(name, tokens: encodedWords(words.joined(separator: " "), firstLineUsed: name.utf8.count + 2))
    }

    /// `Name: a, "Display" <b@example.com>` for a list of addresses.
    static func addressField(_ name: String, _ addresses: [MailAddress]) -> String {
        var tokens: [String] = []
        for (index, address) in addresses.enumerated() {
            let isLast = index == addresses.count - 1
            let mailbox = "<\(address.address)>" + (isLast ? "" : ",")
            if let displayName = address.displayName {
                tokens += phrase(displayName)
                tokens.append(mailbox)
            } else {
                tokens.append(address.address + (isLast ? "" : ","))
            }
        }
        return field(name, tokens: tokens)
    }

    /// A field whose value is one token that never needs encoding (`Message-ID`, `Date`).
    static func simpleField(_ name: String, _ value: String) -> String {
        field(name, tokens: [value])
    }

    /// A display name as a phrase: a quoted string when it is short printable ASCII, else
    /// encoded-words (which may not appear inside quotes).
    static func phrase(_ text: String) -> [String] {
        let collapsed = text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        if isPrintableASCII(collapsed) && collapsed.utf8.count <= 60 && !collapsed.contains("=?") {
            let escaped = collapsed.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
            return ["\"\(escaped)\""]
        }
        return encodedWords(collapsed, firstLineUsed: preferredLineLength)
    }

    /// Joins tokens with single spaces, folding (CRLF and a space) before a token that would
    /// make the line longer than ``preferredLineLength``.
    static func field(_ name: String, tokens: [String]) -> String {
        var result = name + ":"
        var lineLength = result.utf8.count
        for token in tokens {
            let length = token.utf8.count
            if lineLength + 1 + length > preferredLineLength && lineLength > name.utf8.count + 1 {
                result += "\r\n"
                lineLength = 0
            }
            result += " " + token
            lineLength += 1 + length
        }
        return result + "\r\n"
    }

    /// `text` as `=?utf-8?B?...?=` words of at most 75 characters, each holding whole
    /// code points (RFC 2047 5, 6.3: a character is never split across words). The first word is
    /// shorter when `firstLineUsed` says the line already holds that many characters.
    static func encodedWords(_ text: String, firstLineUsed: Int) -> [String] {
        let overhead = "=?utf-8?B??=".utf8.count
        func capacity(lineUsed: Int) -> Int {
            // base64 turns 3 bytes into 4 characters; a word must fit after `lineUsed` + space.
            let characters = min(75, preferredLineLength - lineUsed - 1) - overhead
            return max(characters / 4 * 3, 12)
        }
        var words: [String] = []
        var chunk: [UInt8] = []
        var limit = capacity(lineUsed: firstLineUsed)
        for scalar in text.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            if !chunk.isEmpty && chunk.count + bytes.count > limit {
                words.append("=?utf-8?B?" + Data(chunk).base64EncodedString() + "?=")
                chunk = []
                limit = capacity(lineUsed: 0)
            }
            chunk += bytes
        }
        if !chunk.isEmpty || words.isEmpty {
            words.append("=?utf-8?B?" + Data(chunk).base64EncodedString() + "?=")
        }
        return words
    }

    static func isPrintableASCII(_ text: some StringProtocol) -> Bool {
        text.utf8.allSatisfy { (0x20...0x7E).contains($0) }
    }
}
