/// What a request's `Accept-Encoding` allows (RFC 9110, section 12.5.3): whether the client
/// takes a gzip body. Pure; a header that cannot be read allows only the identity.
struct AcceptEncoding: Sendable, Equatable {
    /// The client takes `Content-Encoding: gzip`.
    let acceptsGzip: Bool

    /// - Parameter values: every `Accept-Encoding` field line of the request (none: identity).
    init(_ values: [String]) {
        var gzip: Double?
        var wildcard: Double?
        for value in values {
            for member in value.split(separator: ",") {
                let parts = member.split(separator: ";").map { $0.trimmingSpaces() }
                guard let coding = parts.first?.lowercased(), !coding.isEmpty else { continue }
                var weight = 1.0
                for parameter in parts.dropFirst() {
                    let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingSpaces() }
                    if pair.count == 2, pair[0].lowercased() == "q" {
                        // A weight that is not a number in 0...1 refuses the coding.
                        weight = Double(pair[1]).flatMap { (0...1).contains($0) ? $0 : nil } ?? 0
                    }
                }
                switch coding {
                case "gzip", "x-gzip": gzip = max(gzip ?? 0, weight)
                case "*": wildcard = max(wildcard ?? 0, weight)
                default: break
                }
            }
        }
        // A coding named with its weight wins over the wildcard's.
        acceptsGzip = (gzip ?? wildcard ?? 0) > 0
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
