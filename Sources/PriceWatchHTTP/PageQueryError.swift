/// A page's query parameter that is not valid (`?status=lost`, `?range=2w`): the page answers
/// `400` and shows `description`, which names the parameter, what was expected and what was found.
public struct PageQueryError: Error, CustomStringConvertible, Sendable {
    public var description: String

    public init(description: String) {
        self.description = description
    }
}
