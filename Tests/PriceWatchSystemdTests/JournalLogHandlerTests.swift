import Logging
import PriceWatchCore
@testable import PriceWatchSystemd
import Testing

/// What the journal handler sends, field by field (the real journal is in
/// ``JournalIntegrationTests``).
@Suite struct JournalLogHandlerTests {
    @Test(arguments: [
        ("alert_id", "PRICEWATCH_ALERT_ID"),
        ("symbol", "PRICEWATCH_SYMBOL"),
        ("error.message", "PRICEWATCH_ERROR_MESSAGE"),
        ("sl-service", "PRICEWATCH_SL_SERVICE"),
        ("Größe", "PRICEWATCH_GR__E"),
        ("9lives", "PRICEWATCH_9LIVES"),
        ("", "PRICEWATCH_"),
    ])
    func metadataKeysBecomeJournalFieldNames(key: String, field: String) {
        #expect(JournalFieldName.forMetadataKey(key) == field)
    }

    @Test func longKeysAreCutToTheJournalsLimit() {
        let name = JournalFieldName.forMetadataKey(String(repeating: "k", count: 100))
        #expect(name.count == 64)
        #expect(name.allSatisfy { $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == "_") })
    }

    @Test func levelsMapToSyslogPriorities() {
        let priorities = Logger.Level.allCases.map { JournalLogHandler.priority($0) }
        #expect(priorities == [7, 7, 6, 5, 4, 3, 2])
    }

    @Test func everyEventHasItsOwnWellFormedMessageID() {
        let ids = OperatorEvent.allCases.map(\.messageID)
        #expect(Set(ids).count == ids.count)
        for id in ids {
            #expect(id.count == 32 && id.allSatisfy { $0.isHexDigit && !$0.isUppercase }, "\(id)")
        }
    }

    @Test func anEntryCarriesTheMessageTheSourceTheMetadataAndTheEventsID() {
        var handler = JournalLogHandler(label: "pricewatch", metadataProvider: .init { ["trace": "t1"] })
        handler[metadataKey: "provider"] = "yahoo"
        let event = LogEvent(level: .notice, message: "alert fired: AAPL at 201\nsecond line",
                             metadata: ["rule": "aapl-200", "symbol": "AAPL", "event": "\(OperatorEvent.alertFired)"],
                             source: nil, file: "PriceWatchEngine/RuleEvaluator.swift", function: "ingest(provider:)", line: 94)
        let fields = handler.fields(for: event)
        #expect(fields == [
            "MESSAGE=alert fired: AAPL at 201\nsecond line",
            "PRIORITY=5",
            "SYSLOG_IDENTIFIER=pricewatch",
            "CODE_FILE=PriceWatchEngine/RuleEvaluator.swift",
            "CODE_LINE=94",
            "CODE_FUNC=ingest(provider:)",
            "MESSAGE_ID=\(OperatorEvent.alertFired.messageID)",
            "PRICEWATCH_EVENT=alert-fired",
            "PRICEWATCH_PROVIDER=yahoo",
            "PRICEWATCH_RULE=aapl-200",
            "PRICEWATCH_SYMBOL=AAPL",
            "PRICEWATCH_TRACE=t1",
        ])
    }

    @Test func anUnknownEventHasNoMessageIDAndAnErrorBecomesFields() {
        struct Broken: Error, CustomStringConvertible { var description: String { "disk full" } }
        let handler = JournalLogHandler(label: "pricewatch", identifier: "pw-test", metadataProvider: nil)
        let event = LogEvent(level: .error, message: "oops", error: Broken(), metadata: ["event": "something-else"],
                             source: nil, file: "F.swift", function: "f()", line: 1)
        let fields = handler.fields(for: event)
        #expect(!fields.contains { $0.hasPrefix("MESSAGE_ID=") })
        #expect(fields.contains("SYSLOG_IDENTIFIER=pw-test"))
        #expect(fields.contains("PRICEWATCH_EVENT=something-else"))
        #expect(fields.contains("PRICEWATCH_ERROR_MESSAGE=disk full"))
        #expect(fields.contains { $0.hasPrefix("PRICEWATCH_ERROR_TYPE=") && $0.hasSuffix("Broken") })
    }
}
