// Not on tvOS, nor on visionOS, whose SDK has Background Assets but `BAURLDownload`'s initializer
// only from visionOS 2.4 (not a platform the package declares).
#if canImport(BackgroundAssets) && !os(tvOS) && !os(visionOS)
    import BackgroundAssets
    import Foundation

    /// The Background Assets glue (Apple platforms only; everything it decides is in
    /// `BackgroundAssetsPlan`, which is tested on Linux). An extension's
    /// `downloads(for:manifestURL:extensionInfo:)` returns `plan.downloads(applicationGroup:)`;
    /// the system stores finished files in the app group's container, and the app adopts each
    /// (`IssueLibrary.adopt(_:for:)`) when `BADownloadManager` reports it.
    ///
    /// **Experimental.** Compiled only by the macOS CI job (`.github/workflows/apple.yml`;
    /// Linux has no Background Assets), never run on a device. What is missing: the extension itself (a `BADownloaderExtension`, in no sample),
    /// and a synchronous move of the system's file before the `BADownloaderExtension` or
    /// `BADownloadManagerDelegate` callback returns (the system deletes it then), followed by an
    /// async install: `IssueLibrary.adopt(_:for:)` is async, so it cannot be that move.
    @available(iOS 16.4, macOS 13.3, *)
    extension BackgroundAssetsPlan {
        /// The plan as Background Assets downloads, stored in `applicationGroup`'s container.
        public func downloads(applicationGroup: String) -> Set<BADownload> {
            var downloads: Set<BADownload> = []
            for asset in essential + nonEssential {
                let download = BAURLDownload(
                    identifier: asset.identifier, request: URLRequest(url: asset.url), essential: asset.isEssential,
                    fileSize: Int(asset.size), applicationGroupIdentifier: applicationGroup, priority: .default)
                downloads.insert(download)
            }
            return downloads
        }
    }
#endif
