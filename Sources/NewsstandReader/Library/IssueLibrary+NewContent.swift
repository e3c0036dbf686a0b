import Foundation

extension IssueLibrary {
    /// For an app's background-fetch handler: refreshes from the last catalog and hands the
    /// newest issue, when the refresh added it, to the background engine (automatic intent), or,
    /// without one, starts it in process; never waits for a download. Answers within
    /// `LibraryConfiguration.newContentDeadline` (default 25 s; the system allows about 30).
    /// - Returns: new data when the shelf changed, no data when not, failed when the catalog
    ///   could not be fetched in time.
    public func performBackgroundFetch() async -> NewContentResult {
        await withinDeadline {
            let result: RefreshResult
            do {
                result = try await self.refresh()
            } catch {
                await self.log("background fetch failed: \(error)")
                return .failed
            }
            await self.resumePendingDownloads()
            if let newest = await self.issues.first, result.added.contains(newest.name) {
                guard await self.hand(newest.name, waiting: false) else { return .failed }
            }
            return result.hasChanges ? .newData : .noData
        }
    }

    /// For a silent push (`aps.content-available` = 1): refreshes, then hands the issue the push
    /// names (`issue(for:)`) to the background engine (automatic intent) and answers; without
    /// one, downloads it in process and waits for it, but never past
    /// `LibraryConfiguration.newContentDeadline` (the download goes on while the app runs).
    /// Records `AnalyticsEvent.notificationReceived`.
    /// - Returns: new data when a download was handed over or the shelf changed, no data when
    ///   there was nothing to do, failed when the refresh failed or ran out of time, the
    ///   download could not be started, or the named issue is not in the catalog.
    public func handleRemoteNotification(_ notification: RemoteNotification) async -> NewContentResult {
        guard notification.isContentAvailable else { return .noData }
        return await withinDeadline {
            let refreshed: RefreshResult
            do {
                refreshed = try await self.refresh()
            } catch {
                await self.log("push: refresh failed: \(error)")
                await self.recordReceived(notification, issue: nil)
                return .failed
            }
            let target = await self.issue(for: notification)
            await self.recordReceived(notification, issue: target?.name)
            guard let target else {
                let named = notification.issueName != nil || notification.contentID != nil
                await self.log("push: no issue for \(notification.issueName ?? notification.contentID ?? "the newest")")
                return named ? .failed : (refreshed.hasChanges ? .newData : .noData)
            }
            if target.status == .available, !target.hasUpdate {
                return refreshed.hasChanges ? .newData : .noData
            }
            return await self.hand(target.name) ? .newData : .failed
        }
    }

    /// The issue a push names: `content-name`, else `content-id` matched against names and
    /// product identifiers, else the newest issue; nil when the named one is not on the shelf.
    public func issue(for notification: RemoteNotification) -> Issue? {
        if let name = notification.issueName { return issue(named: name) }
        if let id = notification.contentID {
            return issue(named: id) ?? state.issues.values.first { $0.productID == id }.map(shelfIssue)
        }
        return issues.first
    }

    /// For the app's handler of a tap on a notification: records
    /// `AnalyticsEvent.notificationOpened` with the issue it names.
    public func recordNotificationOpened(_ notification: RemoteNotification) {
        configuration.analytics?.record(.notificationOpened(issue: issue(for: notification)?.name))
    }

    private func recordReceived(_ notification: RemoteNotification, issue: String?) {
        configuration.analytics?.record(.notificationReceived(issue: issue))
    }

    /// Hands `name` to the background engine when one is in use (whether it took it), else
    /// starts it in process and, when `waiting`, waits for it (the deadline cuts that short;
    /// the download goes on while the app runs): whether it is on its way or done.
    private func hand(_ name: String, waiting: Bool = true) async -> Bool {
        do {
            if backgroundEngine != nil {
                try await startBackgroundDownload(name, intent: .automatic)
                return true
            }
            try startDownload(name)
        } catch {
            log("could not start \(name): \(error)")
            return false
        }
        guard waiting, let task = running[name]?.task else { return true }
        if case .failure(let error) = await task.value {
            log("download of \(name) failed: \(error)")
            return false
        }
        return true
    }

    /// `work`'s answer, or failed once `newContentDeadline` has passed (the work is cancelled;
    /// a download it handed over goes on).
    private func withinDeadline(_ work: @escaping @Sendable () async -> NewContentResult) async -> NewContentResult {
        let deadline = configuration.newContentDeadline
        let clock = configuration.clock
        return await withTaskGroup(of: NewContentResult?.self) { group in
            group.addTask { await work() }
            group.addTask {
                await clock.sleep(max(0, deadline))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            guard let first else {
                self.log("new content: no answer within \(deadline) s")
                return .failed
            }
            return first
        }
    }
}
