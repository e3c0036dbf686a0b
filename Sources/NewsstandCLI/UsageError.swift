/// A usage mistake: printed with the command's usage, exit status 2.
public struct UsageError: Error, Equatable, Sendable {
    /// What is wrong, in one line (`missing --output <folder>`).
    public var message: String

    /// A usage error saying `message`.
    public init(_ message: String) { self.message = message }
}
