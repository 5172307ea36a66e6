import Logging
import PriceWatchCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A swift-log `LogHandler` that writes plain lines to standard error, timestamped in RFC 3339
/// UTC like every other time the program prints:
///
///     2024-10-02T14:31:00Z info pricewatch: event=alert-fired rule=aapl-200 [PriceWatchEngine] alert fired
///
/// The layout is swift-log's `StreamLogHandler`'s (level, label, metadata sorted by key, the
/// source in brackets, the message); only the time differs: `StreamLogHandler` writes local
/// time with a numeric offset (`2024-10-02T16:31:00+0200`), which no other output of
/// pricewatch uses. Each line goes out in one `write(2)`, so lines of concurrent tasks never
/// interleave within a line.
public struct StandardErrorLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadataProvider: Logger.MetadataProvider?
    public var metadata: Logger.Metadata = [:]
    public let label: String

    public init(label: String, metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider) {
        self.label = label
        self.metadataProvider = metadataProvider
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let text = Self.line(for: event, label: label, metadata: effectiveMetadata(event), at: Self.now())
        var bytes = Array(text.utf8)
        bytes.append(UInt8(ascii: "\n"))
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                write(STDERR_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }

    /// The line for `event`, without its newline: pure, for tests.
    public static func line(for event: LogEvent, label: String, metadata: Logger.Metadata, at time: Timestamp) -> String {
        var text = "\(time.rfc3339) \(event.level)"
        if !label.isEmpty { text += " \(label)" }
        text += ":"
        if !metadata.isEmpty {
            text += " " + metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
        return text + " [\(event.source)] \(event.message)"
    }

    private func effectiveMetadata(_ event: LogEvent) -> Logger.Metadata {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let explicit = event.metadata { merged.merge(explicit) { $1 } }
        if let error = event.error {
            merged["error.message"] = "\(error)"
            merged["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        return merged
    }

    /// The wall clock, to the second (a log line's time; whole seconds as `StreamLogHandler`).
    private static func now() -> Timestamp {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Timestamp(seconds: Int64(spec.tv_sec))
    }
}
