/// Paths of files in this repository, for tests (the package root is found from this file's
/// own path, so tests work from any working directory and never read outside the repository).
public enum RepositoryFiles {
    /// The package root: the directory holding `Package.swift`.
    public static let root: String = {
        var components = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3) // Tests/PriceWatchTestKit/RepositoryFiles.swift
        return components.joined(separator: "/")
    }()

    /// A path relative to the package root.
    public static func path(_ relative: String) -> String { root + "/" + relative }
}
