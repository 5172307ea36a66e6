#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import PriceWatchConfig
import PriceWatchCore
import PriceWatchPresentation

/// `pricewatch portfolio import NAME FILE`: a Ghostfolio activities CSV written as
/// `portfolios.d/NAME.toml` beside the main file (mode 0640, the directory 0750): first to
/// `NAME.toml.tmp`, read back with the checks of `pricewatch check`, and renamed into place only
/// when it has no error, so a failed import leaves the old file untouched.
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
        // Bounded before it is read: a 50 MB symbol or a FIFO must not be read whole or forever.
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file) else {
            return .failed("cannot read \(ControlCharacters.escaped(file)): no such file or no permission")
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            return .failed("cannot read \(ControlCharacters.escaped(file)): expected a regular file")
        }
        let size = (attributes[.size] as? Int) ?? (attributes[.size] as? UInt64).map { Int(clamping: $0) } ?? 0
        guard size <= GhostfolioImport.maximumFileBytes else {
            return .failed("\(ControlCharacters.escaped(file)): the file is larger than \(GhostfolioImport.maximumFileBytes) bytes (\(size)); expected a Ghostfolio activities export")
        }
        let text: String
        do {
            text = try String(contentsOfFile: file, encoding: .utf8)
        } catch {
            return .failed("cannot read \(ControlCharacters.escaped(file)): \(error.localizedDescription)")
        }
        let result: GhostfolioImport.Result
        do {
            result = try GhostfolioImport.read(text, name: name, currency: currency)
        } catch {
            return .failed("\(ControlCharacters.escaped(file)): \(error.description)")
        }
        let directory = PortfolioReader.directory(mainFile: configPath)
        let path = directory + "/" + name + ".toml"
        if FileManager.default.fileExists(atPath: path) && !replace {
            return .failed("\(path) exists; give --replace to overwrite it")
        }
        // Written beside under a name the reader skips, checked as `check` would, and renamed
        // over the old file only when good: a failed import leaves the old file as it was.
        let temporary = path + ".tmp"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o750])
            try? FileManager.default.removeItem(atPath: temporary)
            guard FileManager.default.createFile(atPath: temporary, contents: Data(GhostfolioImport.toml(result.portfolio, source: file).utf8),
                                                 attributes: [.posixPermissions: 0o640]) else {
                return .failed("cannot write \(temporary)")
            }
        } catch {
            return .failed("cannot write \(path): \(error.localizedDescription)")
        }
        let problems = PortfolioReader.check(path: temporary, displayPath: path, name: name).filter { $0.severity == .error }
        if let problem = problems.first {
            try? FileManager.default.removeItem(atPath: temporary)
            return .failed("the file it would write has an error, so \(path) is left as it was: \(problem)")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporary)
            return .failed("cannot write \(path): \(reason)")
        }
        return .written(path: path, lots: result.portfolio.lots.count, notes: result.notes)
    }
}
