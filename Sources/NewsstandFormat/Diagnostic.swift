/// How bad a diagnostic is.
public enum Severity: String, Sendable, Codable, Comparable {
    case warning
    case error

    public static func < (lhs: Severity, rhs: Severity) -> Bool {
        lhs == .warning && rhs == .error
    }
}

/// One problem found in a magazine: a stable code, a severity, where it is and what is wrong.
public struct Diagnostic: Sendable, Hashable, Codable {
    /// The stable code (`NS-201`), documented in the README and never reused.
    public var code: DiagnosticCode
    /// Whether the problem stops a build.
    public var severity: Severity
    /// Where the problem is, when it is in a file.
    public var location: SourceLocation?
    /// What is wrong, naming the value and what was expected.
    public var message: String

    /// Creates a diagnostic with the code's default severity unless one is given.
    public init(_ code: DiagnosticCode, _ message: String, at location: SourceLocation?, severity: Severity? = nil) {
        self.code = code
        self.severity = severity ?? code.defaultSeverity
        self.location = location
        self.message = message
    }
}

extension Diagnostic: Comparable {
    /// Orders by file, line, column, then code, so reports are stable from run to run.
    public static func < (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
        let l = (lhs.location?.file ?? "", lhs.location?.line ?? 0, lhs.location?.column ?? 0, lhs.code.rawValue, lhs.message)
        let r = (rhs.location?.file ?? "", rhs.location?.line ?? 0, rhs.location?.column ?? 0, rhs.code.rawValue, rhs.message)
        return l < r
    }
}

extension Array where Element == Diagnostic {
    /// Whether any diagnostic is an error.
    public var hasErrors: Bool { contains { $0.severity == .error } }
}
