import Foundation

/// A real S3 API on loopback: moto's server (`moto[server]` from PyPI, `make deps`), started
/// by `Scripts/moto_s3.py` on a port the kernel picked and the script bound before printing
/// it, with one bucket, in memory. A `PythonServer` (supervised): it dies with the test
/// process. Reached by rclone through a remote configured by environment variables alone
/// (`rcloneEnvironment`), and by readers at `objectURL`.
public final class MotoS3: Sendable {
    private let server: PythonServer
    /// The bucket the script made.
    public let bucket: String
    /// The rclone remote's name in `rcloneEnvironment`.
    public static let remote = "motos3"
    /// moto takes any credentials; these are never printed by publish (a test checks).
    public static let accessKey = "AKIANEWSSTANDTEST01"
    public static let secretKey = "newsstand-test-secret-key-do-not-print"

    public var port: Int { server.port }
    /// `http://127.0.0.1:<port>/`.
    public var endpoint: URL { URL(string: "http://127.0.0.1:\(port)/")! }
    /// Where readers fetch `path` of the bucket (path-style).
    public func objectURL(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)/\(bucket)/\(path)")! }

    /// Starts moto with a bucket named `bucket`.
    public init(bucket: String = "magazine") throws {
        self.bucket = bucket
        server = try PythonServer(script: PythonServer.script("moto_s3.py"), arguments: [bucket])
    }

    /// Stops the server.
    public func stop() { server.stop() }

    /// `publish --to` for `folder` in the bucket.
    public func destination(_ folder: String) -> String { "rclone:\(Self.remote):\(bucket)/\(folder)" }

    /// The environment rclone needs, and nothing else of the machine's but PATH and HOME: the
    /// remote as `RCLONE_CONFIG_<NAME>_*` variables (no config file), objects uploaded
    /// `public-read` (paid and hidden files get the bucket owner's ACL from publish). Without
    /// `AWS_CA_BUNDLE`, with which rclone 1.60's S3 client fails at once.
    public var rcloneEnvironment: [String: String] {
        let name = "RCLONE_CONFIG_\(Self.remote.uppercased())_"
        var environment = ProcessInfo.processInfo.environment.filter { ["PATH", "HOME", "TMPDIR", "LANG"].contains($0.key) }
        environment["RCLONE_CONFIG"] = "/nonexistent/rclone.conf"
        for (key, value) in [
            "TYPE": "s3", "PROVIDER": "Other", "ENDPOINT": "http://127.0.0.1:\(port)", "ACCESS_KEY_ID": Self.accessKey,
            "SECRET_ACCESS_KEY": Self.secretKey, "REGION": "us-east-1", "FORCE_PATH_STYLE": "true", "ACL": "public-read",
        ] {
            environment[name + key] = value
        }
        return environment
    }

    /// One request moto answered.
    public struct Request: Decodable, Sendable, Equatable {
        public var method: String
        public var path: String
        public var query: String
        public var status: Int
        public var ifNoneMatch: String?
        public var ifModifiedSince: String?
    }

    /// Every request answered so far, in order.
    public func requests() async throws -> [Request] {
        let data = try await HTTPGet.send(URL(string: "http://127.0.0.1:\(port)/__newsstand/requests")!).body
        return try data.split(separator: UInt8(ascii: "\n")).map { try JSONDecoder().decode(Request.self, from: Data($0)) }
    }
}
