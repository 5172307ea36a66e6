import Foundation
import PriceWatchCore
import PriceWatchTestKit

/// The recorded payloads in `Tests/Fixtures/providers/<service>/`, as HTTP responses.
enum ProviderFixtures {
    static func path(_ service: String, _ file: String) -> String {
        RepositoryFiles.path("Tests/Fixtures/providers/\(service)/\(file)")
    }

    static func bytes(_ service: String, _ file: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path(service, file))))
    }

    static func text(_ service: String, _ file: String) throws -> String {
        String(decoding: try bytes(service, file), as: UTF8.self)
    }

    /// The payload as the body of an answer with `status` and `headers`.
    static func response(_ service: String, _ file: String, status: Int = 200,
                         headers: [HTTPHeader] = []) throws -> HTTPResponse {
        HTTPResponse(status: status, headers: headers, body: try bytes(service, file))
    }

    /// Every file recorded for `service`.
    static func files(_ service: String) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: RepositoryFiles.path("Tests/Fixtures/providers/\(service)")))
    }

    static func decimal(_ text: String) -> ExactDecimal {
        ExactDecimal(text) ?? ExactDecimal(scaled: -1)
    }

    /// A bot-check page served with 200, as Stooq and Yahoo's consent flow do.
    static let htmlPage = HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "text/html; charset=utf-8")],
                                       body: Array("<!DOCTYPE html><html><body>Verify you are human</body></html>".utf8))

    static func json(_ text: String, status: Int = 200, headers: [HTTPHeader] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: headers, body: Array(text.utf8))
    }
}

extension Result {
    var value: Success? { if case .success(let value) = self { value } else { nil } }
    var error: Failure? { if case .failure(let error) = self { error } else { nil } }
}
