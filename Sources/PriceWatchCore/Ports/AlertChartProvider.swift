/// Draws a picture of an alert for sinks that can show one (`chart = true` on an email sink):
/// the symbol's recent prices with the rule's threshold and the alert marked.
///
/// The contract:
///
/// - ``chart(for:)`` answers a PNG attachment, or nil when there is nothing to draw (too little
///   history, no renderer): the sink then sends the alert without a picture, never fails it.
/// - It never throws and never blocks the cooperative pool (drawing runs off it).
public protocol AlertChartProvider: Sendable {
    func chart(for alert: Alert) async -> NotificationAttachment?
}
