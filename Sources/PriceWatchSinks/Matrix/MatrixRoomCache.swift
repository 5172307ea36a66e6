import Synchronization

/// The room id a Matrix sink's alias resolved to, kept for the sink's life (until the next
/// reload builds a new sink), so the room directory is asked once, not before every message.
final class MatrixRoomCache: Sendable {
    private let roomID = Mutex<String?>(nil)

    /// `room` itself when it is a room id; otherwise nil until ``store(_:)``.
    init(room: String) {
        if !room.hasPrefix("#") { roomID.withLock { $0 = room } }
    }

    var value: String? { roomID.withLock { $0 } }

    func store(_ id: String) { roomID.withLock { $0 = id } }
}
