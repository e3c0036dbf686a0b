/// A place in a file that a diagnostic points at.
public struct SourceLocation: Sendable, Hashable, Codable {
    /// The file's path, as it should be shown to the user (relative to the magazine where possible).
    public var file: String
    /// The 1-based line, when known.
    public var line: Int?
    /// The 1-based column, when known.
    public var column: Int?

    /// Creates a location in `file`, optionally at a line and column.
    public init(file: String, line: Int? = nil, column: Int? = nil) {
        self.file = file
        self.line = line
        self.column = column
    }
}
