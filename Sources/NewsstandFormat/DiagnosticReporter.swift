/// A checker of one file that collects what it finds in a `DiagnosticList` (so a file that lies
/// in every value costs a bounded list): every validator and parser reports through
/// `problems.add(code, message, line:)`, the one report helper, whose message is built only
/// when it is kept.
public protocol DiagnosticReporter {
    /// The problems found so far.
    var problems: DiagnosticList { get }
}

extension DiagnosticReporter {
    /// Every problem found (at most `DiagnosticList.standardLimit` listed, the rest counted).
    public var diagnostics: [Diagnostic] { problems.diagnostics }
}
