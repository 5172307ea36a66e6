// swift-tools-version:6.1
import PackageDescription

/// Coverage-guided fuzz targets (libFuzzer through `swiftc -sanitize=fuzzer`) for everything
/// that reads outside input: the backtest CSV reader, the configuration loader, every provider
/// decoder, the calendar reader and the body of `POST /api/silences` (`fuzz-silences` links the
/// one file `SilenceRequest.swift` of PriceWatchHTTP, which needs no Hummingbird). A package of its own, so the fuzzing flags never reach the product build:
/// `Sources/PriceWatchCore`, `PriceWatchTOML`, `PriceWatchConfig`, `PriceWatchProviders` and `CLibXML2` here are links
/// to the main package's sources, compiled (and the Swift ones instrumented) again. libxml2 itself, which
/// `fuzz-yahoo-news` reaches through CLibXML2's dlopen, is the system's, not instrumented. Build and run with `scripts/fuzz`;
/// see docs/development.md#fuzzing.
let fuzzTargets = ["csv", "config", "yahoo", "yahoo-news", "finnhub", "twelvedata", "coinbase", "binance", "kraken", "calendar", "silences",
                   "yahoo-calendar", "nasdaq"]

let package = Package(
    name: "pricewatch-fuzz",
    platforms: [.macOS(.v15)],
    targets: [
        .target(name: "PriceWatchCore"),
        .target(name: "PriceWatchTOML"),
        .target(name: "PriceWatchConfig", dependencies: ["PriceWatchCore", "PriceWatchTOML"]),
        .target(name: "CLibXML2", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "PriceWatchProviders", dependencies: ["PriceWatchCore", "CLibXML2"]),
        // What every target shares: the input as an HTTP response, a scratch directory.
        .target(name: "FuzzSupport", dependencies: ["PriceWatchCore"]),
    ] + fuzzTargets.map { name in
        // `main` hands LLVMFuzzerTestOneInput to libFuzzer's driver (FuzzSupport.runFuzzer).
        .executableTarget(
            name: "fuzz-\(name)",
            dependencies: ["FuzzSupport", "PriceWatchCore", "PriceWatchConfig", "PriceWatchProviders"]
        )
    },
    swiftLanguageModes: [.v6]
)
