import Foundation
import NewsstandCore
import NewsstandFormat

/// Output formats for diagnostics.
enum DiagnosticFormat: String, ChoiceArgument {
    /// Like a compiler: `path:line:col: error: message [NS-201]`.
    case text
    /// One JSON document with every diagnostic and the counts.
    case json
    /// GitHub Actions workflow commands (`::error file=…,line=…::message`).
    case github
}

/// Prints diagnostics in one of the formats, errors before warnings: errors stream as they
/// arrive and warnings are held until `flushWarnings` (or `finish`), so a typo's error is the
/// first thing read, not under the warnings it causes. JSON is written once at the end, its
/// diagnostics in the same order.
final class DiagnosticPrinter {
    let format: DiagnosticFormat
    let console: Console
    /// Prepended to magazine-relative paths so they work from the current directory.
    let pathPrefix: String
    private(set) var errors = 0
    private(set) var warnings = 0
    private var collected: [Diagnostic] = []
    /// Warnings not printed yet.
    private var heldWarnings: [Diagnostic] = []

    init(format: DiagnosticFormat, console: Console, magazinePath: String) {
        self.format = format
        self.console = console
        self.pathPrefix = magazinePath.hasSuffix("/") ? magazinePath : magazinePath + "/"
    }

    func path(_ file: String) -> String {
        file.hasPrefix("/") ? file : pathPrefix + file
    }

    /// Prints `diagnostics`' errors now and holds their warnings for `flushWarnings`.
    func print(_ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics {
            if diagnostic.severity == .error {
                errors += 1
                emit(diagnostic)
            } else {
                warnings += 1
                heldWarnings.append(diagnostic)
            }
        }
    }

    /// Prints the warnings held so far, in the order they came.
    func flushWarnings() {
        let held = heldWarnings
        heldWarnings = []
        for warning in held { emit(warning) }
    }

    private func emit(_ diagnostic: Diagnostic) {
        switch format {
        case .json: collected.append(diagnostic)
        case .text: console.out(text(diagnostic))
        case .github: console.out(github(diagnostic))
        }
    }

    /// Prints the closing summary (text and GitHub) or the JSON document, with the command's
    /// own member there (`records`, `build`, `preview`; the other formats ignore them).
    func finish(issues: Int, records: ValidationJSON.Records? = nil, build: BuildJSON? = nil, preview: PreviewJSON? = nil) {
        flushWarnings()
        if format == .json {
            let summary = ValidationJSON.Summary(issues: issues, errors: errors, warnings: warnings)
            let document = ValidationJSON(
                diagnostics: collected.map(json), summary: summary, records: records, build: build, preview: preview)
            JSONOutput.print(document, to: console)
            return
        }
        let summary: String
        if errors == 0 && warnings == 0 {
            summary = "no problems found in \(count(issues, "issue"))"
        } else {
            summary = "\(count(errors, "error")), \(count(warnings, "warning")) in \(count(issues, "issue"))"
        }
        console.out(format == .github ? summary : console.styled(summary, errors > 0 ? "1;31" : warnings > 0 ? "1;33" : "1;32"))
    }

    private func text(_ d: Diagnostic) -> String {
        var place = ""
        if let location = d.location {
            place = path(location.file)
            if let line = location.line { place += ":\(line)" }
            if let column = location.column { place += ":\(column)" }
            // One diagnostic, one line: a file name or message with a line break in it cannot
            // start a line of its own (the GitHub format escapes them its own way).
            place = console.styled(SourceText.printable(place), "1") + ": "
        }
        let severity = d.severity == .error ? console.styled("error", "1;31") : console.styled("warning", "1;33")
        return "\(place)\(severity): \(SourceText.printable(d.message)) [\(d.code.rawValue)]"
    }

    private func github(_ d: Diagnostic) -> String {
        var properties = ["title=\(d.code.rawValue)"]
        if let location = d.location {
            properties.insert("file=\(escapeProperty(path(location.file)))", at: 0)
            if let line = location.line { properties.append("line=\(line)") }
            if let column = location.column { properties.append("col=\(column)") }
        }
        let command = d.severity == .error ? "error" : "warning"
        return "::\(command) \(properties.joined(separator: ","))::\(escapeData(d.message)) [\(d.code.rawValue)]"
    }

    private func escapeData(_ s: String) -> String {
        s.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    private func escapeProperty(_ s: String) -> String {
        escapeData(s).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }

    private func json(_ d: Diagnostic) -> DiagnosticJSON {
        DiagnosticJSON(
            code: d.code.rawValue, severity: d.severity.rawValue, message: d.message, file: d.location.map { path($0.file) },
            line: d.location?.line, column: d.location?.column)
    }

    private func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}
