import PriceWatchCore

extension StdoutSink {
    /// `type = "stdout"`: its keys and its factory.
    public static let kind = SinkKind(
        schema: AdapterSchema(type: "stdout", summary: "prints each alert on standard output", fields: [
            .init("format", .choice(["text", "json"]), "`text` (one line per alert) or `json` (JSON Lines)"),
        ]),
        make: { settings, _ in
            AdapterBuild(StdoutSink(name: settings.name, format: settings.format == "json" ? .json : .text))
        })
}
