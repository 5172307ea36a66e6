import FoundationEssentials
import PriceWatchCore

/// The parts of a Bot API error answer the sink uses:
/// `{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 35","parameters":{"retry_after":35}}`.
struct TelegramAnswer: Decodable, Sendable {
    struct Parameters: Decodable, Sendable {
        var retryAfter: Int64?

        enum CodingKeys: String, CodingKey { case retryAfter = "retry_after" }
    }

    var description: String?
    var parameters: Parameters?

    /// The answer in `response`, when its body is one (nil for a proxy's HTML page).
    init?(_ response: HTTPResponse) {
        guard let decoded = try? JSONDecoder().decode(TelegramAnswer.self, from: Data(response.body)) else { return nil }
        self = decoded
    }
}
