import FoundationEssentials
import PriceWatchCore

/// The `email` sink: each alert as a MIME email (text and HTML) submitted over SMTP through
/// the core's ``MailTransport``; or, through ``deliver(_:)-([Alert])``, one email listing a
/// group of alerts.
///
/// Errors follow the transport's classification (connection failures, timeouts, TLS failures
/// and 4xx replies are retryable; 5xx replies such as a rejected recipient or failed
/// authentication are permanent), start with the sink's identity and never contain the
/// password. An alert whose fields could break a header is refused permanently.
public struct EmailSink: NotificationSink {
    public let identity: String
    public let settings: EmailSettings
    private let transport: any MailTransport
    private let now: @Sendable () -> Timestamp
    private let charts: (any AlertChartProvider)?

    /// - Parameters:
    ///   - now: the wall clock, read once per message for its `Date` header.
    ///   - charts: draws a chart for single-alert emails (`chart = true`); nil: none.
    public init(name: String, settings: EmailSettings, transport: any MailTransport,
                now: @escaping @Sendable () -> Timestamp, charts: (any AlertChartProvider)? = nil) {
        self.identity = "email/\(name)"
        self.settings = settings
        self.transport = transport
        self.now = now
        self.charts = charts
    }

    public func deliver(_ alert: Alert) async throws(SinkError) {
        try await deliver([alert])
    }

    /// One email per notification: an alert-shaped one as an alert email; another kind with
    /// its title as the subject, its text and HTML as the two parts, and its attachments
    /// (``MailMessage/init(from:to:notification:message:date:)``).
    public func deliver(_ notification: OutgoingNotification) async throws(SinkError) {
        switch notification.content {
        case .alert(let alert):
            try await deliver([alert])
        case .message(let message):
            let mail: MailMessage
            do {
                mail = try MailMessage(from: settings.from, to: settings.to, notification: notification, message: message, date: now())
            } catch {
                throw SinkError(retryable: false, "\(identity): \(error.description)")
            }
            try await submit(mail)
        }
    }

    /// Delivers one email listing every alert of `alerts` (a group the dispatcher collected);
    /// it succeeds or fails as a whole.
    public func deliver(_ alerts: [Alert]) async throws(SinkError) {
        if alerts.count == 1, let alert = alerts.first, let charts, let chart = await charts.chart(for: alert) {
            try await submit(try message(for: alert, chart: chart, date: now()))
            return
        }
        try await submit(try message(for: alerts, date: now()))
    }

    /// A single alert's email with `chart` inline: the same subject and plain text as without
    /// it, the HTML with the picture after the alert, all in `multipart/related`.
    public func message(for alert: Alert, chart: NotificationAttachment, date: Timestamp) throws(SinkError) -> MailMessage {
        do {
            let subject = try MailMessage.subject(for: [alert], template: settings.subject)
            let html = AlertMailBody.html([alert], title: subject).replacingOccurrences(
                of: "</body>", with: "<p><img src=\"\(chart.inlineReference)\" width=\"600\" alt=\"\(AlertMailBody.escape(alert.symbol)) chart\" "
                    + "style=\"display:block;max-width:100%;height:auto;border:0\"></p>\n</body>")
            let message = NotificationMessage(title: subject, text: AlertMailBody.text([alert]), html: html, attachments: [chart])
            return try MailMessage(from: settings.from, to: settings.to, notification: OutgoingNotification(alert), message: message, date: date)
        } catch {
            throw SinkError(retryable: false, "\(identity): \(error.description)")
        }
    }

    private func submit(_ message: MailMessage) async throws(SinkError) {
        let submission = MailSubmission(
            url: settings.url, security: settings.security, envelopeFrom: settings.from.address,
            recipients: settings.to.map(\.address), message: message.bytes, username: settings.username,
            password: settings.password, timeout: settings.timeout, caFile: settings.caFile)
        if let problem = submission.problem {
            throw SinkError(retryable: false, "\(identity): \(redacted(problem))")
        }
        do {
            try await transport.send(submission)
        } catch {
            throw SinkError(retryable: error.isRetryable, "\(identity): \(redacted(error.message))")
        }
    }

    /// The message ``deliver(_:)-([Alert])`` sends for `alerts` at `date`.
    public func message(for alerts: [Alert], date: Timestamp) throws(SinkError) -> MailMessage {
        do {
            return try MailMessage(from: settings.from, to: settings.to, alerts: alerts, date: date,
                                   subjectTemplate: settings.subject)
        } catch {
            throw SinkError(retryable: false, "\(identity): \(error.description)")
        }
    }

    /// `text` with the password blanked out: a second guard behind the transport's own.
    private func redacted(_ text: String) -> String {
        guard let password = settings.password?.value, !password.isEmpty else { return text }
        return text.replacing(password, with: "<secret>")
    }
}
