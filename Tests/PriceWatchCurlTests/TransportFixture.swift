import PriceWatchCore
import Testing

/// Sends `request` and returns the error it must fail with; records an issue if it succeeds.
func expectFailure(_ transport: some HTTPTransport, _ request: HTTPRequest,
                   sourceLocation: SourceLocation = #_sourceLocation) async -> HTTPTransportError? {
    do {
        let response = try await transport.send(request)
        Issue.record("expected an error, got status \(response.status)", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

extension HTTPResponse {
    var text: String { String(decoding: body, as: UTF8.self) }
}
