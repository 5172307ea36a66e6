import Logging
import PriceWatchCore

/// The journal's `MESSAGE_ID` of each ``OperatorEvent``: the only place the ids are defined.
extension OperatorEvent {
    /// 128 bits as 32 lower-case hex digits, fixed forever (operators' saved `journalctl`
    /// queries and alerting rules depend on them).
    public var messageID: String {
        switch self {
        case .alertFired: "5543079bbf4649709b214a9d0111fad7"
        case .deliveryDeadLettered: "27811feb625046b8896d6b338066355f"
        case .configurationReloaded: "945e35f766c747f6bea7da72ca183a40"
        case .configurationRejected: "24a3a6bebcb84725afdf71bba4a9cbe9"
        case .providerFailing: "98be351dce404f41b42930e9ce3cea5d"
        case .schedulerStalled: "98f75738213248518979902d3cb273e1"
        }
    }

    /// The value to log under ``OperatorEvent/metadataKey`` (this module's own log lines).
    var metadataValue: Logger.MetadataValue { .string(rawValue) }
}
