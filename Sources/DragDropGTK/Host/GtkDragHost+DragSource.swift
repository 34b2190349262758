import CDragDropGTKSupport
import CGtk4
import DragDrop

/// Drag start and end: a `GtkDragSource` on each draggable widget. GTK detects the drag gesture
/// (past `gtk-dnd-drag-threshold`, 3 pixels: F1); the engine session runs from `drag-begin`
/// to the drop or to `drag-end`.
extension GtkDragHost {
    func attachDragSource(to widget: UnsafeMutablePointer<GtkWidget>, item: TargetID) -> GObjectRef? {
        guard let source = gtk_drag_source_new() else { return nil }
        gtk_drag_source_set_actions(
            source, GdkDragAction(rawValue: GDK_ACTION_COPY.rawValue | GDK_ACTION_MOVE.rawValue))
        let raw = UnsafeMutableRawPointer(source)
        let sourceBits = PointerBits(raw)  // not a reference: the closures live inside the source
        GSignal.connect(
            raw, "prepare",
            pointReturningPointer: { [weak self] x, y in
                guard let self, let source = sourceBits.pointer else { return nil }
                return self.prepareDrag(item: item, source: source, x: x, y: y)
            })
        GSignal.connect(
            raw, "drag-begin",
            pointer: { [weak self] drag in
                guard let self, let drag, let source = sourceBits.pointer else { return }
                self.dragBegan(drag, source: source)
            })
        GSignal.connect(
            raw, "drag-cancel",
            pointerEnumReturningBool: { [weak self] _, reason in
                self?.dragCancelled(reason: reason) ?? false
            })
        GSignal.connect(
            raw, "drag-end",
            pointerBool: { [weak self] _, deleteData in
                self?.dragEnded(deleteData: deleteData)
            })
        let ref = GObjectRef(raw: raw)
        gtk_widget_add_controller(widget, source)  // the widget takes the creation reference
        return ref
    }

    func detachDragSource(_ entry: Registered) {
        guard let controller = entry.dragSource else { return }
        if controller.raw == gdkDrag?.source.raw {
            deferredDetach.append((entry.widget, controller))
            return
        }
        gtk_widget_remove_controller(entry.widget.widget, OpaquePointer(controller.raw))
    }

    /// `prepare`: decides what the drag carries and what GTK offers for it. Returns a content
    /// provider (transfer full) or nil to refuse the drag.
    private func prepareDrag(item: TargetID, source: UnsafeMutableRawPointer, x: Double, y: Double)
        -> UnsafeMutableRawPointer?
    {
        // A drop another app never finished does not hold the next drag up.
        if otherApps.isWaitingForOtherApp { otherApps.giveUp(.cancelled) }
        guard !engine.isDragging, gdkDrag == nil else { return nil }
        guard let entry = registered[item], let window = registered[entry.window],
            let origin = windowOrigins[entry.window]
        else { return nil }
        if let gate = entry.delegate,
            !gate.dragHost(self, canStartDragOf: item, atWidgetX: x, y: y)
        {
            return nil
        }
        refreshFrames()
        var inWidget = graphene_point_t(x: Float(x), y: Float(y))
        var inWindow = graphene_point_t()
        guard gtk_widget_compute_point(entry.widget.widget, window.widget.widget, &inWidget, &inWindow) != 0 else {
            return nil
        }
        let owner = entry.delegate
        var items = owner?.dragHost(self, itemsForDragStartingAt: item) ?? [item]
        if items.isEmpty { items = [item] }
        pendingStart = PendingStart(
            items: items, point: Point(x: origin.x + Double(inWindow.x), y: origin.y + Double(inWindow.y)),
            hotspot: (x, y))
        // A Wayland drag states what it offers once, before it starts (S2: other apps copy
        // unless the person asks otherwise): a move only with Shift held now.
        wayland.prepareOffer(source, modifiers: currentModifiers())
        diagnose("prepare item=\(item) items=\(items.map(\.rawValue))")
        return otherApps.exportContent(for: items, owner: owner)
    }

    /// A union of byte providers, one per representation, richest first (P1).
    static func contentProvider(_ representations: [ExportedRepresentation]) -> UnsafeMutableRawPointer? {
        var providers: [UnsafeMutablePointer<GdkContentProvider>?] = representations.map { rep in
            let bytes = rep.bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
            defer { g_bytes_unref(bytes) }
            return gdk_content_provider_new_for_bytes(rep.mimeType, bytes)
        }
        let union = providers.withUnsafeMutableBufferPointer {
            gdk_content_provider_new_union($0.baseAddress, gsize($0.count))
        }
        return union.map { UnsafeMutableRawPointer($0) }
    }

    /// Where the pointer grabbed `widget` (its coordinates, `prepare`'s), in the picture of it the
    /// drag image shows: the widget's border box, or the selected row holding it
    /// (`DragIconView.pictured`). GTK's widget coordinates start inside the padding and border:
    /// a virtualized list's padded cell flew 12 px right of and 10 px below the pointer's grab.
    static func grabInImage(
        _ grab: (x: Double, y: Double), of widget: UnsafeMutablePointer<GtkWidget>
    ) -> (x: Double, y: Double) {
        var bounds = graphene_rect_t()
        guard gtk_widget_compute_bounds(DragIconView.pictured(widget), widget, &bounds) != 0 else { return grab }
        return (grab.x - Double(bounds.origin.x), grab.y - Double(bounds.origin.y))
    }

    /// `drag-begin`: GTK's drag exists; show the drag image and start the engine session.
    private func dragBegan(_ drag: UnsafeMutableRawPointer, source: UnsafeMutableRawPointer) {
        guard let pending = pendingStart else { return }
        pendingStart = nil
        guard let widget = gtk_event_controller_get_widget(OpaquePointer(source)) else { return }
        let custom = pending.items.first.flatMap { delegate(of: $0) }?.dragHost(self, dragImageFor: pending.items)
        let hotspot = custom?.hotspot ?? Self.grabInImage(pending.hotspot, of: widget)
        // A widget's own drag image (the dragged words of a text view) stands alone; otherwise
        // the dragged widgets flock (M3).
        let others = custom == nil ? pending.items.compactMap { self.widget(for: $0) }.filter { $0 != widget } : []
        let icon = DragIconView(showing: custom?.widget ?? widget, others: others, count: pending.items.count)
        feedback.rememberDragImage(icon, grab: hotspot)
        if let iconWidget = gtk_drag_icon_get_for_drag(OpaquePointer(drag)) {
            gtk_drag_icon_set_child(dd_drag_icon(iconWidget), icon.widget)
        }
        gdk_drag_set_hotspot(OpaquePointer(drag), Int32(hotspot.x) + icon.origin.x, Int32(hotspot.y) + icon.origin.y)
        gdkDrag = ActiveGdkDrag(
            drag: GObjectRef(raw: drag), source: GObjectRef(raw: source),
            sourceWidget: GObjectRef(raw: UnsafeMutableRawPointer(widget)), icon: icon)
        lastOutcome = nil
        // Other apps get a copy unless the person holds the move modifier (S2): on X11 move is
        // taken out of what the drag offers while no modifier asks for it.
        dd_x11_drag_offer_copy_by_default(OpaquePointer(drag))
        watchDropPerformed(drag)
        otherApps.watchFinish(of: drag)
        wayland.watch(drag)
        diagnose("drag-begin items=\(pending.items.map(\.rawValue))")
        dragModelContainer = engine.registry.modelContainer(ofFirstRegistered: pending.items)
        do {
            try engine.beginDrag(items: pending.items, at: pending.point, from: dragModelContainer)
        } catch {
            report(error)
            gtk_drag_source_drag_cancel(OpaquePointer(source))
        }
        reschedule()
    }

    /// `drag-cancel`: GTK's drag failed (released over nothing, Escape, an error). Ends the
    /// engine session if the drop did not already; returns whether the failure is handled.
    /// Returning false lets GTK fly the image back to the source (F7, `returnToSource`).
    private func dragCancelled(reason: UInt32) -> Bool {
        diagnose("drag-cancel reason=\(reason)")
        // A drop waiting for confirmation (U2) lives on after GTK's drag: the sheet answers it.
        if engine.currentSession?.awaitingConfirmation == true { return true }
        if engine.isDragging, wayland.cancel(reason: reason) == .refusedByOtherApp {
            drive { engine.dropRefused(by: nil) }
        } else if engine.isDragging {
            if reason == GDK_DRAG_CANCEL_NO_TARGET.rawValue || wayland.cancel(reason: reason) == .noTarget {
                // Released where no drop target took the drag (outside the windows, or before
                // any drag-motion reached one): nothing here receives it. Over a destination that
                // refuses the drop, GTK saw no action: drop there so the refusal says why (F7).
                drive { engine.pointerUp(at: forbiddenDropPoint ?? Self.outside) }
            } else {
                drive { engine.cancelDrag() }
            }
        }
        if case .returnToSource = lastOutcome { return false }
        return true
    }

    /// `drag-end`: GTK's drag is over. In-app moves were already applied by the engine (S4);
    /// for a drop another app took, GTK's `delete_data` says whether it was a move.
    private func dragEnded(deleteData: Bool) {
        diagnose("drag-end delete=\(deleteData) outcome=\(lastOutcome?.name ?? "none")")
        if engine.isDragging, engine.currentSession?.awaitingConfirmation != true {
            otherApps.dragEndedInOtherApp(deleteData: deleteData)
        }
        gdkDrag = nil
        otherApps.dragFinished()
        if case .handedOff = lastOutcome {
            fileExport.dragEnded(handedOff: true)
        } else {
            fileExport.dragEnded(handedOff: false)
        }
        for (widget, controller) in deferredDetach {
            gtk_widget_remove_controller(widget.widget, OpaquePointer(controller.raw))
        }
        deferredDetach = []
        GLibSource.idle(priority: 200) { [weak self] in self?.refreshFrames() }
    }

    /// The pointer, when it rests on a destination that refuses the drop (GTK treats that as no
    /// target at all).
    var forbiddenDropPoint: Point? {
        guard let session = engine.currentSession, case .forbidden = session.operation else { return nil }
        return session.pointer
    }
}
