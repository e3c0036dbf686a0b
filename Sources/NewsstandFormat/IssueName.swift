/// Issue names are the catalog's permanent keys and become file and URL names, so only
/// letters, digits, `-`, `_` and `.` are allowed, and a name may not start with `.`.
public enum IssueName {
    /// Whether `name` is safe to use as an issue's file and URL name.
    public static func isSafe(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first != ".", name.utf8.count <= 128 else { return false }
        return name.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".": return true
            default: return false
            }
        }
    }
}
