import FoundationEssentials
import PriceWatchCore

/// The parts of a Matrix answer the sink uses: an error's
/// `{"errcode":"M_LIMIT_EXCEEDED","error":"Too many requests","retry_after_ms":2000}`, an
/// upload's `{"content_uri":"mxc://example.org/AbCd"}`, the room directory's
/// `{"room_id":"!AbCd:example.org","servers":[…]}`.
struct MatrixAnswer: Decodable, Sendable {
    var errcode: String?
    var error: String?
    var retryAfterMilliseconds: Int64?
    /// The media repository's answer to an upload: `mxc://server/id`.
    var contentURI: String?
    /// The room directory's answer for an alias: `!opaque:server`.
    var roomID: String?

    enum CodingKeys: String, CodingKey {
        case errcode, error
        case retryAfterMilliseconds = "retry_after_ms"
        case contentURI = "content_uri"
        case roomID = "room_id"
    }

    init?(_ response: HTTPResponse) {
        guard let decoded = try? JSONDecoder().decode(MatrixAnswer.self, from: Data(response.body)) else { return nil }
        self = decoded
    }

    /// `M_FORBIDDEN: You are not in this room`.
    var detail: String? {
        switch (errcode, error) {
        case (let code?, let message?): "\(code): \(message)"
        case (let code?, nil): code
        case (nil, let message?): message
        case (nil, nil): nil
        }
    }

    /// `retry_after_ms` in whole seconds, rounded up.
    var retryAfterSeconds: Int64? {
        retryAfterMilliseconds.map { $0 <= 0 ? 0 : ($0 + 999) / 1000 }
    }
}
