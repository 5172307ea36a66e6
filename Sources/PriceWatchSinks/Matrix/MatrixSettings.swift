import PriceWatchCore

/// What a `[sinks.NAME]` table of type `matrix` configures (or its `matrix://` URL). Its
/// description shows no access token.
public struct MatrixSettings: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The homeserver's client-server API base (`https://matrix.example.org`).
    public var homeserver: String
    /// The room id (`!AbCdEf:example.org`) or an alias (`#prices:example.org`).
    public var room: String
    /// The bot account's access token, sent as `Authorization: Bearer`, never printed.
    public var accessToken: String
    /// Single alerts are followed by their chart, uploaded to the media repository, as `m.image`.
    public var chart: Bool
    /// The deadline of one request.
    public var timeout: Duration

    public init(homeserver: String, room: String, accessToken: String, chart: Bool = false,
                timeout: Duration = ServiceTimeout.defaultTimeout) {
        self.timeout = timeout
        self.homeserver = homeserver
        self.room = room
        self.accessToken = accessToken
        self.chart = chart
    }

    /// The settings of a validated `[sinks.NAME]` table.
    public init(_ options: AdapterOptions) {
        self.init(homeserver: options.string("homeserver") ?? "", room: options.string("room") ?? "",
                  accessToken: options.secret("access_token")?.value ?? "", chart: options.boolean("chart") == true,
                  timeout: ServiceTimeout.value(options))
    }

    /// Why `room` is neither a room id (`!opaque:server.name`) nor an alias
    /// (`#name:server.name`): nil when it is one.
    static func problem(room: String) -> String? {
        guard room.hasPrefix("!") || room.hasPrefix("#"), let colon = room.firstIndex(of: ":"),
              colon > room.index(after: room.startIndex), room.index(after: colon) < room.endIndex,
              !room.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
            return "expected a room id such as !AbCdEf:example.org or an alias such as #prices:example.org, found \(ServiceWording.quoted(room))"
        }
        return nil
    }

    /// Whether `room` is an alias, resolved to its room id before the first message.
    var isAlias: Bool { room.hasPrefix("#") }

    public var description: String { "MatrixSettings(room: \(room), chart: \(chart), access_token: <secret>)" }
    public var debugDescription: String { description }
}
