/// Diagnostics collected for one file, at most `limit` of them kept: past that they are only
/// counted, and one closing diagnostic (NS-007) says how many errors and warnings were not
/// listed. A file that lies can hold a problem in every one of its values; keeping (and
/// printing) hundreds of thousands of them helps nobody and costs memory without bound.
/// Messages are built only for the diagnostics kept.
public struct DiagnosticList: Sendable {
    /// The most diagnostics kept for one file.
    public static let standardLimit = 1_000

    public let file: String
    public let limit: Int
    private var kept: [Diagnostic] = []
    private var unlistedErrors = 0
    private var unlistedWarnings = 0

    public init(file: String, limit: Int = standardLimit) {
        self.file = file
        self.limit = limit
    }

    /// Whether more diagnostics would only be counted.
    public var isFull: Bool { kept.count >= limit }

    /// Adds a diagnostic at `line` of the file (0 or less: no line).
    public mutating func add(
        _ code: DiagnosticCode, _ message: @autoclosure () -> String, line: Int?, severity: Severity? = nil
    ) {
        add(code, message(), at: SourceLocation(file: file, line: line.flatMap { $0 > 0 ? $0 : nil }), severity: severity)
    }

    /// Adds a diagnostic at any location.
    public mutating func add(
        _ code: DiagnosticCode, _ message: @autoclosure () -> String, at location: SourceLocation?, severity: Severity? = nil
    ) {
        guard !isFull else { return count(code, severity: severity) }
        kept.append(Diagnostic(code, message(), at: location, severity: severity))
    }

    /// Counts `times` diagnostics of `code` without building them (when they would not be kept anyway).
    public mutating func count(_ code: DiagnosticCode, severity: Severity? = nil, times: Int = 1) {
        if (severity ?? code.defaultSeverity) == .error {
            unlistedErrors += times
        } else {
            unlistedWarnings += times
        }
    }

    /// The diagnostics kept, and the closing one when some were only counted.
    public var diagnostics: [Diagnostic] {
        let unlisted = unlistedErrors + unlistedWarnings
        guard unlisted > 0 else { return kept }
        var parts: [String] = []
        if unlistedErrors > 0 {
            parts.append("\(PlistLimits.grouped(unlistedErrors)) more error\(unlistedErrors == 1 ? "" : "s")")
        }
        if unlistedWarnings > 0 {
            parts.append("\(PlistLimits.grouped(unlistedWarnings)) more warning\(unlistedWarnings == 1 ? "" : "s")")
        }
        let name = file.split(separator: "/").last.map(String.init) ?? file
        return kept + [
            Diagnostic(
                .tooManyProblems,
                "\(parts.joined(separator: " and ")) in \(name) are not listed (the first \(PlistLimits.grouped(limit)) problems are)",
                at: SourceLocation(file: file), severity: unlistedErrors > 0 ? .error : .warning)
        ]
    }
}
