import FoundationEssentials
import PriceWatchCore

/// The parts of a Gotify error answer the sink quotes:
/// `{"error":"Unauthorized","errorCode":401,"errorDescription":"you need to provide a valid access token …"}`.
struct GotifyAnswer: Decodable, Sendable {
    var error: String?
    var errorDescription: String?

    init?(_ response: HTTPResponse) {
        guard let decoded = try? JSONDecoder().decode(GotifyAnswer.self, from: Data(response.body)) else { return nil }
        self = decoded
    }

    var detail: String? {
        switch (error, errorDescription) {
        case (let error?, let description?): "\(error): \(description)"
        case (let error?, nil): error
        case (nil, let description?): description
        case (nil, nil): nil
        }
    }
}
