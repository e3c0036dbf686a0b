import Foundation
import NewsstandCore
import NewsstandReader

/// The daemon's RPC secret: 32 random bytes as hex, new for every daemon started. Whoever has
/// it controls the daemon (aria2 writes any file its client names), so it lives only in two
/// files of mode 0600 in the engine's folder (the daemon's settings and `Aria2DaemonRecord`)
/// and in requests to a port held by the daemon itself; it never appears on a command line,
/// in a log or in an error, and prints as `<secret>`.
struct Aria2Secret: Equatable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The hex digits, for the daemon's settings and the `token:` parameter only.
    let hex: String

    /// A secret from the system's random source.
    static func random() -> Aria2Secret {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Aria2Secret(checked: bytes.map { String(format: "%02x", $0) }.joined())
    }

    /// A secret read back from a file: exactly 64 lowercase hex digits, or nil.
    init?(hex: String) {
        guard SHA256.isHex(hex) else { return nil }
        self.hex = hex
    }

    private init(checked hex: String) { self.hex = hex }

    var description: String { "<secret>" }
    var debugDescription: String { "<secret>" }
}
