import PriceWatchCore

/// What a `[sinks.NAME]` table of type `pushover` configures (or its `pover://` URL). Its
/// description shows neither the application token nor the user key.
public struct PushoverSettings: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The application's API token, never printed.
    public var token: String
    /// The user (or group) key the messages go to.
    public var user: String
    /// One of the user's devices; nil: all of them.
    public var device: String?
    public var apiURL: String
    /// Emergency priority (2) for urgent rules: Pushover repeats the notification every
    /// `retry` until acknowledged or `expire` passes. Both or neither.
    public var retry: Duration?
    public var expire: Duration?
    /// Single alerts carry their chart as the attachment.
    public var chart: Bool
    /// The deadline of one request.
    public var timeout: Duration

    public init(token: String, user: String, device: String? = nil, apiURL: String, retry: Duration? = nil,
                expire: Duration? = nil, chart: Bool = false, timeout: Duration = ServiceTimeout.defaultTimeout) {
        self.timeout = timeout
        self.token = token
        self.user = user
        self.device = device
        self.apiURL = apiURL
        self.retry = retry
        self.expire = expire
        self.chart = chart
    }

    /// The settings of a validated `[sinks.NAME]` table (defaults filled in by the loader).
    public init(_ options: AdapterOptions) {
        self.init(token: options.secret("token")?.value ?? "", user: options.string("user") ?? "", device: options.string("device"),
                  apiURL: options.string("api_url") ?? "", retry: options.duration("retry").map { .seconds($0.seconds) },
                  expire: options.duration("expire").map { .seconds($0.seconds) }, chart: options.boolean("chart") == true,
                  timeout: ServiceTimeout.value(options))
    }

    /// Pushover's bounds for emergency notifications.
    static let shortestRetry: Duration = .seconds(30)
    static let longestExpire: Duration = .seconds(10_800)

    /// The problems of `retry` and `expire`, by key.
    static func problems(retry: Duration?, expire: Duration?) -> [(key: String, message: String)] {
        var problems: [(key: String, message: String)] = []
        switch (retry, expire) {
        case (.some, nil): problems.append(("retry", "'retry' without 'expire': emergency priority needs both (expire = \"1h\")"))
        case (nil, .some): problems.append(("expire", "'expire' without 'retry': emergency priority needs both (retry = \"60s\")"))
        default: break
        }
        if let retry, retry < shortestRetry {
            problems.append(("retry", "expected at least 30s between repeats (Pushover's minimum), found \(retry.components.seconds)s"))
        }
        if let expire, expire > longestExpire {
            problems.append(("expire", "expected at most 3h of repeats (Pushover's maximum), found \(expire.components.seconds)s"))
        }
        return problems
    }

    public var description: String {
        "PushoverSettings(device: \(device ?? "all"), emergency: \(retry != nil), chart: \(chart), token: <secret>, user: <secret>)"
    }

    public var debugDescription: String { description }
}
