/// Issue names are the catalog's permanent keys and become file and URL names, so only
/// letters, digits, `-`, `_` and `.` are allowed, and a name may not start with `.`.
public enum IssueName {
    /// The longest issue name, in bytes.
    public static let maxBytes = 128

    /// Whether `name` is safe to use as an issue's file and URL name: a safe path component
    /// (the rule every name from outside follows, `SafeRelativePath.isSafeComponent`) that is
    /// also short and portable: ASCII letters, digits, `-`, `_` and `.` only.
    public static func isSafe(_ name: String) -> Bool {
        guard SafeRelativePath.isSafeComponent(name), name.utf8.count <= maxBytes else { return false }
        return name.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".": return true
            default: return false
            }
        }
    }
}
