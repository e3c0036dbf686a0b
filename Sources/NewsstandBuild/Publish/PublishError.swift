/// A failure while publishing, with the step and the file or URL it concerns.
public struct PublishError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was being done (`upload`, `move`, `delete`, `verify`, …).
    public var step: String
    /// The file, remote path or URL concerned.
    public var target: String
    /// What went wrong.
    public var reason: String

    public init(step: String, target: String, reason: String) {
        self.step = step
        self.target = target
        self.reason = reason
    }

    public var description: String { "\(step) \(target): \(reason)" }
}
