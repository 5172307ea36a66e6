import PriceWatchCore
@testable import PriceWatchHTTP
import PriceWatchTestKit
import Testing
import Foundation

/// Issue 29, item 5: the body of `POST /api/silences` read strictly. A NUL in an id was
/// accepted and the id stored cut at it (`a-cross`); a comment was cut at a NUL; a member given
/// twice was accepted (the first won).
@Suite struct SilenceRequestTests {
    let now = Timestamp(milliseconds: 1_727_875_800_000)

    func refusal(_ body: String) -> String? {
        do {
            _ = try SilenceRequest(body: Array(body.utf8), now: now)
            return nil
        } catch {
            return error.description
        }
    }

    @Test(arguments: [
        (#"{"rule":"a-cross\u0000evil","for":"1h"}"#, "rule: "),
        (#"{"symbol":"AAPL\r\nX: y","for":"1h"}"#, "symbol: "),
        (#"{"rule":"a\u001b[2J","for":"1h"}"#, "rule: "),
        (#"{"rule":"a-cross","for":"1h","comment":"deploy\u0000hidden"}"#, "comment: "),
    ])
    func controlCharactersAreRefusedNamingTheMember(body: String, member: String) throws {
        let message = try #require(refusal(body), "\(body) was accepted")
        #expect(message.hasPrefix(member), "\(message)")
        #expect(message.contains("control character"), "\(message)")
        #expect(!ControlCharacters.contains(message), "the message itself is escaped: \(message)")
    }

    @Test(arguments: [
        #"{"rule":"a-cross","rule":"b-cross","for":"1h"}"#,
        #"{"rule":"a-cross","for":"1h","for":"30d"}"#,
        #"{"rule":"a-cross","ru\u006ce":"b","for":"1h"}"#,
    ])
    func aMemberGivenTwiceIsRefused(body: String) throws {
        let message = try #require(refusal(body), "\(body) was accepted")
        #expect(message.contains("more than once"), "\(message)")
    }

    @Test func aPlainBodyIsAccepted() throws {
        let request = try SilenceRequest(body: Array(#"{"rule":"a-cross","for":"1h","comment":"deploy \"v2\" {x}"}"#.utf8), now: now)
        #expect(request.target == .rule("a-cross"))
        #expect(request.comment == #"deploy "v2" {x}"#)
    }

    /// `silences` fuzz finding: an unknown member whose name holds a C1 control (U+0096) was
    /// quoted raw in the refusal. Every refusal is one line now.
    @Test func aRefusalQuotingTheBodyIsOneLine() throws {
        let body = Array(try Data(contentsOf: URL(fileURLWithPath: RepositoryFiles.path("Tests/Fixtures/fuzz/silences/unknown-member-with-c1-control.json"))))
        do {
            _ = try SilenceRequest(body: body, now: now)
            Issue.record("the body was accepted")
        } catch {
            #expect(error.description.contains("unknown member"), "\(error.description)")
            #expect(!ControlCharacters.contains(error.description), "\(error.description)")
        }
    }
}
