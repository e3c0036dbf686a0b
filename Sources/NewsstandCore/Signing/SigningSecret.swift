import Foundation

/// The secret a host's `secure_link_md5` holds, which `SignedURL` signs with. It never shows:
/// its description, debug description and mirror are a placeholder, no error carries it, and
/// it comes from a file (never a command line, which every user of the machine can read).
///
/// A secret is one line of 16 to 1,024 letters, digits and `- _ . ~ + / =` (what `openssl
/// rand -base64 32` prints): characters nginx takes literally inside the quoted
/// `secure_link_md5` string, where `$` would start a variable and a space or quote end it.
public struct SigningSecret: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The secret's bytes (ASCII), as the host's configuration holds them.
    let bytes: [UInt8]

    /// The fewest characters accepted: an MD5 over a short secret can be searched for.
    public static let minimumLength = 16
    /// The most characters accepted.
    public static let maximumLength = 1024
    /// The largest secret file read.
    public static let maximumFileBytes = 4096

    /// A secret from its text (without a line end), checked.
    public init(_ text: String) throws(SigningError) {
        bytes = try Self.check(Array(text.utf8), path: nil)
    }

    /// Reads the secret from its file: the first line (its `\n` or `\r\n` dropped), nothing
    /// after it but line ends. The file may be reached through links (a mounted secret is
    /// often one), must be a regular file of at most 4 KiB, and must give other users no
    /// access at all (`chmod o-rwx`): on a shared machine they could sign links to every paid
    /// issue. Blocking (a file read).
    public static func read(fromFile path: String) throws(SigningError) -> SigningSecret {
        let file: OpenFile
        do {
            file = try OpenFile.open(URL(fileURLWithPath: path))
        } catch {
            throw .secretFileUnreadable(error)
        }
        // The mode of what was opened (a link's target), checked before a byte is read.
        var status = stat()
        guard fstat(file.descriptor, &status) == 0 else { throw .secretFileUnreadable(.fromErrno(path)) }
        let mode = UInt32(status.st_mode)
        guard mode & 0o007 == 0 else { throw .secretFileExposed(path: path, mode: mode) }
        let data: Data?
        do {
            data = try file.readAll(limit: maximumFileBytes)
        } catch {
            throw .secretFileUnreadable(error)
        }
        guard let data else { throw .secretFileTooLarge(path: path, limit: maximumFileBytes) }
        var line = Array(data)
        if let end = line.firstIndex(of: 0x0A) {
            guard line[end...].allSatisfy({ $0 == 0x0A || $0 == 0x0D }) else {
                throw .badSecret(path: path, .severalLines)
            }
            line = Array(line[..<end])
        }
        if line.last == 0x0D { line.removeLast() }
        return SigningSecret(checked: try check(line, path: path))
    }

    private init(checked bytes: [UInt8]) {
        self.bytes = bytes
    }

    private static func check(_ bytes: [UInt8], path: String?) throws(SigningError) -> [UInt8] {
        if let index = bytes.firstIndex(where: { !isAllowed($0) }) {
            throw .badSecret(
                path: path, bytes[index] == 0x0A || bytes[index] == 0x0D ? .severalLines : .character(position: index + 1))
        }
        guard bytes.count >= minimumLength else { throw .badSecret(path: path, .tooShort(count: bytes.count)) }
        guard bytes.count <= maximumLength else { throw .badSecret(path: path, .tooLong(count: bytes.count)) }
        return bytes
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: Array("-_.~+/=".utf8).contains(byte)
        }
    }

    /// A placeholder: the secret is never shown.
    public var description: String { "<signing secret>" }
    /// A placeholder, for `debugPrint` and the debugger.
    public var debugDescription: String { "SigningSecret(<hidden>)" }
    /// No children: `dump` and reflection show nothing of the secret.
    public var customMirror: Mirror { Mirror(self, children: []) }
}
