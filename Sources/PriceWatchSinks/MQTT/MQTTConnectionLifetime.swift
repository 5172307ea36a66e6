/// Owns one ``MosquittoConnection`` for the sinks that share it, and closes it (`offline`,
/// DISCONNECT) when the last of them is let go.
final class MQTTConnectionLifetime: Sendable {
    let connection: MosquittoConnection

    init(_ connection: MosquittoConnection) {
        self.connection = connection
    }

    deinit { connection.close() }
}
