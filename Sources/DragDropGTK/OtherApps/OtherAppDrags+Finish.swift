import CGtk4
import DragDrop

/// Drags between apps, the end of an outgoing one: after our drag was dropped on another app,
/// GTK keeps the drag (its image, and no new drag can start) until that app says it finished
/// (XdndFinished on X11, `dnd_finished` on Wayland). An app that hangs, or is killed while it
/// reads, never says so. The drag is given up, said to have failed and its image taken away,
/// when the other app's window goes away (X11 tells at once), when it has neither finished nor
/// asked for data for ``finishTimeout`` seconds, when the person presses Escape in one of our
/// windows, or when they start another drag: a drag never gets stuck.
extension OtherAppDrags {
    /// Why a drop in another app was given up.
    enum GiveUp {
        /// The other app's window went away before it finished.
        case quit
        /// It neither finished nor asked for data for ``OtherAppDrags/finishTimeout`` seconds.
        case silent
        /// The person pressed Escape, or started another drag.
        case cancelled
    }

    /// Watches GTK's drag `drag` for its drop on another app (`drop-performed`).
    func watchFinish(of drag: UnsafeMutableRawPointer) {
        finishWatch = nil
        GSignal.connect(drag, "drop-performed") { [weak self] in self?.dropPerformed() }
    }

    /// Whether our drag was dropped and waits for another app to finish it.
    var isWaitingForOtherApp: Bool { finishWatch != nil && host.gdkDrag != nil }

    private func dropPerformed() {
        let watch = FinishWatch()
        finishWatch = watch
        armSilence(watch)
    }

    /// The other app asked for data: it is alive, the silence starts again.
    func transferActivity() {
        guard let watch = finishWatch else { return }
        armSilence(watch)
    }

    private func armSilence(_ watch: FinishWatch) {
        watch.generation += 1
        let generation = watch.generation
        GLibSource.once(afterMilliseconds: UInt32(finishTimeout * 1000)) { [weak self, weak watch] in
            guard let self, let watch, watch === self.finishWatch, watch.generation == generation else { return }
            self.giveUp(.silent)
        }
    }

    /// GTK's drag ended (the other app finished, or it was given up): nothing more to wait for.
    func dragFinished() { finishWatch = nil }

    /// Our drag's target window (XdndStatus) was destroyed: its app quit or crashed.
    func targetDestroyed(_ window: UInt) {
        guard window == statusTarget else { return }
        statusTarget = nil
        if isWaitingForOtherApp { giveUp(.quit) }
    }

    /// Gives up a drop another app has not finished: the engine session fails saying why (F7,
    /// A6: nothing changed here), and GTK's drag ends, its image with it.
    func giveUp(_ why: GiveUp) {
        guard isWaitingForOtherApp, let source = host.gdkDrag?.source else { return }
        finishWatch = nil
        let app = statusTargetApp
        let named: [String: MessageArgument] = app.map { ["app": .name($0.rawValue)] } ?? [:]
        let seconds = Int(finishTimeout)
        let reason: String
        switch why {
        case .quit: reason = Localization.format(app == nil ? .otherAppQuit : .otherAppQuitNamed, named)
        case .silent:
            reason = Localization.format(app == nil ? .otherAppSilent : .otherAppSilentNamed, count: seconds, named)
        case .cancelled:
            reason = Localization.format(app == nil ? .cancelledWhileTaking : .cancelledWhileTakingNamed, named)
        }
        host.diagnose("drop in another app given up: \(why)")
        if host.engine.isDragging { host.drive { host.engine.dropRefused(by: app, reason: reason) } }
        gtk_drag_source_drag_cancel(OpaquePointer(source.raw))
    }
}

/// The wait for another app to finish our drop.
final class FinishWatch {
    /// Counts the re-armed silences: only the newest may give up.
    var generation = 0
}
