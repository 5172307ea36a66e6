import FoundationEssentials
import PriceWatchCore

/// The parts of a Bot API error answer the sink uses:
/// `{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 35","parameters":{"retry_after":35}}`.
struct TelegramAnswer: Decodable, Sendable {
    struct Parameters: Decodable, Sendable {
        var retryAfter: Int64?
        /// A group that became a supergroup has a new id, which the sink must be told.
        var migrateToChatID: Int64?

        enum CodingKeys: String, CodingKey {
            case retryAfter = "retry_after"
            case migrateToChatID = "migrate_to_chat_id"
        }
    }

    var description: String?
    var parameters: Parameters?

    /// Telegram's description, with what to do when the chat moved:
    /// `Bad Request: group chat was upgraded to a supergroup chat (set chat = "-100…")`.
    var detail: String? {
        guard let moved = parameters?.migrateToChatID else { return description }
        return (description ?? "the chat moved") + " (set chat = \"\(moved)\")"
    }

    /// The answer in `response`, when its body is one (nil for a proxy's HTML page).
    init?(_ response: HTTPResponse) {
        guard let decoded = try? JSONDecoder().decode(TelegramAnswer.self, from: Data(response.body)) else { return nil }
        self = decoded
    }
}
