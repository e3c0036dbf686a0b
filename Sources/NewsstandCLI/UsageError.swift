/// A usage mistake: printed with the command's usage, exit status 2.
public struct UsageError: Error, Equatable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
