import Logging
import PriceWatchCore

extension OperatorEvent {
    /// The value to log under ``OperatorEvent/metadataKey``.
    public var metadataValue: Logger.MetadataValue { .string(rawValue) }
}
