import PriceWatchConfig
import PriceWatchCore

/// `pricewatch notify-test SINK`: a test alert through one configured sink, directly (not
/// through the outbox), once, without retries; nothing is recorded.
public enum SendTestNotification {
    /// What happened.
    public enum Outcome: Sendable {
        /// The configuration has errors (in the diagnostics), or this sink could not be built.
        case configurationFailed
        /// No sink of that name; the names there are.
        case unknownSink(known: [String])
        /// The sink refused or failed.
        case failed(identity: String, error: SinkError)
        /// Sent through the sink `identity` (`kind/name`).
        case sent(identity: String, alert: Alert)
    }

    /// Sends the test alert through the sink named `sink`. `report` gets the diagnostics that
    /// matter: the configuration's on failure, the sink's own when it is built.
    public static func send(configPath: String, environment: [String: String], sink: String, now: Timestamp,
                            report: ([Diagnostic]) -> Void) async -> Outcome {
        let (loaded, diagnostics) = ConfigurationLoader.load(mainFile: configPath, environment: environment, schemas: AdapterCatalog.schemas)
        if let loaded { SecretRedaction.commandOutput.update(for: loaded) }
        guard let configuration = loaded, !diagnostics.containsErrors else {
            report(diagnostics)
            return .configurationFailed
        }
        guard let settings = configuration.sink(named: sink) else {
            return .unknownSink(known: configuration.sinks.map(\.name))
        }
        // Build this sink only: another sink's problem is not this test's business.
        var single = configuration
        single.sinks = [settings]
        let transports = NetworkTransports()
        let (sinks, sinkDiagnostics) = AdapterFactory.sinks(for: single, transport: transports.http, mailTransport: transports.mail)
        report(sinkDiagnostics)
        guard let target = sinks[settings.name], !sinkDiagnostics.containsErrors else { return .configurationFailed }
        let alert = testAlert(through: target.identity, now: now)
        do {
            // The sinks' notification path, as the outbox uses it: kind `test`, carrying the
            // labelled alert, so the receiver sees exactly what a real alert looks like.
            try await target.deliver(OutgoingNotification(id: alert.id, kind: .test, time: alert.time, content: .alert(alert)))
        } catch {
            return .failed(identity: target.identity, error: error)
        }
        return .sent(identity: target.identity, alert: alert)
    }

    /// A clearly labelled alert with a fresh id (the id of rule `notify-test` at `now`).
    public static func testAlert(through identity: String, now: Timestamp) -> Alert {
        Alert(id: AlertID.make(rule: "notify-test", fingerprint: identity, symbol: "TEST", time: now),
              rule: "notify-test", symbol: "TEST", provider: nil, condition: "test notification",
              price: ExactDecimal(scaled: 100_000_000), currency: nil, time: now, base: nil, change: nil,
              direction: nil,
              message: "pricewatch test notification through \(identity): if you can read this, the sink works")
    }
}
