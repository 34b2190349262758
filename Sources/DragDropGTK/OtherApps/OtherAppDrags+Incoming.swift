import CDragDropGTKSupport
import CGtk4
import DragDrop
import Foundation

/// Drags between apps, incoming side: a drag from another app over our windows is an external
/// engine session (S1) that copies, or moves where the person holds Shift over a destination
/// that carries out other apps' moves (S2); its data is read only after the drop (P5), and GDK's
/// drop is always finished, success or failure, so the other app never hangs.
extension OtherAppDrags {
    /// `drag-motion` of a drag from another app: starts the external session at the first
    /// position (GTK reports (0, 0) at `drag-enter`), then follows the pointer.
    func dragMotion(_ drop: UnsafeMutableRawPointer, x: Double, y: Double, window: TargetID) -> UInt32 {
        let engine = host.engine
        guard let origin = host.windowOrigins[window] else { return 0 }
        let point = Point(x: origin.x + x, y: origin.y + y)
        let modifiers = externalModifiers(drop)
        let allowed = allowedOperations(drop)
        if let incoming, incoming.drop.raw == drop {
            incoming.window = window
            host.drive {
                engine.otherAppAllows(allowed)
                engine.pointerMoved(to: point, modifiers: modifiers)
            }
        } else {
            endIncomingDrag()
            guard !engine.isDragging, let external = makeExternalDrop(drop, window: window) else { return 0 }
            engine.modifiersChanged(modifiers)
            engine.otherAppAllows(allowed)
            do {
                try engine.beginExternalDrag(items: [external.item], providers: [external.provider], at: point)
            } catch {
                host.report(error)
                return 0
            }
            incoming = external
            host.diagnose(
                "external drag-enter window=\(window) types=\(external.item.types.map(\.mimeType)) app=\(external.item.app)"
            )
            host.reschedule()
        }
        return externalAction(for: drop)
    }

    /// `drag-leave` of a drag from another app that was not dropped here.
    func dragLeave(_ drop: UnsafeMutableRawPointer, window: TargetID) {
        guard let incoming, incoming.drop.raw == drop, incoming.window == window else { return }
        host.diagnose("external drag-leave window=\(window)")
        endIncomingDrag()
    }

    /// `drop` of a drag from another app: the engine drops (the destination loads through
    /// ``DropRequest/data``); GDK's drop is finished when the outcome is known, or at once.
    func drop(_ drop: UnsafeMutableRawPointer, x: Double, y: Double, window: TargetID) {
        // The drop's actions are settled now; GDK would go on following the source's list.
        if dd_x11_drop_stop_following_actions(OpaquePointer(drop)) != 0 {
            host.diagnose("external drop stopped following the source's actions")
        }
        let engine = host.engine
        guard let external = incoming, external.drop.raw == drop, engine.currentSession?.mode == .external,
            let origin = host.windowOrigins[window]
        else {
            host.diagnose("external drop refused: no session for it")
            gdk_drop_finish(OpaquePointer(drop), GdkDragAction(rawValue: 0))
            return
        }
        incoming = nil
        external.dropped = true
        if let x11Drop = lastX11Drop, x11Drop.source == external.sourceWindow {
            external.x11 = x11Drop.selection
            host.diagnose("external drop x11 time=\(x11Drop.selection.time) offered=\(x11Drop.selection.offered)")
        }
        lastX11Drop = nil
        guard externalAction(for: drop) != 0 else {
            // Nothing here takes it, or the other app does not allow a copy (S2: never a move).
            host.diagnose("external drop refused: no destination takes a copy here")
            host.drive { engine.externalDragExited() }
            external.finish(accepted: false)
            return
        }
        let point = Point(x: origin.x + x, y: origin.y + y)
        dropping = external
        external.operation = engine.currentSession?.operation == .move ? .move : .copy
        host.drive {
            engine.pointerMoved(to: point)
            engine.pointerUp(at: point)
        }
        // The outcome event settled it, or the drop waits for a confirmation (U2); otherwise the
        // engine ended without an outcome: nothing took it.
        if dropping === external, engine.currentSession?.awaitingConfirmation != true {
            dropping = nil
            host.diagnose("external drop ended without an outcome")
            external.finish(accepted: false)
        }
    }

    /// Engine events that settle a drop from another app: its outcome, then for a deferred drop
    /// the placeholder resolving or failing.
    func engineEmitted(_ event: FeedbackEvent) {
        switch event {
        case .outcome(let outcome):
            guard let external = dropping else { return }
            dropping = nil
            switch outcome {
            case .completed:
                external.finish(accepted: true)
            case .placeholder(_, let token):
                loading[token] = external
            default:
                external.finish(accepted: false)
                external.removeSavedFolders()
            }
            host.diagnose("external drop outcome=\(outcome.name)")
        case .placeholderResolved(let token):
            guard let external = loading.removeValue(forKey: token) else { return }
            host.diagnose("external drop finished accepted=true")
            external.finish(accepted: true)
            external.removeSavedFolders()
        case .placeholderFailed(let token, let failure):
            guard let external = loading.removeValue(forKey: token) else { return }
            host.diagnose("external drop finished accepted=false reason=\(failure.message)")
            external.finish(accepted: false)
            external.removeSavedFolders()
        default:
            break
        }
    }

    /// See ``GtkDragHost/otherAppDone(with:)``.
    func finishedEarly(_ token: DropToken) {
        guard let external = loading.removeValue(forKey: token) else { return }
        host.diagnose("external drop finished early accepted=true")
        external.finish(accepted: true)
    }

    /// The X11 window a drag came from was destroyed: its app quit or crashed. A drag still
    /// hovering ends; reads of a dropped one fail at once (A6).
    func sourceDestroyed(_ window: UInt) {
        let reason = ExternalDrop.sourceQuitReason
        if let incoming, incoming.sourceWindow == window {
            host.diagnose("external drag source quit while hovering")
            endIncomingDrag()
        }
        for external in loading.values where external.sourceWindow == window {
            host.diagnose("external drag source quit during the transfer")
            external.sourceGone(reason)
        }
        if let dropping, dropping.sourceWindow == window { dropping.sourceGone(reason) }
    }

    /// The name of the app whose drag last entered our windows, when X11 says.
    var enteredAppName: AppID? { lastEnteredSource.flatMap(x11AppName(of:)) }

    // MARK: Helpers

    /// Ends the hovering drag from another app, if any (the engine's external session).
    private func endIncomingDrag() {
        guard let incoming else { return }
        self.incoming = nil
        if !incoming.dropped, host.engine.currentSession?.mode == .external {
            host.drive { host.engine.externalDragExited() }
        }
    }

    /// One item for another app's drag, typed by what it offers (richest first).
    private func makeExternalDrop(_ drop: UnsafeMutableRawPointer, window: TargetID) -> ExternalDrop? {
        guard let formats = gdk_drop_get_formats(OpaquePointer(drop)) else { return nil }
        var types = StandardMimeTypes.received(formats)
        let source = lastEnteredSource
        let portal = FileTransferPortal.offered(in: types)
        types.removeAll(where: FileTransferPortal.isPortalType)
        let portalType = FileTransferPortal.isAvailable ? portal : nil
        if portalType != nil, !types.contains(.uriList) { types.insert(.uriList, at: 0) }
        let directSave = directSaveOffer(offered: types)
        if directSave != nil { types.append(.uriList) }
        guard !types.isEmpty else { return nil }
        let unknown = GtkDragHost.unknownOtherApp
        let app = source.flatMap(x11AppName(of:)) ?? unknown
        nextExternalItem += 1
        let item = DragItem(
            id: TargetID("external-\(nextExternalItem)"),
            name: "\(StandardMimeTypes.describe(types)) from \(app == unknown ? "another app" : app.rawValue)",
            kind: StandardMimeTypes.noun(for: types), types: types,
            app: app == host.engine.app ? unknown : app)
        let external = ExternalDrop(
            drop: GObjectRef(raw: drop), item: item, sourceWindow: source, window: window, readTimeout: readTimeout)
        external.directSave = directSave
        external.portalType = portalType
        return external
    }

    /// X Direct Save offered by the drag that last entered our windows, when it offers neither a
    /// file list nor bytes (an archive manager; `offered` are its MIME types): the name of the file
    /// it would save and where its files go (``DirectSave``); nil otherwise and off X11.
    func directSaveOffer(offered: [ContentType]) -> (name: String, root: URL)? {
        guard let source = lastEnteredSource, !offered.contains(.uriList),
            !lastEnteredTargets.contains(ContentType.octetStream.mimeType),
            let name = DirectSave.offeredName(source: source, targets: lastEnteredTargets)
        else { return nil }
        return (name, host.fileExport.directory)
    }

    /// MOVE when the engine proposes a move here (S2: the person holds Shift over a destination
    /// that carries out other apps' moves) and the other app allows one; COPY when it proposes a
    /// drop otherwise and the other app allows a copy; nothing else.
    private func externalAction(for drop: UnsafeMutableRawPointer) -> UInt32 {
        guard let operation = host.engine.currentSession?.operation, operation.isPerformable else { return 0 }
        let allowed = gdk_drop_get_actions(OpaquePointer(drop)).rawValue
        if operation == .move, allowed & GDK_ACTION_MOVE.rawValue != 0 { return GDK_ACTION_MOVE.rawValue }
        return allowed & GDK_ACTION_COPY.rawValue != 0 ? GDK_ACTION_COPY.rawValue : 0
    }

    /// What the other app's drag allows now (S2): GDK's actions for the drop, which on X11
    /// follow the source's suggestion (GDK 4.8 gives a drop whose source suggests a move only
    /// that action). The engine then refuses, with the reason, a copy it cannot answer, instead
    /// of highlighting a destination that would refuse (F4).
    private func allowedOperations(_ drop: UnsafeMutableRawPointer) -> DropOperations {
        let actions = gdk_drop_get_actions(OpaquePointer(drop)).rawValue
        var allowed: DropOperations = []
        if actions & GDK_ACTION_COPY.rawValue != 0 { allowed.insert(.copy) }
        if actions & GDK_ACTION_MOVE.rawValue != 0 { allowed.insert(.move) }
        return allowed
    }

    /// The modifiers of a drag from another app: the move modifier while the other app suggests
    /// a move, which is what GTK and Qt sources do while the person holds Shift (X11's
    /// XdndPosition; the keyboard is the other app's during its drag, so it cannot be read
    /// here). GDK 4.8 then gives the drop that one action, so a destination that only copies
    /// cannot answer a copy: the engine is told (``allowedOperations(_:)``) and refuses there
    /// with the reason (the other app shows its not-allowed pointer). None
    /// elsewhere: a Wayland compositor does not pass the source's modifiers on.
    private func externalModifiers(_ drop: UnsafeMutableRawPointer) -> DragModifiers {
        guard lastSuggestedAction == GDK_ACTION_MOVE.rawValue,
            gdk_drop_get_actions(OpaquePointer(drop)).rawValue & GDK_ACTION_MOVE.rawValue != 0
        else { return [] }
        return .forceMove
    }
}

extension GtkDragHost {
    /// The app named for items dragged in from another app when X11 does not say which.
    public static let unknownOtherApp: AppID = "another app"
}
