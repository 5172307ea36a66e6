import FoundationEssentials
import PriceWatchCore

/// The parts of a Pushover error answer the sink quotes:
/// `{"user":"invalid","errors":["user identifier is invalid"],"status":0,"request":"…"}`.
struct PushoverAnswer: Decodable, Sendable {
    var errors: [String]?

    init?(_ response: HTTPResponse) {
        guard let decoded = try? JSONDecoder().decode(PushoverAnswer.self, from: Data(response.body)) else { return nil }
        self = decoded
    }

    /// The errors in one line.
    var detail: String? {
        guard let errors, !errors.isEmpty else { return nil }
        return errors.joined(separator: "; ")
    }
}
