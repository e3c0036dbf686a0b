import NewsstandReader
import SwiftUI

/// The sample reader: a shelf of the Aurora sample magazine and a reader paging through its issues.
@main
struct ReaderApp: App {
    @UIApplicationDelegateAdaptor(AppDelegate.self) private var appDelegate
    @Environment(\.scenePhase) private var scenePhase

    var body: some Scene {
        WindowGroup {
            switch Magazine.opened {
            case .success(let library):
                ShelfScreen(library: library)
            case .failure(let error):
                Text("The shelf could not be opened: \(String(describing: error))").padding()
            }
        }
        .onChange(of: scenePhase) { phase in
            Magazine.scenePhaseChanged(to: phase)
        }
    }
}
