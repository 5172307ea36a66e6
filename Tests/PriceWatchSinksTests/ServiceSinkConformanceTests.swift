import Foundation
import PriceWatchCore
import PriceWatchCurl
import PriceWatchSinks
import PriceWatchTestKit
import Testing

/// The Telegram, Pushover, Gotify and Matrix sinks through the shared conformance suite, over
/// the real libcurl transport to a loopback server that echoes their secrets in its refusals.
@Suite struct ServiceSinkConformanceTests {
    static let transport = CurlHTTPTransport()
    static let telegramToken = "6915307482:AAHf3kQz-Lm0Xy_pR8tUvWcD9eJbN4sG2hA"
    static let pushoverToken = "azGDORePK8gMaC0QOYAMyEEuzJnyUi"
    static let pushoverUser = "uQiRzpo4DXghDmr9QzzfQu27cmVRsG"
    static let gotifyToken = "AbCdEfGh.12345-xyz"
    static let matrixToken = "syt_cHJpY2V3YXRjaA_XyZaBcDeFgHiJkLmN_0a1B2c"

    static func telegram() -> ServiceConformanceHarness {
        ServiceConformanceHarness(.init(
            method: "POST", pathPrefix: "/bot\(telegramToken)/sendMessage", success: .json(#"{"ok":true,"result":{"message_id":1}}"#),
            permanentStatus: 400,
            build: { base, timeout in
                try TelegramSink(name: "ops", settings: TelegramSettings(token: telegramToken, chat: "42", apiURL: base, timeout: timeout),
                                 transport: transport)
            },
            alertID: { ServiceConformanceHarness.sampleAlertShown(in: $0, field: "text", escaped: "&lt;b&gt;&quot;now&quot;&lt;/b&gt; &amp; more") }),
            secrets: [telegramToken])
    }

    static func pushover() -> ServiceConformanceHarness {
        ServiceConformanceHarness(.init(
            method: "POST", pathPrefix: "/1/messages.json", success: .json(#"{"status":1,"request":"r"}"#), permanentStatus: 400,
            build: { base, timeout in
                try PushoverSink(name: "phone", settings: PushoverSettings(token: pushoverToken, user: pushoverUser, apiURL: base, timeout: timeout),
                                 transport: transport)
            },
            alertID: { ServiceConformanceHarness.sampleAlertShown(in: $0, escaped: "%3Cb%3E%22now%22%3C%2Fb%3E%20%26%20more") }),
            secrets: [pushoverToken, pushoverUser])
    }

    static func gotify() -> ServiceConformanceHarness {
        ServiceConformanceHarness(.init(
            method: "POST", pathPrefix: "/message", success: .json(#"{"id":1}"#), permanentStatus: 401,
            build: { base, timeout in
                try GotifySink(name: "home", settings: GotifySettings(url: base, token: gotifyToken, timeout: timeout), transport: transport)
            },
            alertID: { ServiceConformanceHarness.sampleAlertShown(in: $0, field: "message", escaped: #"\<b\>"now"\</b\> & more"#) }),
            secrets: [gotifyToken])
    }

    static func matrix() -> ServiceConformanceHarness {
        ServiceConformanceHarness(.init(
            method: "PUT", pathPrefix: "/_matrix/client/v3/rooms/", success: .json(#"{"event_id":"$1"}"#), permanentStatus: 403,
            build: { base, timeout in
                try MatrixSink(name: "room", settings: MatrixSettings(homeserver: base, room: "!AbCd:example.org", accessToken: matrixToken,
                                                                      timeout: timeout), transport: transport)
            },
            alertID: { request in
                // The transaction id: `pricewatch-` and the alert's id.
                request.path.split(separator: "/").last.map(String.init).flatMap { $0.hasPrefix("pricewatch-") ? String($0.dropFirst(11)) : nil }
            }),
            secrets: [matrixToken])
    }

    @Test(arguments: SinkConformance.applicable(to: ServiceConformanceHarness.supportedBehaviours))
    func telegramSinkConforms(_ check: SinkConformance) async {
        let outcome = await check.run(on: Self.telegram())
        #expect(outcome.failures.isEmpty, "\(outcome)")
    }

    @Test(arguments: SinkConformance.applicable(to: ServiceConformanceHarness.supportedBehaviours))
    func pushoverSinkConforms(_ check: SinkConformance) async {
        let outcome = await check.run(on: Self.pushover())
        #expect(outcome.failures.isEmpty, "\(outcome)")
    }

    @Test(arguments: SinkConformance.applicable(to: ServiceConformanceHarness.supportedBehaviours))
    func gotifySinkConforms(_ check: SinkConformance) async {
        let outcome = await check.run(on: Self.gotify())
        #expect(outcome.failures.isEmpty, "\(outcome)")
    }

    @Test(arguments: SinkConformance.applicable(to: ServiceConformanceHarness.supportedBehaviours))
    func matrixSinkConforms(_ check: SinkConformance) async {
        let outcome = await check.run(on: Self.matrix())
        #expect(outcome.failures.isEmpty, "\(outcome)")
    }

    @Test func everyCheckApplies() {
        #expect(SinkConformance.applicable(to: ServiceConformanceHarness.supportedBehaviours) == SinkConformance.allCases)
    }
}
