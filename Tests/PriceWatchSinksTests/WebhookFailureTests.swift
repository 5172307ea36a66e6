@testable import PriceWatchSinks
import PriceWatchCore
import Testing

/// How every answer is classified for the retry policy, and what the messages show.
@Suite struct WebhookFailureTests {
    let failure: WebhookFailure

    init() throws {
        let endpoint = try WebhookEndpoint("https://user:pw-secret@hooks.example.com/T0/B0/t0ken-path?sig=q-secret")
        failure = WebhookFailure(identity: "webhook/ops", endpoint: endpoint,
                                 redactor: WebhookRedactor(endpoint.sensitiveParts + ["h3ader-value"]))
    }

    @Test(arguments: [200, 201, 202, 204, 299])
    func successIsDelivered(status: Int) {
        #expect(failure.verdict(for: HTTPResponse(status: status)) == nil)
    }

    @Test(arguments: [408, 429, 500, 502, 503, 504, 599])
    func temporaryStatusesAreRetryable(status: Int) throws {
        let error = try #require(failure.verdict(for: HTTPResponse(status: status)))
        #expect(error.isRetryable)
        #expect(error.retryAfterSeconds == nil)
        #expect(error.message == "webhook/ops: https://hooks.example.com answered HTTP \(status)")
    }

    @Test(arguments: [301, 302, 400, 401, 403, 404, 405, 410, 413, 422])
    func otherStatusesArePermanent(status: Int) throws {
        let error = try #require(failure.verdict(for: HTTPResponse(status: status)))
        #expect(!error.isRetryable)
    }

    @Test func retryAfterIsPassedOn() throws {
        let error = try #require(failure.verdict(for: HTTPResponse(status: 429, headers: [HTTPHeader("Retry-After", "120")])))
        #expect(error.isRetryable)
        #expect(error.retryAfterSeconds == 120)
        #expect(error.message == "webhook/ops: https://hooks.example.com answered HTTP 429 (retry after 120s)")
    }

    @Test func quotesTheFirstLineOfTheAnswerRedacted() throws {
        let body = Array("no_service: t0ken-path h3ader-value\nmore".utf8)
        let error = try #require(failure.verdict(for: HTTPResponse(status: 404, body: body)))
        #expect(error.message == "webhook/ops: https://hooks.example.com answered HTTP 404: no_service: <redacted> <redacted>")
        let redirect = try #require(failure.verdict(for: HTTPResponse(status: 301)))
        #expect(redirect.message == "webhook/ops: https://hooks.example.com answered HTTP 301 (redirects are not followed: set url to the final address)")
    }

    @Test func longAnswersAreCut() throws {
        let error = try #require(failure.verdict(for: HTTPResponse(status: 400, body: Array(String(repeating: "x", count: 5000).utf8))))
        #expect(error.message == "webhook/ops: https://hooks.example.com answered HTTP 400: " + String(repeating: "x", count: 200) + "…")
    }

    @Test(arguments: [
        (HTTPTransportError.Kind.connectionFailed, true), (.timedOut, true), (.tls, true),
        (.responseTooLarge, true), (.cancelled, true), (.invalidRequest, false),
    ])
    func transportErrorsAreRetryableButAnUnusableRequest(kind: HTTPTransportError.Kind, retryable: Bool) {
        let error = failure.verdict(for: HTTPTransportError(kind, "hooks.example.com: https://hooks.example.com/T0/B0/t0ken-path?sig=q-secret failed"))
        #expect(error.isRetryable == retryable)
        for secret in ["t0ken-path", "q-secret", "pw-secret"] { #expect(!error.message.contains(secret)) }
        #expect(error.message.hasPrefix("webhook/ops: https://hooks.example.com: "))
    }

    @Test func theTransportsRequestLineIsNotRepeated() {
        let error = failure.verdict(for: HTTPTransportError(.connectionFailed, "POST https://hooks.example.com/T0/B0/<redacted>: connection refused (curl error 7)"))
        #expect(error.message == "webhook/ops: https://hooks.example.com: connection refused (curl error 7)")
        let cancelled = failure.verdict(for: HTTPTransportError(.cancelled, "POST https://hooks.example.com/x: cancelled"))
        #expect(cancelled.message == "webhook/ops: https://hooks.example.com: the attempt was cancelled")
    }
}
