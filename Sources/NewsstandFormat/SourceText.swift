/// Helpers for writing messages that quote user values.
public enum SourceText {
    /// A value quoted for a message, shortened when long.
    public static func quoted(_ value: String) -> String {
        let limit = 60
        if value.count <= limit { return "'\(value)'" }
        return "'\(value.prefix(limit))…'"
    }
}
