import Dispatch
import PriceWatchCore
import PriceWatchPresentation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `stdout` sink: one line per alert on standard output, human-readable text or, with
/// `format = "json"`, JSON Lines (the format of `pricewatch backtest --format json`).
///
/// Lines are written in order from one serial queue of the sink's own, never from the Swift
/// cooperative pool: `write(2)` blocks while a reader (the journal, a pipe) is slow. Under
/// systemd standard output goes to the journal.
public struct StdoutSink: NotificationSink {
    /// The two output forms.
    public enum Format: String, Sendable {
        case text, json
    }

    /// Where every stdout sink writes: one thread at a time, lines in order.
    private static let writer = DispatchQueue(label: "pricewatch.stdout-sink")

    public let identity: String
    public let format: Format
    private let writeLine: @Sendable (String) throws(SinkError) -> Void

    /// A sink writing to the process's standard output.
    public init(name: String, format: Format) {
        self.init(name: name, format: format, write: StdoutSink.writeToStandardOutput)
    }

    /// A sink writing lines through `write` (tests).
    public init(name: String, format: Format, write: @escaping @Sendable (String) throws(SinkError) -> Void) {
        self.identity = "stdout/\(name)"
        self.format = format
        self.writeLine = write
    }

    public func deliver(_ alert: Alert) async throws(SinkError) {
        let line: String
        switch format {
        case .text: line = "ALERT \(AlertRendering.textLine(alert)) [\(alert.id)] \(alert.message)"
        case .json: line = AlertRendering.jsonLine(alert)
        }
        try await emit(line)
    }

    /// An alert-shaped notification as an alert; any other kind as one line: text
    /// `DIGEST TIME [ID] Title: text`, or a JSON object with `kind` (``NotificationRendering``).
    public func deliver(_ notification: OutgoingNotification) async throws(SinkError) {
        switch notification.content {
        case .alert(let alert):
            try await deliver(alert)
        case .message(let message):
            switch format {
            case .text: try await emit(NotificationRendering.textLine(notification, message))
            case .json: try await emit(NotificationRendering.jsonLine(notification, message))
            }
        }
    }

    private func emit(_ line: String) async throws(SinkError) {
        let writeLine = self.writeLine
        let result: Result<Void, SinkError> = await withCheckedContinuation { continuation in
            StdoutSink.writer.async {
                do throws(SinkError) {
                    try writeLine(line)
                    continuation.resume(returning: .success(()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        try result.get()
    }

    @Sendable
    static func writeToStandardOutput(_ line: String) throws(SinkError) {
        var bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                write(STDOUT_FILENO, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw SinkError(retryable: true, "standard output: write failed (errno \(errno))")
            }
            offset += written
        }
    }
}
