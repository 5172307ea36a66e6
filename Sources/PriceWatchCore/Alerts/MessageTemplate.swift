/// A rule's `message` template: text with `{{placeholder}}`s (`docs/rules.md`, "Alerts").
///
/// Parsed once when configuration loads, so an unknown placeholder is a configuration error,
/// never a surprise at alert time.
public struct MessageTemplate: Sendable, Hashable {
    /// The placeholders a template may use.
    public enum Placeholder: String, Sendable, Hashable, CaseIterable {
        case rule, symbol, price, currency, condition, time, base, change
        /// The quote time in the market's zone with its offset: `2024-10-02 09:30 -04:00`.
        case localTime = "local_time"
    }

    enum Segment: Sendable, Hashable {
        case text(String)
        case placeholder(Placeholder)
    }

    let segments: [Segment]
    /// The template as written.
    public let source: String

    /// Why a template could not be parsed.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    public init(parsing source: String) throws(ParseError) {
        self.source = source
        var segments: [Segment] = []
        var rest = Substring(source)
        while let open = rest.firstRange(of: "{{") {
            if open.lowerBound > rest.startIndex { segments.append(.text(String(rest[..<open.lowerBound]))) }
            guard let close = rest[open.upperBound...].firstRange(of: "}}") else {
                throw ParseError(description: "expected '}}' to close the placeholder opened by '{{' in \"\(source)\"")
            }
            let name = rest[open.upperBound..<close.lowerBound].trimmingSpaces()
            guard let placeholder = Placeholder(rawValue: name) else {
                let known = Placeholder.allCases.map { "{{\($0.rawValue)}}" }.joined(separator: " ")
                var message = "unknown placeholder '{{\(name)}}'"
                if let suggestion = Suggestion.closest(to: name, among: Placeholder.allCases.map(\.rawValue)) {
                    message += "; did you mean '{{\(suggestion)}}'?"
                }
                throw ParseError(description: message + " (known: \(known))")
            }
            segments.append(.placeholder(placeholder))
            rest = rest[close.upperBound...]
        }
        if !rest.isEmpty { segments.append(.text(String(rest))) }
        self.segments = segments
    }

    /// Fills the template; a placeholder without a value (a currency the provider did not
    /// give, a base for a price rule) renders as an empty string.
    public func render(_ values: (Placeholder) -> String?) -> String {
        var result = ""
        for segment in segments {
            switch segment {
            case .text(let text): result += text
            case .placeholder(let placeholder): result += values(placeholder) ?? ""
            }
        }
        return result
    }
}

extension Substring {
    func trimmingSpaces() -> String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
