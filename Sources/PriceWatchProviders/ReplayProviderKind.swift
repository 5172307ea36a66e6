import PriceWatchCore

extension ReplayProvider {
    /// `type = "replay"`: its keys and its factory.
    public static let kind = ProviderKind(
        schema: AdapterSchema(type: "replay", summary: "replays a CSV of quotes, for demos and tests", fields: [
            .init("file", .existingFile, required: true, "the CSV to replay, in the backtest format"),
        ]),
        make: { settings, context in
            guard let file = settings.file else {
                return .error("'file' is required for a replay provider", table: "providers.\(settings.name)", context: context)
            }
            let (series, problems) = PriceSeriesFile.read(path: file)
            return AdapterBuild(series.map { ReplayProvider(name: settings.name, series: $0) }, diagnostics: problems)
        })
}
