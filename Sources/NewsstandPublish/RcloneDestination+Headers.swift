import Foundation
import NewsstandCore

/// What rclone is told to store with each object: the `CacheRules` headers, and for a paid
/// issue's files an ACL that keeps them private.
extension RcloneDestination {
    /// `--header-upload` for both headers: rclone sends them with the upload on the backends
    /// that keep them (S3 and compatibles, GCS, Azure, Swift) and ignores them elsewhere. Each
    /// upload is one rclone run, so each file gets its own.
    static func headerFlags(_ headers: ObjectHeaders) -> [String] {
        ["--header-upload", "Cache-Control: \(headers.cacheControl)", "--header-upload", "Content-Type: \(headers.contentType)"]
    }

    /// For a path under `paid/`: `--s3-acl bucket-owner-full-control`, on the upload and on every
    /// server-side copy or move (S3 does not copy an object's ACL: a copy gets the remote's
    /// `acl`, which may be `public-read`). That canned ACL grants the bucket owner alone, so a
    /// paid file is never public through an ACL; it is also the one ACL a bucket with ACLs
    /// disabled (AWS's default, "bucket owner enforced") accepts. Other backends ignore it.
    /// Hidden names (the state file, which lists paid files too; a publish's temporary names
    /// and its lock) get the same ACL: no reader needs them.
    static func aclFlags(for path: String) -> [String] {
        let hidden = path.split(separator: "/").last?.hasPrefix(".") ?? false
        return path.hasPrefix(IssueAccess.paidFolder + "/") || hidden ? ["--s3-acl", "bucket-owner-full-control"] : []
    }
}
