import Foundation
import PriceWatchSinks
import PriceWatchTestKit
import Testing

/// The README's example payload is what the sink sends (the documentation cannot rot).
@Suite struct WebhookReadmeTests {
    @Test func readmeExampleIsTheRealPayload() throws {
        let readme = try String(contentsOfFile: RepositoryFiles.path("README.md"), encoding: .utf8)
        let example = try #require(readme.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix(#"{"version":1,"type":"alert.fired""#) })
        var alert = WebhookFixtures.fall
        alert.message = "AAPL 219.42 USD: fall 3% from previous close (rule aapl-drop)"
        #expect(example == WebhookPayload.json(for: alert))
    }
}
