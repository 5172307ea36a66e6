import CSystemd
import PriceWatchCore
import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A swift-log `LogHandler` that writes structured entries to the systemd journal with
/// `sd_journal_sendv(3)`.
///
/// Each entry has `MESSAGE`, `PRIORITY` (syslog's: trace and debug 7, info 6, notice 5,
/// warning 4, error 3, critical 2), `SYSLOG_IDENTIFIER`, `CODE_FILE`, `CODE_LINE`,
/// `CODE_FUNC`, every metadata item as a `PRICEWATCH_*` field (``JournalFieldName``), and a
/// `MESSAGE_ID` when the metadata names an ``OperatorEvent``. Values go over as
/// length-delimited fields, so newlines and any other bytes arrive intact.
///
/// The send is a `sendmsg(2)` on the caller's thread, as a write to standard error would be:
/// it normally returns at once, and it blocks only while journald's socket buffer is full
/// (journald is then the bottleneck for any logger); with the check for the socket that
/// precedes it, that is two system calls per entry. When the journal cannot be reached
/// (no socket, journald stopped) the entry goes to standard error as a plain line instead, so
/// nothing is lost; the first such fallback says so once.
public struct JournalLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadataProvider: Logger.MetadataProvider?
    public var metadata: Logger.Metadata = [:]
    public let label: String
    /// `SYSLOG_IDENTIFIER`: what `journalctl -t` selects and what each line is prefixed with.
    public let identifier: String

    private static let reportedFallback = Atomic<Bool>(false)

    public init(label: String, identifier: String = "pricewatch",
                metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider) {
        self.label = label
        self.identifier = identifier
        self.metadataProvider = metadataProvider
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        // sd_journal_sendv reports success when the socket is missing (it drops the entry
        // "silently if the journal is not available"), so look for the socket first.
        let result = Self.journalSocketExists() ? Self.send(fields(for: event)) : -ENOENT
        guard result < 0 else { return }
        if !Self.reportedFallback.exchange(true, ordering: .relaxed) {
            let reason = String(cString: strerror(-result))
            let notice = Array("\(identifier): cannot write to the journal (\(reason)); logging to standard error instead\n".utf8)
            _ = notice.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        }
        var fallback = StandardErrorLogHandler(label: label, metadataProvider: metadataProvider)
        fallback.logLevel = logLevel
        fallback.metadata = metadata
        fallback.log(event: event)
    }

    /// The journal fields of `event`, each `NAME=value`.
    func fields(for event: LogEvent) -> [String] {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let explicit = event.metadata { merged.merge(explicit) { $1 } }
        if let error = event.error {
            merged["error.message"] = "\(error)"
            merged["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        var fields = [
            "MESSAGE=\(event.message)",
            "PRIORITY=\(Self.priority(event.level))",
            "SYSLOG_IDENTIFIER=\(identifier)",
            "CODE_FILE=\(event.file)",
            "CODE_LINE=\(event.line)",
            "CODE_FUNC=\(event.function)",
        ]
        if case .string(let name)? = merged[OperatorEvent.metadataKey], let known = OperatorEvent(rawValue: name) {
            fields.append("MESSAGE_ID=\(known.messageID)")
        }
        for (key, value) in merged.sorted(by: { $0.key < $1.key }) {
            fields.append("\(JournalFieldName.forMetadataKey(key))=\(value)")
        }
        return fields
    }

    /// journald's native socket; libsystemd sends to this fixed path.
    static let socketPath = "/run/systemd/journal/socket"

    static func journalSocketExists() -> Bool {
        var status = stat()
        return stat(socketPath, &status) == 0 && (status.st_mode & S_IFMT) == S_IFSOCK
    }

    /// The syslog priority of a swift-log level.
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// Sends one entry; `sd_journal_sendv`'s result (negative errno on failure).
    static func send(_ fields: [String]) -> Int32 {
        var bytes: [UInt8] = []
        var spans: [(offset: Int, count: Int)] = []
        for field in fields {
            let start = bytes.count
            bytes.append(contentsOf: field.utf8)
            spans.append((start, bytes.count - start))
        }
        return bytes.withUnsafeMutableBytes { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -EINVAL }
            let vectors = spans.map { iovec(iov_base: base + $0.offset, iov_len: $0.count) }
            return sd_journal_sendv(vectors, Int32(vectors.count))
        }
    }
}
