import ArgumentParser
import Foundation
import PriceWatchCore
import PriceWatchApp

/// Buffered writes to standard output and error; commands print through these so large
/// outputs (a backtest with many alerts) are not one system call per line.
struct StandardOutput {
    private var buffer: [UInt8] = []
    private let handle: FileHandle

    static func output() -> StandardOutput { StandardOutput(handle: .standardOutput) }
    static func error() -> StandardOutput { StandardOutput(handle: .standardError) }

    private init(handle: FileHandle) { self.handle = handle }

    /// The secrets of the configuration the command loaded, removed from every line either
    /// stream prints.
    static var redaction: SecretRedaction { SecretRedaction.commandOutput }

    mutating func line(_ text: String) {
        buffer.append(contentsOf: Self.redaction.redact(text).utf8)
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        guard !buffer.isEmpty else { return }
        handle.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }

    /// Prints diagnostics, one per line, to standard error.
    static func report(_ diagnostics: [Diagnostic]) {
        var stream = StandardOutput.error()
        for diagnostic in diagnostics { stream.line(diagnostic.description) }
        stream.flush()
    }

    /// Prints `line` to standard error; the exit status 1, for the command to throw.
    static func failure(_ line: String) -> ExitCode {
        var stream = StandardOutput.error()
        stream.line(line)
        stream.flush()
        return ExitCode(1)
    }
}
