import PriceWatchCore
import PriceWatchSinks
import Testing

/// Every format's body and headers, exactly (docs/configuration.md documents these).
@Suite struct WebhookPayloadTests {
    @Test func jsonPayloadCarriesEveryFieldInPlainDecimals() {
        #expect(WebhookPayload.json(for: WebhookFixtures.fall) == #"""
            {"version":1,"type":"alert.fired","id":"5f0c6a0e3d1b4b1e9a7c2d4e6f8a0b1c","rule":"aapl-drop","symbol":"AAPL","condition":"fall 3% from previous close","direction":null,"price":219.42,"currency":"USD","time":"2024-10-02T14:31:00Z","base":226.21,"change":-3.0016,"provider":"yahoo","message":"AAPL fell 3.00% to 219.42 € <now> & \"more\"\nsecond line"}
            """#)
    }

    @Test(arguments: WebhookFormat.allCases)
    func everyFormatMatchesItsGolden(format: WebhookFormat) {
        let content = format.content(for: WebhookFixtures.fall)
        #expect(String(decoding: content.body, as: UTF8.self) == WebhookFixtures.fallBodies[format])
        #expect(content.headers == WebhookFixtures.fallHeaders[format])
    }

    @Test func jsonPayloadWritesUnknownValuesAsNull() {
        #expect(WebhookPayload.json(for: WebhookFixtures.crossing) == #"""
            {"version":1,"type":"alert.fired","id":"00000000000000000000000000000abc","rule":"btc-100k","symbol":"BTC-USD","condition":"crosses 100000","direction":"up","price":100000.5,"currency":null,"time":"2024-12-05T00:00:00Z","base":null,"change":null,"provider":null,"message":"BTC-USD 100000.50: crosses 100000 (up) (rule btc-100k)"}
            """#)
    }

    @Test func jsonFormatSendsApplicationJSON() {
        let content = WebhookFormat.json.content(for: WebhookFixtures.fall)
        #expect(content.headers == [HTTPHeader("Content-Type", "application/json")])
        #expect(content.body == Array(WebhookPayload.json(for: WebhookFixtures.fall).utf8))
    }

    @Test func slackEscapesItsControlCharacters() {
        #expect(SlackPayload.json(for: WebhookFixtures.fall) == #"""
            {"text":"AAPL fell 3.00% to 219.42 € &lt;now&gt; &amp; \"more\"\nsecond line"}
            """#)
        let content = WebhookFormat.slack.content(for: WebhookFixtures.fall)
        #expect(content.headers == [HTTPHeader("Content-Type", "application/json")])
    }

    @Test func discordSendsContentWithoutMentions() {
        #expect(DiscordPayload.json(for: WebhookFixtures.crossing) == #"""
            {"content":"BTC-USD 100000.50: crosses 100000 (up) (rule btc-100k)","allowed_mentions":{"parse":[]}}
            """#)
    }

    @Test func discordCutsLongMessagesToTwoThousandCharacters() {
        var alert = WebhookFixtures.crossing
        alert.message = String(repeating: "a", count: 1998) + "€€€"
        #expect(DiscordPayload.json(for: alert) == "{\"content\":\"" + String(repeating: "a", count: 1998) + "€…\",\"allowed_mentions\":{\"parse\":[]}}")
        alert.message = String(repeating: "é", count: 2000)
        #expect(DiscordPayload.json(for: alert).contains("…") == false)
        // A character of two UTF-16 units is never split.
        alert.message = String(repeating: "b", count: 1998) + "😀😀"
        #expect(DiscordPayload.json(for: alert) == "{\"content\":\"" + String(repeating: "b", count: 1998) + "…\",\"allowed_mentions\":{\"parse\":[]}}")
    }

    @Test func ntfySendsTheMessageAsTextWithTitleTagsAndPriority() {
        let content = WebhookFormat.ntfy.content(for: WebhookFixtures.fall)
        #expect(content.body == Array(WebhookFixtures.fall.message.utf8))
        #expect(content.headers == [
            HTTPHeader("Content-Type", "text/plain; charset=utf-8"),
            HTTPHeader("Title", "AAPL fall 3% from previous close"),
            HTTPHeader("Tags", "chart_with_downwards_trend,aapl-drop"),
            HTTPHeader("Priority", "high"),
        ])
        let crossing = WebhookFormat.ntfy.content(for: WebhookFixtures.crossing)
        #expect(crossing.headers[1] == HTTPHeader("Title", "BTC-USD crosses 100000 (up)"))
        #expect(crossing.headers[2] == HTTPHeader("Tags", "chart_with_upwards_trend,btc-100k"))
    }

    @Test func ntfyEncodesATitleOutsideASCIIPerRFC2047() {
        var alert = WebhookFixtures.crossing
        alert.symbol = "DAX€"
        let title = WebhookFormat.ntfy.content(for: alert).headers[1]
        // base64("DAX€ crosses 100000 (up)")
        #expect(title == HTTPHeader("Title", "=?UTF-8?B?REFY4oKsIGNyb3NzZXMgMTAwMDAwICh1cCk=?="))
    }
}
