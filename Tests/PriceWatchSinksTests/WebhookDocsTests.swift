import Foundation
import PriceWatchSinks
import PriceWatchTestKit
import Testing

/// The example payload of `docs/configuration.md` is what the sink sends (the documentation
/// cannot rot).
@Suite struct WebhookDocsTests {
    @Test func documentedExampleIsTheRealPayload() throws {
        let page = try String(contentsOfFile: RepositoryFiles.path("docs/configuration.md"), encoding: .utf8)
        let example = try #require(page.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix(#"{"version":1,"type":"alert.fired""#) })
        var alert = WebhookFixtures.fall
        alert.message = "AAPL 219.42 USD: fall 3% from previous close (rule aapl-drop)"
        #expect(example == WebhookPayload.json(for: alert))
    }
}
