import Foundation

/// A fresh directory under the system's temporary directory, removed with everything in it
/// when the value goes away.
final class TemporaryDirectory {
    /// The directory's absolute path.
    let path: String

    init() throws {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("pricewatch-store-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
    }

    /// A path inside the directory.
    func file(_ name: String) -> String { path + "/" + name }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
