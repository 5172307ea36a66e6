import Dispatch
import Synchronization

/// The live MQTT connections of the process by sink identity and settings: a sink built
/// again with the same ones (a configuration reload that changed other things) takes the
/// existing connection instead of opening a second one with the same client id, which the
/// broker would answer by dropping the first (and the first, reconnecting, the second).
///
/// A sink whose settings changed gets a new connection under the same client id; when that
/// one starts it retires the old one (``retire(clientID:keeping:)``) rather than have the two
/// take the session from each other until the old sink is let go.
///
/// It holds the connections weakly: they close when their last sink goes.
final class MQTTConnectionPool: Sendable {
    static let shared = MQTTConnectionPool()

    private struct Key: Hashable {
        let identity: String
        let settings: MQTTSettings
    }

    private struct Entry {
        weak var lifetime: MQTTConnectionLifetime?
    }

    private let entries = Mutex<[Key: Entry]>([:])

    /// The lifetime of the connection for `identity` and `settings`, new or shared.
    func lifetime(identity: String, settings: MQTTSettings) -> MQTTConnectionLifetime {
        let key = Key(identity: identity, settings: settings)
        return entries.withLock { entries in
            entries = entries.filter { $0.value.lifetime != nil }
            if let existing = entries[key]?.lifetime { return existing }
            let created = MQTTConnectionLifetime(MosquittoConnection(identity: identity, settings: settings))
            entries[key] = Entry(lifetime: created)
            return created
        }
    }

    /// Closes every other live connection under `clientID` and forgets it; returns what
    /// signals each close's end. Their sinks' later deliveries fail as retryable.
    func retire(clientID: String, keeping connection: MosquittoConnection) -> [DispatchSemaphore] {
        let retired: [MosquittoConnection] = entries.withLock { entries in
            var retired: [MosquittoConnection] = []
            for (key, entry) in entries where key.settings.clientID == clientID {
                guard let other = entry.lifetime?.connection, other !== connection else { continue }
                retired.append(other)
                entries[key] = nil
            }
            return retired
        }
        return retired.map { other in
            let done = DispatchSemaphore(value: 0)
            other.close(done: done)
            return done
        }
    }
}
