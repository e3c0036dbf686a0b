import NewsstandFormat

/// The options every command that validates shares (validate, build, preview), declared once
/// and put into each command's options as a group.
struct ValidationOptions {
    /// The issues to validate (`--issue`); empty: every issue.
    var issues: [String] = []
    /// How diagnostics are printed.
    var format = DiagnosticFormat.text
    /// Warnings fail the command too.
    var strict = false
    /// Codes left out of the report.
    var ignored: [DiagnosticCode] = []

    /// The group's arguments; `issueHelp` says what `--issue` selects for the command.
    static func arguments(issueHelp: String) -> [Argument<Self>] {
        [
            .value(\.issues, "--issue", .issueName, help: issueHelp),
            .value(
                \.format, "--format", help: "text (default, like a compiler), json (one document) or github (Actions annotations)"
            ),
            .flag(\.strict, "--strict", help: "treat warnings as errors"),
            .value(\.ignored, "--ignore", help: "do not report this diagnostic code, e.g. NS-306"),
        ]
    }
}
