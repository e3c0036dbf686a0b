import Foundation

extension IssueLibrary {
    /// For an app's background-fetch handler: refreshes from the last catalog and starts
    /// downloading the newest issue when the refresh added it, plus any pending downloads.
    /// Returns quickly (it does not wait for downloads), as the system allows about 30 seconds.
    /// - Returns: new data when the shelf changed, no data when not, failed when the catalog
    ///   could not be fetched.
    public func performBackgroundFetch() async -> NewContentResult {
        let result: RefreshResult
        do {
            result = try await refresh()
        } catch {
            log("background fetch failed: \(error)")
            return .failed
        }
        resumePendingDownloads()
        if let newest = issues.first, result.added.contains(newest.name) {
            do {
                try startDownload(newest.name)
            } catch {
                log("background fetch could not start \(newest.name): \(error)")
                return .failed
            }
        }
        return result.hasChanges ? .newData : .noData
    }

    /// For a silent push (`aps.content-available` = 1): refreshes, then downloads the issue the
    /// push names (`content-name`, or `content-id` matched against names and product
    /// identifiers), or else the newest issue, and waits for it, so that a failure is reported
    /// instead of silently doing nothing.
    /// - Returns: new data when an issue was downloaded or the shelf changed, no data when
    ///   there was nothing to do, failed when the refresh or the download failed or the named
    ///   issue is not in the catalog.
    public func handleRemoteNotification(_ notification: RemoteNotification) async -> NewContentResult {
        guard notification.isContentAvailable else { return .noData }
        let refreshed: RefreshResult
        do {
            refreshed = try await refresh()
        } catch {
            log("push: refresh failed: \(error)")
            return .failed
        }
        let target: IssueRecord?
        if let name = notification.issueName {
            target = state.issues[name]
        } else if let id = notification.contentID {
            target = state.issues[id] ?? state.issues.values.first { $0.productID == id }
        } else {
            target = issues.first.flatMap { state.issues[$0.name] }
        }
        guard let target else {
            let named = notification.issueName != nil || notification.contentID != nil
            log("push: no issue for \(notification.issueName ?? notification.contentID ?? "the newest")")
            return named ? .failed : (refreshed.hasChanges ? .newData : .noData)
        }
        if target.status == .available, !target.hasUpdate {
            return refreshed.hasChanges ? .newData : .noData
        }
        do {
            try await download(target.name)
            return .newData
        } catch {
            log("push: download of \(target.name) failed: \(error)")
            return .failed
        }
    }
}
