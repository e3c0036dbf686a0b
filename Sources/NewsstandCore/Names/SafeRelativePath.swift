/// A path that stays inside the folder it is relative to, whatever folder or server that is: the
/// one rule for every file name read from something we do not control at the moment we read it
/// (a build manifest, a publish state file, a catalog), so that no name can lead a read, a write
/// or a delete outside our folders.
///
/// A safe path is 1 to 16 components joined by `/`, at most 1,024 UTF-8 bytes, each component
/// safe by `isSafeComponent(_:)`. So it is never absolute (`/etc/passwd`), never climbs (`..`),
/// never has empty components (`a//b`, a trailing `/`), and never carries a scheme or drive
/// (`http:`, `C:`) or a Windows separator (`a\..\b`).
public struct SafeRelativePath: Sendable, Hashable, CustomStringConvertible {
    /// The path's components, each safe.
    public let components: [String]

    /// Why a name is not a safe relative path.
    public enum Problem: String, Sendable, Equatable, CustomStringConvertible {
        /// The name is empty.
        case empty = "is empty"
        /// It starts with `/`.
        case absolute = "is an absolute path"
        /// A component is `..`.
        case parent = "has a '..' component"
        /// A component is empty.
        case emptyComponent = "has an empty component ('//' or a '/' at the end)"
        /// A component starts with `.`.
        case hidden = "has a component starting with '.' (hidden names and '.' are reserved)"
        /// It has a `/` where one component was expected.
        case separator = "has a '/' where one name was expected"
        /// It has a `\`.
        case backslash = "has a backslash"
        /// It has a `:`.
        case colon = "has a ':' (a URL scheme or drive letter)"
        /// It has a control or invisible formatting character.
        case control = "has a control or invisible formatting character"
        /// It is over a length limit.
        case tooLong = "is too long (at most 255 bytes per component, 1,024 in all, 16 components)"

        /// What is wrong, as a phrase for messages ("has a backslash").
        public var description: String { rawValue }
    }

    /// The limits, documented in docs/publishing.md ("What it trusts").
    public static let maxComponentBytes = 255
    /// The most bytes of the whole path.
    public static let maxBytes = 1024
    /// The most components.
    public static let maxComponents = 16

    /// Checks `text`; nil when it is not safe (see `problem(in:)` for why).
    public init?(_ text: String) {
        guard Self.problem(in: text) == nil else { return nil }
        components = text.split(separator: "/").map(String.init)
    }

    /// The path as text, components joined by `/`.
    public var string: String { components.joined(separator: "/") }
    /// The path as text (`string`).
    public var description: String { string }

    /// Why `text` is not a safe relative path, or nil when it is one.
    public static func problem(in text: String) -> Problem? {
        if text.isEmpty { return .empty }
        if text.hasPrefix("/") { return .absolute }
        if text.utf8.count > maxBytes { return .tooLong }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count > maxComponents { return .tooLong }
        for part in parts {
            if let problem = componentProblem(part) { return problem }
        }
        return nil
    }

    /// Whether `text` is a safe relative path.
    public static func isSafe(_ text: String) -> Bool { problem(in: text) == nil }

    /// Whether `component` is safe as one file or folder name: not empty, not `.` or `..` and not
    /// hidden (a leading `.`: our own temporary and state files are hidden, so no name read from
    /// outside can reach them), no `/`, `\`, `:`, and no control or invisible formatting
    /// characters (which could rewrite a terminal line or hide a name's real ending), at most
    /// 255 UTF-8 bytes.
    public static func isSafeComponent(_ component: some StringProtocol) -> Bool {
        componentProblem(component) == nil
    }

    /// As above, for a `String` (not generic: see `componentProblem(_:)`).
    public static func isSafeComponent(_ component: String) -> Bool {
        componentProblem(component) == nil
    }

    /// Why `component` is not safe as one name, or nil.
    public static func componentProblem(_ component: some StringProtocol) -> Problem? {
        componentProblem(String(component))
    }

    /// As above, for a `String`: the generic version runs unspecialized across modules, and
    /// build records check thousands of names per build.
    public static func componentProblem(_ component: String) -> Problem? {
        // A path where one name belongs: say what is wrong with it as a path first ('..' rather
        // than "hidden"), and that it is a path at all only when nothing else is.
        // On the bytes: `contains("/")` on a StringProtocol is Foundation's search (12% of a
        // no-change build). "/" is ASCII, so no other character's bytes contain it.
        if component.utf8.contains(0x2F) { return problem(in: String(component)) ?? .separator }
        if component.isEmpty { return .emptyComponent }
        if component == ".." { return .parent }
        if component.hasPrefix(".") { return .hidden }
        if component.utf8.count > maxComponentBytes { return .tooLong }
        for scalar in component.unicodeScalars {
            switch scalar {
            case "\\": return .backslash
            case ":": return .colon
            // Printable ASCII is never a control, format or unassigned character: skip the
            // Unicode tables (a build's records check thousands of names; this was 15% of a
            // no-change build).
            case " "..."~": continue
            default:
                if isUnprintable(scalar) { return .control }
            }
        }
        return nil
    }

    /// `text` quoted for a message, with anything unprintable escaped, so a hostile name can
    /// neither hide in nor rewrite the line that reports it (`PrintableText.quoted`).
    public static func quoted(_ text: String) -> String { PrintableText.quoted(text) }

    /// Whether `scalar` could hide in or rewrite the line that shows it: a control character
    /// (a line feed, an escape sequence's ESC), an invisible formatting one (a right-to-left
    /// override, a zero-width space), a line or paragraph separator, or one with no meaning yet.
    public static func isUnprintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse: true
        default: false
        }
    }
}
