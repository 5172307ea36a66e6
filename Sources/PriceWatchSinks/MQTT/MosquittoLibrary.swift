import CMosquitto

/// `mosquitto_lib_init`, once per process.
enum MosquittoLibrary {
    private static let initialised: Bool = {
        mosquitto_lib_init()
        return true
    }()

    static func initialise() { _ = initialised }
}
