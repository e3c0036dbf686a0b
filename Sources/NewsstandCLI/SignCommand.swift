import Foundation
import NewsstandCore

/// `newsstand sign`: prints a URL signed for nginx's `secure_link` (`SignedURL`), as a
/// publisher's entitlement service hands one to a reader who bought the issue.
enum SignCommand: Command {
    struct Options: CommandOptions {
        var url = ""
        var secretFile = ""
        var expires = Duration.seconds(0)

        static var arguments: [Argument<Self>] {
            [
                .operand(
                    \.url, "url", .url, help: "the URL to sign: a paid issue's bundle, index or book (<BaseURL>paid/<name>/...)"),
                .required(
                    \.secretFile, "--secret-file", .file,
                    help: "the file holding the secret of the host's secure_link_md5 line (one line; no access for other users)"),
                .required(\.expires, "--expires", help: "how long the link works: 3600 (seconds), 90m, 12h, 7d"),
            ]
        }
    }

    static let declaration = CommandDeclaration(
        name: "sign", summary: "print a URL signed for nginx's secure_link, valid for a while (paid issues)",
        arguments: Options.arguments,
        description: [
            "Appends md5= and expires= to the URL, as nginx's secure_link module checks them with 'secure_link $arg_md5,$arg_expires; secure_link_md5 \"$secure_link_expires$uri <secret>\";': md5 is the base64url MD5 (no padding) of the expiry time, the URL's path and the secret; expires is the expiry time in seconds since 1970. No client address goes in: a phone changes networks in the middle of a download.",
            "The secret is read from a file (never from the command line, which other users of the machine can read) and never printed. The file must not be readable or writable by other users.",
        ],
        exitStatuses: [(0, "the signed URL was printed"), (1, "the secret file or the URL cannot be used"), (2, "usage error")])

    static func run(_ options: Options, in context: CommandContext) throws -> Int32 {
        let secret = try SigningSecret.read(fromFile: options.secretFile)
        let signed = try SignedURL.sign(options.url, validFor: options.expires.components.seconds, secret: secret)
        context.console.out(signed)
        return ExitStatus.success
    }
}
