// swift-tools-version:6.1
import PackageDescription

/// How the `pricewatch` executable is linked, for a small resident daemon (docs/benchmarks.md,
/// "The idle daemon's memory"; the files are in Sources/pricewatch/Linker):
/// - lld, which can order code and pack relocations (gold, the Swift driver's default on
///   Linux, cannot);
/// - no exported symbols (`exports.map`);
/// - relative relocations packed (DT_RELR, glibc 2.36 or later): 125,000 of them take 40 KB
///   instead of 3 MB that the dynamic loader reads at every start;
/// - the functions a daemon runs from start through its first polls placed together
///   (`startup.order`, written by scripts/link-order), and the compiler's unnamed helpers
///   gathered before them (`private-text.ld`), so the kernel maps a few MB of code instead of
///   most of it. Ordering works per section: the release build for the package compiles with
///   function sections (scripts/release-build); other builds get the same layout per file.
let executableLinkerFlags: [String] = {
    let linker = Context.packageDirectory + "/Sources/pricewatch/Linker"
    return [
        "-use-ld=lld",
        "-Xlinker", "--version-script=\(linker)/exports.map",
        "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
        "-Xlinker", "--symbol-ordering-file=\(linker)/startup.order",
        // The list comes from one build; names another build lacks are expected.
        "-Xlinker", "--no-warn-symbol-ordering",
        "-Xlinker", "--script=\(linker)/private-text.ld",
    ]
}()

/// Targets follow `README.md#architecture`: a pure core that imports nothing of the outside
/// world, adapters behind protocols owned by the core, and a thin executable that only wires.
let package = Package(
    name: "pricewatch",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "pricewatch", targets: ["pricewatch"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // HMAC-SHA256 for Standard Webhooks signatures (webhook sink) only.
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // The daemon's HTTP endpoint (dashboard, /metrics, /healthz) and its metrics.
        // Hummingbird's default traits (swift-configuration, full Foundation) are not needed.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        // gzip of the dashboard's pages (zlib over NIO's ByteBuffer; what Hummingbird's own
        // compression middleware is built on).
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        // Already in the graph through Hummingbird; named for the tests' ByteBuffer.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // The pure domain: exact decimals, quotes, rules, the per-rule state machine, alerts,
        // rendering, backtest CSV parsing, and the ports (protocols) adapters implement.
        .target(name: "PriceWatchCore"),
        // Presentation and file formats over the core's types: alert and notification text,
        // terminal charts, paper and portfolio reports, the alert log's CSV, Ghostfolio's CSV.
        .target(name: "PriceWatchPresentation", dependencies: ["PriceWatchCore"]),
        // Our TOML 1.0 parser: one pass, bounded, every key and value with its line and column.
        .target(name: "PriceWatchTOML"),
        // TOML -> validated model, with positioned diagnostics and secrets.
        .target(name: "PriceWatchConfig", dependencies: ["PriceWatchCore", "PriceWatchTOML"]),
        // SQLite through GRDB: migrations, quote history, rule state, alert log, outbox.
        .target(
            name: "PriceWatchStore",
            dependencies: ["PriceWatchCore", .product(name: "GRDB", package: "GRDB.swift"),
                           // sqlite3_bind_*: the per-poll inserts bind their values directly.
                           .product(name: "GRDBSQLite", package: "GRDB.swift")]
        ),
        // libcurl, with typed shims for its variadic calls (apt libcurl4-openssl-dev).
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // libsystemd's sd_notify and journal calls (apt libsystemd-dev).
        .systemLibrary(
            name: "CSystemd",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        // libmosquitto, the MQTT client of the `mqtt` sink (apt libmosquitto-dev).
        .systemLibrary(
            name: "CMosquitto",
            pkgConfig: "libmosquitto",
            providers: [.apt(["libmosquitto-dev"])]
        ),
        // glibc's malloc_trim: the daemon hands freed memory back after loading a configuration.
        .systemLibrary(name: "CGlibcMalloc", path: "Sources/CGlibcMalloc"),
        // The HTTP (and SMTP) transport on libcurl, behind the core's `HTTPTransport` port.
        .target(name: "PriceWatchCurl", dependencies: ["PriceWatchCore", "CCurl"]),
        // sd_notify, the watchdog and the journal log handler.
        .target(
            name: "PriceWatchSystemd",
            dependencies: ["PriceWatchCore", "CSystemd", .product(name: "Logging", package: "swift-log")]
        ),
        // libxml2's push parser (headers from apt libxml2-dev, through a link in include/): the
        // news feed's RSS reader's library, opened with dlopen when the first feed is read, so
        // the daemon maps it (and never ICU) only if it reads news. Links only libdl.
        .target(name: "CLibXML2", linkerSettings: [.linkedLibrary("dl")]),
        // Quote providers, one file per service; they reach the network only through `HTTPTransport`.
        // The news feed's RSS is read through CLibXML2.
        .target(name: "PriceWatchProviders", dependencies: ["PriceWatchCore", "CLibXML2"]),
        // Notification sinks, one file per kind; they reach the network only through the core's ports,
        // except the MQTT sink, which holds its broker connection through libmosquitto.
        .target(
            name: "PriceWatchSinks",
            dependencies: ["PriceWatchCore", "PriceWatchPresentation", "CMosquitto", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // The long-running services: pollers, the rule evaluator, the dispatcher, the reloader.
        // They talk to adapters only through the core's ports: no adapter module here.
        .target(
            name: "PriceWatchServices",
            dependencies: [
                "PriceWatchCore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        // The HTTP endpoint (Hummingbird): the dashboard, /metrics (Prometheus), /healthz.
        .target(
            name: "PriceWatchHTTP",
            dependencies: [
                "PriceWatchCore",
                "PriceWatchPresentation",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The composition root: wires the adapters to the services, owns the daemon, and holds
        // the use cases the command line calls.
        .target(
            name: "PriceWatchApp",
            dependencies: [
                "PriceWatchCore",
                "PriceWatchPresentation",
                "PriceWatchServices",
                "PriceWatchConfig",
                "PriceWatchStore",
                "PriceWatchProviders",
                "PriceWatchSinks",
                "PriceWatchCurl",
                "PriceWatchSystemd",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                "PriceWatchHTTP",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                "PriceWatchCharts",
                "CGlibcMalloc",
            ]
        ),
        // The executable: argument parsing only. How it is linked is in `executableLinkerFlags`.
        .executableTarget(
            name: "pricewatch",
            dependencies: [
                "PriceWatchApp",
                "PriceWatchPresentation",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Linker"],
            linkerSettings: [.unsafeFlags(executableLinkerFlags, .when(platforms: [.linux]))]
        ),
        // Benchmarks print numbers; they are never timed assertions in tests.
        .executableTarget(
            name: "pricewatch-bench",
            dependencies: [
                // The outbox mode drives the daemon's own delivery path to a loopback receiver; the
                // poll-cycle mode, the real poller, provider and libcurl transport.
                // The startup mode spawns `pricewatch run`; the backtest reference reads rules itself.
                "PriceWatchCore", "PriceWatchPresentation", "PriceWatchConfig", "PriceWatchCurl", "PriceWatchServices", "PriceWatchApp", "PriceWatchProviders",
                "PriceWatchStore", "PriceWatchHTTP", "PriceWatchTestKit", .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Benchmarks/pricewatch-bench"
        ),
        // Shared test helpers: manual clock, recording sink, scripted provider, fixtures.
        .target(
            name: "PriceWatchTestKit",
            dependencies: ["PriceWatchCore"],
            path: "Tests/PriceWatchTestKit"
        ),
        .testTarget(name: "PriceWatchCoreTests", dependencies: ["PriceWatchCore", "PriceWatchTestKit"]),
        .testTarget(name: "PriceWatchPresentationTests", dependencies: ["PriceWatchPresentation", "PriceWatchCore", "PriceWatchTestKit"]),
        .testTarget(name: "PriceWatchConfigTests", dependencies: ["PriceWatchConfig", "PriceWatchCore", "PriceWatchApp", "PriceWatchTestKit"]),
        // The parser against the official toml-test corpus (Tests/Fixtures/toml-test) and hostile inputs.
        .testTarget(name: "PriceWatchTOMLTests", dependencies: ["PriceWatchTOML"]),
        .testTarget(
            name: "PriceWatchStoreTests",
            dependencies: ["PriceWatchStore", "PriceWatchCore", .product(name: "GRDB", package: "GRDB.swift"),
                           // sqlite3_trace_v2 and sqlite3_stmt_status: counting statement compilations.
                           .product(name: "GRDBSQLite", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "PriceWatchEngineTests",
            dependencies: ["PriceWatchServices", "PriceWatchApp", "PriceWatchCore", "PriceWatchPresentation", "PriceWatchStore", "PriceWatchProviders",
                           "PriceWatchSinks", "PriceWatchCurl", "PriceWatchSystemd", "PriceWatchTestKit", .product(name: "Logging", package: "swift-log"),
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")]
        ),
        .testTarget(name: "PriceWatchCLITests", dependencies: ["PriceWatchTestKit", "PriceWatchCore", "PriceWatchStore"]),
        .testTarget(
            name: "PriceWatchSystemdTests",
            dependencies: ["PriceWatchSystemd", "CSystemd", "PriceWatchCore", "PriceWatchTestKit", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(
            name: "PriceWatchProvidersTests",
            dependencies: ["PriceWatchProviders", "PriceWatchCore", "PriceWatchCurl", "PriceWatchTestKit",
                           // The libxml2 loader's error path (pricewatch_libxml2_probe).
                           "CLibXML2"]
        ),
        .testTarget(name: "PriceWatchCurlTests", dependencies: ["PriceWatchCurl", "PriceWatchCore", "PriceWatchTestKit"]),
        // Sinks against real receivers on loopback, and the shared sink conformance suite.
        .testTarget(
            name: "PriceWatchSinksTests",
            dependencies: ["PriceWatchSinks", "PriceWatchCore", "PriceWatchPresentation", "PriceWatchCurl", "PriceWatchTestKit",
                           // The MQTT tests' subscriber reads the broker back through libmosquitto.
                           "CMosquitto"]
        ),
        // cairo's image and SVG surfaces (headers from apt libcairo2-dev): the chart renderer's
        // library, opened with dlopen when the first chart is drawn, so the daemon maps it (and
        // the X11, font and image libraries it brings) only if it draws.
        .target(name: "CCairo", linkerSettings: [.linkedLibrary("dl")]),
        // Charts as PNG and SVG on cairo, behind the core's `ChartRenderer` port.
        .target(name: "PriceWatchCharts", dependencies: ["PriceWatchCore", "CCairo"]),
        // Rendered charts against reference images (decoded by cairo), SVG structure.
        .testTarget(
            name: "PriceWatchChartsTests",
            dependencies: ["PriceWatchCharts", "PriceWatchCore", "CCairo", "PriceWatchTestKit"]
        ),
        // The HTTP endpoint end to end against the running daemon on loopback (promtool, Chromium).
        .testTarget(
            name: "PriceWatchHTTPTests",
            dependencies: ["PriceWatchHTTP", "PriceWatchPresentation", "PriceWatchServices", "PriceWatchCore", "PriceWatchCurl", "PriceWatchTestKit",
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "CompressNIO", package: "compress-nio"),
                           .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
