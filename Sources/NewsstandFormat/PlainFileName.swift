/// A plain file name: one name in one folder, nothing that reaches another folder or hides.
/// The rule for asset references and for every file name a build record (manifest) lists.
public enum PlainFileName {
    /// Whether `name` is not empty, not hidden (so not `.` or `..`), and has no `/`, `\` or NUL.
    public static func isValid(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && !name.contains("/") && !name.contains("\\") && !name.contains("\0")
    }
}
