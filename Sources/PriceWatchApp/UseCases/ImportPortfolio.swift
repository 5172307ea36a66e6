import FoundationEssentials
import PriceWatchConfig
import PriceWatchCore

/// `pricewatch portfolio import NAME FILE`: a Ghostfolio activities CSV written as
/// `portfolios.d/NAME.toml` beside the main file (mode 0640, the directory 0750), then read
/// back with the checks of `pricewatch check`.
public enum ImportPortfolio {
    public enum Outcome: Sendable {
        /// Written: the path, and the rows skipped with why.
        case written(path: String, lots: Int, notes: [String])
        case failed(String)
    }

    public static func run(configPath: String, name: String, file: String, currency: String?, replace: Bool) -> Outcome {
        let allowed = name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-") }
        guard !name.isEmpty, allowed, name.first != "-", name.first != "_" else {
            return .failed("expected a portfolio name of letters, digits, '_' and '-', found \"\(name)\"")
        }
        let text: String
        do {
            text = try String(contentsOfFile: file, encoding: .utf8)
        } catch {
            return .failed("cannot read \(file): \(error.localizedDescription)")
        }
        let result: GhostfolioImport.Result
        do {
            result = try GhostfolioImport.read(text, name: name, currency: currency)
        } catch {
            return .failed("\(file): \(error.description)")
        }
        let directory = PortfolioReader.directory(mainFile: configPath)
        let path = directory + "/" + name + ".toml"
        if FileManager.default.fileExists(atPath: path) && !replace {
            return .failed("\(path) exists; give --replace to overwrite it")
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o750])
            let temporary = path + ".tmp"
            guard FileManager.default.createFile(atPath: temporary, contents: Data(GhostfolioImport.toml(result.portfolio, source: file).utf8),
                                                 attributes: [.posixPermissions: 0o640]) else {
                return .failed("cannot write \(temporary)")
            }
            if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
            try FileManager.default.moveItem(atPath: temporary, toPath: path)
        } catch {
            return .failed("cannot write \(path): \(error.localizedDescription)")
        }
        let (_, diagnostics) = PortfolioReader.load(mainFile: configPath)
        if let problem = diagnostics.first(where: { $0.severity == .error && $0.description.contains(name + ".toml") }) {
            return .failed("the written file has an error: \(problem)")
        }
        return .written(path: path, lots: result.portfolio.lots.count, notes: result.notes)
    }
}
