/// A news rule's `match`: the terms a headline must contain, any one of them, compared
/// without regard to case.
///
/// A term matches where it starts a word of the headline and may run on into a longer word:
/// `downgrade` matches "Downgraded to sell" and "analyst downgrade", but `rat` does not match
/// "accurate". A term of several words (`price target`) matches them in that order with the
/// headline's own spacing collapsed. No terms: every headline matches.
public struct HeadlineMatch: Sendable, Hashable {
    /// The terms as written, in order.
    public let terms: [String]
    /// Each term folded to lower case with its whitespace collapsed.
    private let folded: [[Character]]

    public init(_ terms: [String] = []) {
        self.terms = terms
        self.folded = terms.map { Array(Self.fold($0)) }.filter { !$0.isEmpty }
    }

    /// Whether `headline` contains one of the terms at the start of a word.
    public func matches(_ headline: String) -> Bool {
        guard !folded.isEmpty else { return true }
        let text = Array(Self.fold(headline))
        return folded.contains { term in
            guard term.count <= text.count else { return false }
            for start in 0...(text.count - term.count) where start == 0 || !Self.isWordCharacter(text[start - 1]) {
                if text[start..<(start + term.count)].elementsEqual(term) { return true }
            }
            return false
        }
    }

    /// Lower case, runs of whitespace as one space, none at either end.
    private static func fold(_ text: String) -> String {
        text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber
    }
}
