import Foundation

/// What of a remote's text may be shown: an on-the-fly connection string
/// (`:s3,access_key_id=…,secret_access_key=…:bucket`) carries secrets in its parameters' values.
extension RcloneDestination {
    /// `<remote>:<path>` for messages: the values of a connection string's parameters
    /// (`:s3,access_key_id=…,secret_access_key=…:bucket`) replaced by `***`.
    static func redacted(remote: String) -> String {
        guard let backendEnd = backendEnd(of: remote) else { return remote }
        let backend = remote[..<backendEnd]
        let parts = backend.split(separator: ",", omittingEmptySubsequences: false).enumerated().map { index, part in
            guard index > 0, let equals = part.firstIndex(of: "=") else { return String(part) }
            return part[..<equals] + "=***"
        }
        return parts.joined(separator: ",") + remote[backendEnd...]
    }

    /// The values of a connection string's parameters, to cut out of rclone's messages.
    static func secrets(of remote: String) -> [String] {
        guard let backendEnd = backendEnd(of: remote) else { return [] }
        return remote[..<backendEnd].split(separator: ",").dropFirst().compactMap { part in
            guard let equals = part.firstIndex(of: "=") else { return nil }
            let value = part[part.index(after: equals)...].trimmingCharacters(in: CharacterSet(charactersIn: "'\""))
            return value.count >= 3 ? value : nil
        }
    }

    /// Where the remote's name and parameters end: the first `:` after the leading one of an
    /// on-the-fly remote, outside quotes.
    private static func backendEnd(of remote: String) -> String.Index? {
        var index = remote.hasPrefix(":") ? remote.index(after: remote.startIndex) : remote.startIndex
        var quote: Character?
        while index < remote.endIndex {
            let character = remote[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == ":" {
                return index
            }
            index = remote.index(after: index)
        }
        return nil
    }
}
