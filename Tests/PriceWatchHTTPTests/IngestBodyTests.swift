import PriceWatchCore
@testable import PriceWatchHTTP
import Testing

/// The relay's body checks (``IngestBody``) and the message it becomes (``ExternalMessage``):
/// JSON kept as JSON, text with its control characters escaped, and one id for a retry.
@Suite struct IngestBodyTests {
    @Test func jsonIsKeptAsJSONAndTextAsText() throws {
        let declared = try IngestBody(bytes: Array(#"{"a":1}"#.utf8), contentType: "application/json; charset=utf-8")
        #expect(declared.isJSON && declared.text == #"{"a":1}"#)
        let sniffed = try IngestBody(bytes: Array(#"[1, "x"]"#.utf8), contentType: "text/plain")
        #expect(sniffed.isJSON)
        let braces = try IngestBody(bytes: Array("{not json} but text".utf8), contentType: "text/plain")
        #expect(!braces.isJSON)
        let text = try IngestBody(bytes: Array("AAPL crossed 190".utf8), contentType: nil)
        #expect(!text.isJSON)
    }

    @Test func badBodiesAreRefusedSayingWhy() {
        #expect(throws: IngestBody.Invalid.self) { try IngestBody(bytes: [0x41, 0xFF, 0x42], contentType: nil) }
        #expect(throws: IngestBody.Invalid.self) { try IngestBody(bytes: Array(" \n".utf8), contentType: nil) }
        do {
            _ = try IngestBody(bytes: Array("{oops".utf8), contentType: "application/json")
            Issue.record("declared JSON that is not JSON was accepted")
        } catch {
            #expect(error.description.contains("expected a JSON document, found \"{oops\""), "\(error)")
        }
        #expect(throws: IngestBody.Invalid.self) { try IngestBody.idempotencyKey("a\nb") }
        #expect(throws: IngestBody.Invalid.self) { try IngestBody.idempotencyKey(String(repeating: "k", count: 201)) }
        #expect((try? IngestBody.idempotencyKey("k-1")) == "k-1")
    }

    @Test func aTextMessageKeepsItsLinesAndEscapesOtherControls() {
        let message = ExternalMessage(route: "tradingview", title: "TV", body: "one\r\ntwo \u{1B}[31m\u{0}", isJSON: false).message()
        #expect(message.text == "one\ntwo \\u{1b}[31m\\u{0}")
        #expect(message.data == nil && message.title == "TV")
        let json = ExternalMessage(route: "tradingview", title: "TV", body: #"{"a":"\u001b"}"#, isJSON: true).message()
        #expect(json.data == #"{"a":"\u001b"}"# && json.text == #"{"a":"\u001b"}"#)
    }

    @Test func aRetryWithinTheMinuteOrWithTheSameKeyHasTheSameID() {
        let at = Timestamp(milliseconds: 1_727_875_800_000)
        let id = { (body: String, ms: Int64, key: String?) in
            ExternalMessage.notificationID(route: "tradingview", body: body, receivedAt: Timestamp(milliseconds: ms), idempotencyKey: key)
        }
        #expect(id("x", at.milliseconds, nil) == id("x", at.milliseconds + 59_999, nil))
        #expect(id("x", at.milliseconds, nil) != id("x", at.milliseconds + 60_000, nil))
        #expect(id("x", at.milliseconds, nil) != id("y", at.milliseconds, nil))
        #expect(id("x", at.milliseconds, "k") == id("y", at.milliseconds + 600_000, "k"))
        #expect(id("x", at.milliseconds, "k") != id("x", at.milliseconds, nil))
    }
}
