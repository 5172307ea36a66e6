import PriceWatchCore
import PriceWatchSinks
import Testing

/// The request the webhook sink sends, exactly, and settings it refuses without showing them.
@Suite struct WebhookRequestTests {
    static let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    static let now = Timestamp(milliseconds: 1_727_879_465_750)

    @Test func signedJSONRequest() throws {
        let builder = try WebhookRequestBuilder(.init(
            url: "https://hooks.example.com/pricewatch?key=k3y-in-query", headers: [HTTPHeader("Authorization", "Bearer t0ken-value")],
            timeout: .seconds(3), secret: Self.secret))
        let request = builder.request(for: WebhookFixtures.fall, at: Self.now)
        let body = Array(WebhookPayload.json(for: WebhookFixtures.fall).utf8)
        let signature = try StandardWebhookSignature(secret: Self.secret)
            .signature(id: WebhookFixtures.fall.id, timestamp: 1_727_879_465, body: body)
        #expect(request.method == .post)
        #expect(request.url == "https://hooks.example.com/pricewatch?key=k3y-in-query")
        #expect(request.body == body)
        #expect(request.timeout == .seconds(3))
        #expect(request.followsRedirects == false)
        #expect(request.headers == [
            HTTPHeader("Content-Type", "application/json"),
            HTTPHeader("Authorization", "Bearer t0ken-value"),
            HTTPHeader("webhook-id", "5f0c6a0e3d1b4b1e9a7c2d4e6f8a0b1c"),
            HTTPHeader("webhook-timestamp", "1727879465"),
            HTTPHeader("webhook-signature", signature),
        ])
        // The transport is told what it must never print either.
        for secret in [Self.secret, "Bearer t0ken-value", "key=k3y-in-query", "/pricewatch?key=k3y-in-query"] {
            #expect(request.redactions.contains(secret))
        }
    }

    @Test func unsignedRequestStillCarriesIdAndTimestamp() throws {
        let builder = try WebhookRequestBuilder(.init(url: "http://127.0.0.1:8080/hook", format: .discord))
        let request = builder.request(for: WebhookFixtures.crossing, at: Self.now)
        #expect(request.headers.map(\.name) == ["Content-Type", "webhook-id", "webhook-timestamp"])
        #expect(request.timeout == WebhookSink.Settings.defaultTimeout)
    }

    @Test func customHeadersReplaceTheFormatsOwn() throws {
        let builder = try WebhookRequestBuilder(.init(
            url: "https://ntfy.example.com/alerts", format: .ntfy,
            headers: [HTTPHeader("priority", "urgent"), HTTPHeader("X-Team", "ops")]))
        let headers = builder.request(for: WebhookFixtures.fall, at: Self.now).headers
        #expect(headers.map(\.name) == ["Content-Type", "Title", "Tags", "priority", "X-Team", "webhook-id", "webhook-timestamp"])
        #expect(headers[3].value == "urgent")
    }

    @Test(arguments: [
        ("ftp://example.com/hook", "url: expected an http:// or https:// URL"),
        ("https:///path-only", "url: the URL has no host"),
        ("https://example.com/a b", "url: the URL contains a space or a control character"),
    ])
    func refusesUnusableURLsWithoutShowingThem(url: String, expected: String) {
        #expect(throws: WebhookConfigurationError(expected)) { try WebhookRequestBuilder(.init(url: url)) }
    }

    @Test func refusesHeadersThatCouldInjectOrClash() {
        let cases: [(HTTPHeader, String)] = [
            (HTTPHeader("X-Token", "s3cret\r\nX-Evil: 1"), "headers: the value of header 'X-Token' contains a line break or a control character"),
            (HTTPHeader("webhook-signature", "v1,forged"), "headers: header 'webhook-signature' is set by the sink itself and cannot be configured"),
            (HTTPHeader("Content-Length", "12"), "headers: header 'Content-Length' is set by the sink itself and cannot be configured"),
            (HTTPHeader("X Token", "s3cret"), "headers: expected header names of letters, digits and !#$%&'*+-.^_`|~, found 'X Token'"),
            (HTTPHeader("X-\u{1}", "s3cret"), "headers: expected header names of letters, digits and !#$%&'*+-.^_`|~, found a name with other characters"),
        ]
        for (header, expected) in cases {
            #expect(throws: WebhookConfigurationError(expected)) {
                try WebhookRequestBuilder(.init(url: "https://example.com/", headers: [header]))
            }
        }
    }

    @Test func refusesASecretWithoutShowingIt() {
        #expect(throws: WebhookConfigurationError("secret: a Standard Webhooks secret starts with 'whsec_', and this one does not")) {
            try WebhookRequestBuilder(.init(url: "https://example.com/", secret: "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"))
        }
    }

    @Test(arguments: [
        ("https://hooks.slack.com/services/T000/B000/XXXXSECRET", "https://hooks.slack.com"),
        ("https://user:pa55word@example.com:8443/hook?token=abc#frag", "https://example.com:8443"),
        ("HTTP://Example.COM", "http://example.com"),
        ("http://[::1]:9000/x", "http://[::1]:9000"),
    ])
    func endpointDisplaysOnlySchemeAndHost(url: String, display: String) throws {
        #expect(try WebhookEndpoint(url).display == display)
    }
}
