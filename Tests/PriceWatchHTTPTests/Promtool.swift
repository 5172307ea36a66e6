import Foundation
import PriceWatchTestKit

/// `promtool check metrics` (Debian's prometheus package) over an exposition text.
enum Promtool {
    static let path = "/usr/bin/promtool"

    static func checkMetrics(_ text: String) async throws -> (status: Int32, output: String) {
        try await offPool { try run(text) }
    }

    private static func run(_ text: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["check", "metrics"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
