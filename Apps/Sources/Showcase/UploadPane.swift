import CGtk4
import DragDrop
import DragDropGTK
import DriverProtocol
import ShowcaseModel

/// Situation 12: videos dragged onto the channel upload there. The drop is deferred: a
/// placeholder row with a progress bar appears at once where the video will be (A4), the bar
/// advances while the upload runs (A5, simulated here by a GLib timeout), then the video is in
/// the channel (and in the store). Cancel Upload stops the upload in progress: the placeholder
/// goes away and a notice says so; the video stays in Uploads, nothing is lost (A6).
@MainActor
final class UploadPane: ShowcasePane {
    static let videosID: TargetID = "upload-videos"
    static let channelID: TargetID = "upload-channel"
    /// Steps and interval of the simulated upload (12 × 250 ms = 3 s).
    static let steps = 12
    static let stepMilliseconds: UInt32 = 250

    let situation = Situation.named("upload")!
    let widget: UnsafeMutablePointer<GtkWidget>
    var onChange: (@MainActor () -> Void)?
    var onError: (@MainActor (String) -> Void)?

    private let store: ShowcaseStore
    private unowned let host: GtkDragHost
    private let videosSlot: UnsafeMutablePointer<GtkWidget>
    private let channelSlot: UnsafeMutablePointer<GtkWidget>
    private let cancelButton: UnsafeMutablePointer<GtkWidget>
    private let noticeLabel: UnsafeMutablePointer<GtkWidget>
    private var videos: DragListView?
    private var channel: DragListView?
    private var library: ShowcaseCollection?
    private var channelCollection: ShowcaseCollection?

    /// The uploads in progress, oldest first.
    private struct Upload {
        var token: DropToken
        var titles: [String]
        var step: Int
        var timer: guint
    }
    private var uploads: [Upload] = []
    private var notice = ""

    init(store: ShowcaseStore, host: GtkDragHost) {
        self.store = store
        self.host = host
        let row = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 18)
        gtk_widget_set_vexpand(row, 1)
        videosSlot = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 6)
        gtk_widget_set_size_request(videosSlot, 300, -1)
        UI.append(row, videosSlot)
        let right = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 8)
        gtk_widget_set_size_request(right, 340, -1)
        channelSlot = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 6)
        gtk_widget_set_vexpand(channelSlot, 1)
        UI.append(right, channelSlot)
        let controls = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
        cancelButton = UI.button(words("Cancel Upload"), tooltip: words("Stop the upload in progress"), bordered: true)
        {}
        gtk_widget_set_sensitive(cancelButton, 0)
        UI.append(controls, cancelButton)
        noticeLabel = UI.label("", selectable: true, wrap: true)
        gtk_widget_set_hexpand(noticeLabel, 1)
        UI.append(controls, noticeLabel)
        UI.append(right, controls)
        UI.append(row, right)
        widget = row
        GSignal.connect(UnsafeMutableRawPointer(cancelButton), "clicked") { [weak self] in self?.cancelUpload() }
    }

    func activate(in window: TargetID) {
        if videos == nil { build() }
        do {
            try videos?.register(in: window)
            try channel?.register(in: window)
        } catch { onError?("\(error)") }
        onChange?()
    }

    func deactivate() {
        host.unregister(Self.videosID)
        host.unregister(Self.channelID)
    }

    func reload() { onChange?() }

    private func build() {
        do {
            library = try store.collection(pane: .upload, key: "uploads")
            channelCollection = try store.ensureCollection(pane: .upload, key: "channel", name: "Channel", kind: .shelf)
        } catch {
            onError?(Sentence.explaining(words("Could not read the videos"), error))
            return
        }
        let videoTitles = (try? store.items(in: library?.id ?? 0).map(\.title)) ?? []
        let channelTitles = (try? store.items(in: channelCollection?.id ?? 0).map(\.title)) ?? []
        let videos = DragListView(
            id: Self.videosID, title: library?.name ?? "Uploads", items: videoTitles, host: host,
            operationPolicy: .forbidden(reason: "Drop videos on the channel to upload them."))
        let channel = DragListView(
            id: Self.channelID, title: words("Upload to Channel"), items: channelTitles, host: host,
            operationPolicy: .alwaysCopy)
        videos.itemKind = Noun("video")
        channel.itemKind = Noun("video")
        // The videos are the store's: a drop uploads one; no text pasted as a row stands in
        // for a video (the edit menus copy titles only).
        videos.allowsEditing = false
        channel.allowsEditing = false
        channel.defersDrop = { [weak self] drop in
            self?.startUpload(drop)
            return true
        }
        channel.onChange = { [weak self] in
            self?.saveChannel()
            self?.onChange?()
        }
        UI.append(videosSlot, videos.widget)
        UI.append(channelSlot, channel.widget)
        self.videos = videos
        self.channel = channel
    }

    // MARK: Uploading

    private func startUpload(_ drop: DropRequest) {
        let titles = drop.items.map(\.name)
        uploads.append(Upload(token: drop.token, titles: titles, step: 0, timer: 0))
        notice = "Uploading \(quotedTitles(titles))…"
        UI.setText(noticeLabel, notice)
        gtk_widget_set_sensitive(cancelButton, 1)
        scheduleStep(drop.token)
        onChange?()
    }

    private func scheduleStep(_ token: DropToken) {
        guard let index = uploads.firstIndex(where: { $0.token == token }) else { return }
        uploads[index].timer = GLibSource.once(afterMilliseconds: Self.stepMilliseconds) { [weak self] in
            self?.step(token)
        }
    }

    private func step(_ token: DropToken) {
        guard let index = uploads.firstIndex(where: { $0.token == token }) else { return }
        uploads[index].timer = 0
        uploads[index].step += 1
        let fraction = Double(uploads[index].step) / Double(Self.steps)
        if uploads[index].step >= Self.steps {
            let done = uploads.remove(at: index)
            notice = "Uploaded \(quotedTitles(done.titles))."
            UI.setText(noticeLabel, notice)
            gtk_widget_set_sensitive(cancelButton, uploads.isEmpty ? 0 : 1)
            channel?.finishDeferredDrop(token)  // onChange saves the channel
            return
        }
        host.updateDeferredDrop(token, progress: fraction)
        scheduleStep(token)
        onChange?()
    }

    /// Cancels the most recent upload in progress: its placeholder goes away, nothing is lost.
    private func cancelUpload() {
        guard let upload = uploads.popLast() else { return }
        GLibSource.cancel(upload.timer)
        notice = words(
            "Upload cancelled. {videos} stayed in {library}; nothing was lost.",
            ["videos": quotedTitles(upload.titles), "library": library?.name ?? "Uploads"])
        UI.setText(noticeLabel, notice)
        gtk_widget_set_sensitive(cancelButton, uploads.isEmpty ? 0 : 1)
        channel?.finishDeferredDrop(upload.token, failure: DropFailure(.cancelled, notice))
        onChange?()
    }

    private func quotedTitles(_ titles: [String]) -> String {
        titles.map { "\u{201C}\($0)\u{201D}" }.joined(separator: ", ")
    }

    /// Makes the store's Channel hold what the channel list shows (after an upload, an undo or
    /// a redo): copies of the videos, in order.
    private func saveChannel() {
        guard let channel, let channelID = channelCollection?.id, let libraryID = library?.id else { return }
        do {
            let stored = try store.items(in: channelID)
            let shown = channel.items.map(\.title)
            guard stored.map(\.title) != shown else { return }
            let videos = try store.items(in: libraryID)
            if !stored.isEmpty { _ = try store.remove(stored.compactMap(\.id)) }
            let ids = shown.compactMap { title in videos.first { $0.title == title }?.id }
            if !ids.isEmpty { _ = try store.copy(ids, to: channelID) }
        } catch {
            onError?(Sentence.explaining(words("Could not save the channel"), error))
        }
    }

    // MARK: Tour

    func state() -> StateLine {
        var state = StateLine()
        state.lists = keyed(
            [library, channelCollection].compactMap { $0 }.map {
                ($0.name, (try? store.items(in: $0.id ?? 0).map(\.title)) ?? [])
            })
        state.shownChannel = (channel?.items ?? []).map(\.title)
        state.uploading = uploads.map {
            StateLine.Upload(titles: $0.titles, fraction: Double($0.step) / Double(Self.steps))
        }
        state.notice = notice
        return state
    }

    func layout() -> PaneLayout? {
        guard let videos, let channel, let videosFrame = host.frameInWindow(of: Self.videosID), videosFrame.height > 0,
            let channelFrame = host.frameInWindow(of: Self.channelID), channelFrame.height > 0,
            let root = gtk_widget_get_root(widget),
            let cancel = UI.bounds(
                of: cancelButton, in: UnsafeMutableRawPointer(root).assumingMemoryBound(to: GtkWidget.self)),
            cancel.height > 0
        else { return nil }
        func rows(_ list: DragListView) -> [(title: String, frame: Rect)] {
            list.items.compactMap { item in host.frameInWindow(of: item.id).map { (item.title, $0) } }
        }
        let cancelFrame = Rect(x: cancel.x, y: cancel.y, width: cancel.width, height: cancel.height)
        return PaneLayout(
            lists: [(library?.name ?? "Uploads", videosFrame), ("Channel", channelFrame), ("Cancel", cancelFrame)],
            rows: [(library?.name ?? "Uploads", rows(videos)), ("Channel", rows(channel))],
            targets: [("Channel", Self.channelID)])
    }
}
