/// What `validate`, `build` and `preview` print with `--format json`: every diagnostic, the
/// counts, and the member of the command that printed it (`records`, `build` or `preview`).
public struct ValidationJSON: Codable, Equatable, Sendable {
    /// Every diagnostic reported, in the order found.
    public var diagnostics: [DiagnosticJSON]
    /// How many issues were validated, and the errors and warnings reported.
    public var summary: Summary
    /// `validate --output`: the build records that were used.
    public var records: Records?
    /// `build`'s report.
    public var build: BuildJSON?
    /// `preview`'s report.
    public var preview: PreviewJSON?

    /// The counts.
    public struct Summary: Codable, Equatable, Sendable {
        /// Issues validated.
        public var issues: Int
        /// Errors reported (after `--ignore`).
        public var errors: Int
        /// Warnings reported (after `--ignore`).
        public var warnings: Int
    }

    /// The build records `validate --output` read.
    public struct Records: Codable, Equatable, Sendable {
        /// The output folder given.
        public var output: String
        /// The issues whose recorded validation was reused.
        public var reused: [String]
        /// Records not used, and why.
        public var warnings: [String]
    }
}

/// One diagnostic, as `--format json` prints it.
public struct DiagnosticJSON: Codable, Equatable, Sendable {
    /// `NS-201`.
    public var code: String
    /// `error` or `warning`.
    public var severity: String
    /// What is wrong, in one sentence.
    public var message: String
    /// The file, as a path from the current folder; null for the magazine as a whole.
    public var file: String?
    /// The line from 1, null when unknown.
    public var line: Int?
    /// The column from 1, null when unknown.
    public var column: Int?

    private enum CodingKeys: String, CodingKey {
        case code, severity, message, file, line, column
    }

    /// Writes every key, an unknown place as `null` (the README's promise), not left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code, forKey: .code)
        try container.encode(severity, forKey: .severity)
        try container.encode(message, forKey: .message)
        try container.encode(file, forKey: .file)
        try container.encode(line, forKey: .line)
        try container.encode(column, forKey: .column)
    }
}
