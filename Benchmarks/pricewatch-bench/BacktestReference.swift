import Foundation
import PriceWatchConfig
import PriceWatchCore
import PriceWatchPresentation
import PriceWatchProviders

/// `pricewatch-bench backtest-reference RULES CSV`: the backtest the simple way, as the
/// reference the streaming `pricewatch backtest` is checked against: the whole series read
/// into memory, sorted, run through ``Backtester``, alerts printed as JSON Lines.
enum BacktestReference {
    static func run(rules path: String, data: String) -> Int32 {
        let (rules, ruleDiagnostics) = ConfigurationLoader.loadRules(at: path)
        let (series, dataDiagnostics) = PriceSeriesFile.read(path: data)
        guard let rules, let series, !(ruleDiagnostics + dataDiagnostics).containsErrors else {
            FileHandle.standardError.write(Data("\(ruleDiagnostics + dataDiagnostics)\n".utf8))
            return 1
        }
        var buffer: [UInt8] = []
        let summary = Backtester.run(rules: rules, series: series) { alert in
            buffer.append(contentsOf: AlertRendering.jsonLine(alert).utf8)
            buffer.append(UInt8(ascii: "\n"))
            if buffer.count >= 1 << 16 {
                FileHandle.standardOutput.write(Data(buffer))
                buffer.removeAll(keepingCapacity: true)
            }
        }
        FileHandle.standardOutput.write(Data(buffer))
        FileHandle.standardError.write(Data("reference: \(summary.rows) rows, \(summary.evaluations) evaluations, \(summary.alerts) alerts\n".utf8))
        return 0
    }
}
