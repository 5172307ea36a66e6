import Foundation
import PriceWatchTestKit
import Testing

/// The executable parses arguments and prints: it reaches the rest of pricewatch only through
/// the application's use cases, and prints with the presentation target, so it imports
/// nothing but these (the import check of the build cannot tell, since the application
/// re-exports its dependencies' modules to it).
@Suite struct ExecutableImportsTests {
    static let allowed: Set<String> = ["PriceWatchApp", "PriceWatchCore", "PriceWatchPresentation", "ArgumentParser", "Logging", "Foundation", "FoundationEssentials", "Glibc", "Darwin"]

    @Test func theExecutableImportsOnlyTheApplicationTheCoreAndItsLibraries() throws {
        let directory = RepositoryFiles.path("Sources/pricewatch")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        var offending: [String] = []
        for file in files {
            let text = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") where line.hasPrefix("import ") {
                let module = line.dropFirst("import ".count).trimmingCharacters(in: .whitespaces)
                if !Self.allowed.contains(module) { offending.append("\(file): \(line)") }
            }
        }
        #expect(offending.isEmpty, "the executable imports modules beyond the application's: \(offending)")
    }
}
