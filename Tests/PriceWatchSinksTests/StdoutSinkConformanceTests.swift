import Foundation
import PriceWatchCore
import PriceWatchSinks
import PriceWatchTestKit
import Synchronization
import Testing

/// The stdout sink through the shared conformance suite, where it applies: a healthy
/// receiver (standard output cannot refuse, hang or be unreachable in a way the sink decides).
@Suite struct StdoutSinkConformanceTests {
    /// Standard output captured by the sink's line writer, read back as the JSON Lines it is.
    final class Harness: SinkConformanceHarness {
        static let supportedBehaviours: Set<SinkReceiverBehaviour.Kind> = [.healthy]
        let secrets: [String] = []
        private let lines = Mutex<[String]>([])

        func makeSink(_ behaviour: SinkReceiverBehaviour, timeout: Duration) async throws -> any NotificationSink {
            StdoutSink(name: "console", format: .json) { [self] line throws(SinkError) in self.lines.withLock { $0.append(line) } }
        }

        func waitUntilReceiving() async {}

        func receivedAlertIDs() async -> [String] {
            lines.withLock { $0 }.compactMap { line in
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                return object?["id"] as? String
            }
        }

        func logLines() async -> [String] { [] }
    }

    @Test(arguments: SinkConformance.applicable(to: Harness.supportedBehaviours))
    func stdoutSinkConforms(_ check: SinkConformance) async {
        let outcome = await check.run(on: Harness())
        #expect(outcome.failures.isEmpty, "\(outcome)")
    }
}
