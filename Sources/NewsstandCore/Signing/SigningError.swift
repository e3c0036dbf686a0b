/// Why a URL could not be signed, or a signing secret not read. No case carries the secret or
/// any part of it, so an error can be printed, logged and reported as it is.
public enum SigningError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The secret file cannot be opened or read (missing, not a regular file, a system error).
    case secretFileUnreadable(FileSystemError)
    /// The secret file is larger than a secret (`limit` bytes).
    case secretFileTooLarge(path: String, limit: Int)
    /// Users other than its owner and group may read or write the secret file (its mode): on
    /// a shared machine they could sign links to every paid issue.
    case secretFileExposed(path: String, mode: UInt32)
    /// The secret is not one `SigningSecret` accepts; `path` is its file, when it came from one.
    case badSecret(path: String?, SecretProblem)
    /// The URL cannot be signed so that the host accepts it (`url` with user information cut).
    case unsignableURL(url: String, URLProblem)
    /// The platform has no MD5 (an OpenSSL restricted to FIPS algorithms).
    case md5Unavailable

    /// What is wrong with a secret's text.
    public enum SecretProblem: Equatable, Sendable, CustomStringConvertible {
        /// Fewer characters than `SigningSecret.minimumLength` (`count` of them).
        case tooShort(count: Int)
        /// More than `SigningSecret.maximumLength`.
        case tooLong(count: Int)
        /// A character (its position, from 1) outside the allowed set, which nginx's quoted
        /// `secure_link_md5` string would read differently (`$`, `"`, `\`, a space).
        case character(position: Int)
        /// Text after the first line: a secret is one line.
        case severalLines

        /// What is wrong, for messages (never the secret's text).
        public var description: String {
            switch self {
            case .tooShort(let count):
                "it has \(count) characters; a secret needs at least \(SigningSecret.minimumLength)"
                    + " (make one with 'openssl rand -base64 32')"
            case .tooLong(let count): "it has \(count) characters; at most \(SigningSecret.maximumLength) are read"
            case .character(let position):
                "character \(position) is not a letter, a digit or one of - _ . ~ + / ="
                    + " (nginx's secure_link_md5 line would read it differently)"
            case .severalLines: "it holds more than one line; the secret is the first line alone"
            }
        }
    }

    /// Why a URL cannot be signed.
    public enum URLProblem: Equatable, Sendable, CustomStringConvertible {
        /// Not an absolute http(s) URL with a host.
        case notHTTP
        /// It carries user information (`user:password@`).
        case userInformation
        /// It has a fragment (`#…`), which is never sent to the host.
        case fragment
        /// Its path has `.`, `..` or empty segments, or an escaped `/`: the host normalises the
        /// path before it checks the signature, so it would check another path.
        case pathNotNormal
        /// Its query already has this argument (`md5` or `expires`): the host would read the
        /// first one.
        case alreadyHas(argument: String)
        /// Longer than `SignedURL.maximumLength`.
        case tooLong

        /// Why, for messages.
        public var description: String {
            switch self {
            case .notHTTP: "it is not an absolute http(s) URL with a host"
            case .userInformation: "it carries user information (user:password@)"
            case .fragment: "it has a fragment (#...), which is never sent to the host"
            case .pathNotNormal:
                "its path has '.', '..' or empty segments, or an escaped '/':"
                    + " the host checks the signature against the normalised path"
            case .alreadyHas(let argument): "its query already has '\(argument)=': the host would read the first one"
            case .tooLong: "it is longer than \(SignedURL.maximumLength) bytes"
            }
        }
    }

    /// The message: what failed, where and why; never the secret.
    public var description: String {
        switch self {
        case .secretFileUnreadable(let error): "the secret file \(error.path) cannot be read: \(error.reason)"
        case .secretFileTooLarge(let path, let limit): "the secret file \(path) is larger than \(limit) bytes; it is not a secret"
        case .secretFileExposed(let path, let mode):
            "the secret file \(path) may be read or written by other users (mode \(String(mode & 0o777, radix: 8))):"
                + " anyone on this machine could sign links to every paid issue; 'chmod o-rwx \(path)'"
        case .badSecret(let path, let problem): "the secret\(path.map { " in \($0)" } ?? "") is not usable: \(problem)"
        case .unsignableURL(let url, let problem): "cannot sign \(url): \(problem)"
        case .md5Unavailable:
            "this system's libcrypto has no MD5 (is it restricted to FIPS algorithms?), which nginx's secure_link needs"
        }
    }
}
