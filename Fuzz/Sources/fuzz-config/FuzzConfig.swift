import Foundation
import FuzzSupport
import PriceWatchConfig
import PriceWatchCore
import PriceWatchProviders

/// The configuration loader through its public entry points, whatever parses the TOML inside:
/// the input as a rule file (`loadRules(at:)`) and as a main file (`load(mainFile:)`, with the
/// provider types' schemas; sink tables are unknown types here, which is an error path too).
@main
enum FuzzConfigTarget {
    static func main() {
        runFuzzer { data, size in
            guard let data else { return 0 }
            return fuzzConfig(data, size)
        }
    }
}

let schemas = AdapterSchemas(
    providers: [ReplayProvider.kind, YahooProvider.kind, FinnhubProvider.kind, TwelveDataProvider.kind,
                CoinbaseProvider.kind, BinanceProvider.kind, KrakenProvider.kind].map(\.schema),
    sinks: [])

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Data(bytes: data, count: size)
    let rules = fuzzDirectory + "/rules.toml"
    let main = fuzzDirectory + "/pricewatch.toml"
    guard (try? input.write(to: URL(fileURLWithPath: rules))) != nil,
          (try? input.write(to: URL(fileURLWithPath: main))) != nil else { return 0 }
    _ = ConfigurationLoader.loadRules(at: rules)
    _ = ConfigurationLoader.load(mainFile: main, environment: [:], schemas: schemas)
    return 0
}
