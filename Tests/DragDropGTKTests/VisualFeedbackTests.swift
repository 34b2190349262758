import DragDropGTK
import Foundation
import DriverProtocol
import WindowDriver
import Testing

/// What the user sees, checked on screen: the fixture's `--scene visuals` window under a
/// private Xvfb, driven by real pointer events, with pixel counts on screenshots.
@Suite(
    "GTK: what the user sees", .serialized,
    .enabled(
        if: Tools.missing == nil, "Xvfb is not installed (apt-get install xvfb, or `make deps`): GTK tests skipped.")
)
struct VisualFeedbackTests {
    /// Runs `body` with a fresh display and the visuals scene (1000×600 at 60,40).
    func withVisuals(_ body: (FixtureApp, Pointer) async throws -> Void) async throws {
        let display = try XDisplay.startPrivate()
        defer { display.stop() }
        let app = try await FixtureApp.launch(on: display, size: (1000, 600), arguments: ["--scene", "visuals"])
        defer { app.stop() }
        try await body(app, Pointer(display: display))
    }

    static let white: RGB = (255, 255, 255)
    /// Both colours a flashing spring-loaded control alternates between, with what lies between.
    static func flashing(_ p: RGB) -> Bool {
        p.red >= 245 && p.green >= 180 && p.green <= 230 && p.blue >= 45 && p.blue <= 135
    }

    func event(_ name: String, _ extra: @escaping (FeedbackLine) -> Bool = { _ in true }) -> (FeedbackLine) -> Bool {
        { $0.event == name && extra($0) }
    }

    @Test(
        "M3, S3, F2, F4, F7: three selected rows fly as a stack of their images with a count; Ctrl shows the plus badge, a read-only list the not-allowed badge and no highlight, and says why it refused"
    )
    func flockAndBadges() async throws {
        try await withVisuals { app, input in
            let layout = try await app.settledLayout()
            let milk = try layout.row("Milk", in: "groceries")
            let eggs = try layout.row("Eggs", in: "groceries")
            let bread = try layout.row("Bread", in: "groceries")
            let inbox = try layout.list("inbox")
            let archive = try layout.list("archive")
            try input.click(at: (milk.midX, milk.midY))
            try input.click(at: (eggs.midX, eggs.midY), holding: ["ctrl"])
            try input.click(at: (bread.midX, bread.midY), holding: ["ctrl"])
            try await app.waitForState("three rows selected", after: 0) { _, selected in
                selected["groceries"] == ["Milk", "Eggs", "Bread"]
            }

            let mark = app.lineCount
            let grab = (x: eggs.x + 30, y: eggs.midY)
            try input.lift(at: grab)
            let overInbox = (x: inbox.midX - 40, y: inbox.y + 200)
            try input.move(from: (grab.x + 4, grab.y + 4), to: overInbox)
            try input.keyDown("ctrl")
            try input.move(from: overInbox, to: (overInbox.x + 2, overInbox.y), steps: 1)
            try await app.waitFor(FeedbackLine.self, "the copy badge over Inbox", after: mark,
                where: event("preview") {
                    $0.badge == "copy" && $0.count == 3
                })
            try await Task.sleep(for: .milliseconds(250))
            let copying = try Screenshot.capture(app.display)
            // The image hangs from the grab point: the front card's top-left corner sits 30 px
            // left of and half a row above the pointer; the cards behind stick out below right.
            let pointer = (x: overInbox.x + 2, y: overInbox.y)
            let front = ScreenRect(
                x: pointer.x - 30, y: pointer.y - eggs.height / 2, width: eggs.width, height: eggs.height)
            let image = front.insetBy(-24, -24)
            let count = copying.count(in: image, where: near(DragStyles.countFill))
            let plus = copying.count(in: image, where: near(DragStyles.copyBadgeFill))
            let backdrop = copying.count(in: image, where: near(DragStyles.flockBackdrop))
            #expect(count > 100, "M3: the count pill on the drag image: \(count) pixels")
            #expect(plus > 100, "S3: the plus badge on the drag image: \(plus) pixels")
            #expect(backdrop > 200, "M3: the flock's opaque backdrop around the stacked cards: \(backdrop) pixels")
            // The cards behind stick out below the front card, on the backdrop.
            let below = ScreenRect(x: front.x + 20, y: front.y + front.height + 2, width: front.width - 40, height: 18)
            let belowArea = Int(below.width * below.height)
            let backdropBelow = copying.count(in: below, where: near(DragStyles.flockBackdrop))
            #expect(
                backdropBelow > belowArea / 20 && backdropBelow < belowArea * 3 / 4,
                "M3: cards behind the front one fill part of the strip below it (\(backdropBelow) of \(belowArea) backdrop pixels)"
            )
            #expect(copying.count(in: image, where: near(DragStyles.forbiddenBadgeFill)) == 0)

            try input.keyUp("ctrl")
            let overArchive = (x: archive.midX - 40, y: archive.y + 200)
            let beforeArchive = app.lineCount
            try input.move(from: pointer, to: overArchive)
            try await app.waitFor(FeedbackLine.self, "the not-allowed badge over Archive", after: beforeArchive,
                where: event("preview") {
                    $0.badge == "forbidden"
                })
            try await Task.sleep(for: .milliseconds(250))
            let refused = try Screenshot.capture(app.display)
            let refusedImage = ScreenRect(
                x: overArchive.x - 30, y: overArchive.y - eggs.height / 2, width: eggs.width, height: eggs.height
            ).insetBy(-24, -24)
            let slash = refused.count(in: refusedImage, where: near(DragStyles.forbiddenBadgeFill))
            #expect(slash > 100, "S3: the not-allowed badge on the drag image: \(slash) pixels")
            #expect(refused.count(in: refusedImage, where: near(DragStyles.copyBadgeFill)) == 0)
            #expect(refused.count(in: refusedImage, where: near(DragStyles.countFill)) > 100, "M3: the count stays")
            #expect(
                refused.count(DragStyles.highlightFill, in: archive) == 0,
                "F4: no highlight on a list that refuses the drop")

            let release = app.lineCount
            try input.release()
            let outcome = try await app.waitFor(FeedbackLine.self, "the refused drop's outcome", after: release, where: event("outcome"))
            #expect(outcome.outcome == "returnToSource")
            #expect(outcome.failure == "forbidden")
            // F7: the image flies back to its visible source, and the refusal says why.
            let reason = try await app.waitFor(NoticeLine.self, "the reason", after: release)
            #expect(reason.message == "The archive is read-only: nothing can be added to it.")
            try await app.waitForDragEnd(after: release)
            #expect(app.lists["archive"] == ["Old Note"])
            #expect(app.lists["groceries"] == ["Milk", "Eggs", "Bread", "Apples", "Cheese (damaged)"])
        }
    }

    @Test(
        "A4, A5, A6, S4: a drop on a slowly loading list shows a placeholder with a growing progress bar at the drop index, then the row; a broken transfer removes it and says why"
    )
    func placeholdersWithProgress() async throws {
        try await withVisuals { app, input in
            let layout = try await app.settledLayout()
            let bread = try layout.row("Bread", in: "groceries")
            let welcome = try layout.row("Welcome", in: "inbox")
            let inbox = try layout.list("inbox")
            let fill = near(DragStyles.progressFill, 6)

            let mark = app.lineCount
            try input.lift(at: (bread.midX, bread.midY))
            try input.move(from: (bread.midX + 4, bread.midY + 4), to: (inbox.midX, inbox.y + 150))
            try input.release()
            let inserted = try await app.waitFor(FeedbackLine.self, "the placeholder", after: mark, where: event("placeholderInserted"))
            #expect(inserted.target == "inbox")
            #expect(inserted.index == 1)
            try await app.waitFor(LoadingLine.self, "a third of the loading", after: mark) {
                $0.fraction >= 0.3
            }
            try await Task.sleep(for: .milliseconds(120))
            let early = try Screenshot.capture(app.display)
            // S4: the move has not happened yet: Bread is still in its source.
            #expect(app.lists["groceries"]?.contains("Bread") == true)
            try await app.waitFor(LoadingLine.self, "more than half of the loading", after: mark) {
                $0.fraction >= 0.6
            }
            try await Task.sleep(for: .milliseconds(120))
            let late = try Screenshot.capture(app.display)
            let earlyFill = early.count(in: inbox, where: fill)
            let lateFill = late.count(in: inbox, where: fill)
            #expect(earlyFill > 50, "A4: the placeholder's progress bar shows: \(earlyFill) pixels")
            #expect(lateFill > earlyFill * 5 / 4, "A5: the progress bar grows: \(earlyFill) then \(lateFill) pixels")
            if let bar = late.bounds(in: inbox, where: fill) {
                #expect(
                    bar.y > welcome.maxY, "A4: the placeholder sits at the drop index, below Welcome (bar at \(bar))")
            }

            try await app.waitForState("Bread arrived in the Inbox", after: mark) { lists, _ in
                lists["inbox"] == ["Welcome", "Bread"] && lists["groceries"]?.contains("Bread") == false
            }
            try await Task.sleep(for: .milliseconds(250))
            let arrived = try Screenshot.capture(app.display)
            #expect(arrived.count(in: inbox, where: fill) == 0, "A4: the placeholder gave way to the row")

            // A transfer that breaks halfway: the placeholder goes, the reason shows, nothing moves.
            let cheese = try await app.settledLayout().row("Cheese (damaged)", in: "groceries")
            let broken = app.lineCount
            try input.lift(at: (cheese.midX, cheese.midY))
            try input.move(from: (cheese.midX + 4, cheese.midY + 4), to: (inbox.midX, inbox.y + 200))
            try input.release()
            let notice = try await app.waitFor(NoticeLine.self, "the failure notice", after: broken)
            #expect(notice.message.contains("interrupted"))
            try await app.waitFor(FeedbackLine.self, "the failed placeholder", after: broken, where: event("placeholderFailed"))
            try await Task.sleep(for: .milliseconds(250))
            let failed = try Screenshot.capture(app.display)
            #expect(failed.count(in: inbox, where: fill) == 0, "A6: the failed placeholder is gone")
            let window = ScreenRect(x: app.origin.x, y: app.origin.y, width: 1000, height: 600)
            let shown = failed.count(in: window, where: near(DragStyles.noticeFill))
            #expect(shown > 1000, "A6: the reason is on screen: \(shown) notice pixels")
            #expect(app.lists["inbox"] == ["Welcome", "Bread"])
            #expect(app.lists["groceries"]?.contains("Cheese (damaged)") == true)
        }
    }

    @Test(
        "SP1, SP2: a spring-loaded button flashes, then opens while a row rests on it; the row drops into what it opened; a click opens it too"
    )
    func springLoadedButton() async throws {
        try await withVisuals { app, input in
            let layout = try await app.settledLayout()
            let controls = try app.controls()
            let spring = try #require(controls["spring"])
            let stack = try #require(controls["stack"])
            let milk = try layout.row("Milk", in: "groceries")
            let calm = try Screenshot.capture(app.display)
            #expect(calm.count(in: spring, where: Self.flashing) == 0)

            // Held near the row's top-left corner, the image hangs right of and below the
            // pointer and leaves most of the button in sight.
            let mark = app.lineCount
            let grab = (x: milk.x + 16, y: milk.y + 8)
            try input.lift(at: grab)
            let hover = (x: spring.x + spring.width - 8, y: spring.y + spring.height - 6)
            try input.move(from: (grab.x + 4, grab.y + 4), to: hover)
            try await app.waitFor(FeedbackLine.self, "the flash", after: mark, where: event("springFlash"))
            try await Task.sleep(for: .milliseconds(200))
            let flashing = try Screenshot.capture(app.display)
            let lit = flashing.count(in: spring, where: Self.flashing)
            #expect(lit > 800, "SP1: the button flashes before it opens: \(lit) pixels")
            let image = ScreenRect.around(hover, radius: 60)
            #expect(flashing.count(in: image, where: near(DragStyles.countFill)) == 0, "M3: one row shows no count")
            #expect(!app.events(from: mark).contains { $0.event == "springActivated" })

            let opened = try await app.waitFor(ActivatedLine.self, "the activation", after: mark)
            #expect(opened.how == "spring")
            #expect(opened.page == "pantry")
            // The row lands in the list the button opened (its frame was laid out mid-drag).
            try input.move(from: hover, to: (stack.midX, stack.y + 200))
            try input.release()
            try await app.waitForState("Milk in the Pantry", after: mark) { lists, _ in
                lists["pantry"] == ["Rice", "Beans", "Milk"] && lists["groceries"]?.contains("Milk") == false
            }
            try await app.waitForDragEnd(after: mark)
            try await Task.sleep(for: .milliseconds(300))
            let after = try Screenshot.capture(app.display)
            #expect(after.count(in: spring, where: Self.flashing) == 0, "SP1: the flash ends with the activation")

            // SP2: a click does what resting on it did.
            let click = app.lineCount
            try input.click(at: (spring.midX, spring.midY))
            let clicked = try await app.waitFor(ActivatedLine.self, "the click's activation", after: click)
            #expect(clicked.how == "click")
            #expect(clicked.page == "groceries")
        }
    }

    @Test(
        "A1: resting near the bottom edge of a scrolling list scrolls it; leaving stops it at once; the drop lands on the row under the pointer"
    )
    func autoscrollFollowsThePointer() async throws {
        try await withVisuals { app, input in
            let layout = try await app.settledLayout()
            let scroll = try #require(try app.controls()["scroll"])
            let outbox = try layout.list("outbox")
            let eggs = try layout.row("Eggs", in: "groceries")
            let notes = try #require(layout.rows["notes"])
            let before = try Screenshot.capture(app.display)

            let mark = app.lineCount
            try input.lift(at: (eggs.midX, eggs.midY))
            let edge = (x: scroll.midX, y: scroll.y + scroll.height - 10)
            try input.move(from: (eggs.midX + 4, eggs.midY + 4), to: edge)
            try await app.waitFor(ScrollLine.self, "the Notes list scrolled", after: mark, timeout: 5) {
                $0.offset > 150
            }
            try input.move(from: edge, to: (outbox.midX, outbox.midY))
            let stop = try await app.waitFor(FeedbackLine.self, "autoscroll to stop", after: mark, where: event("autoscrollStopped"))
            #expect(stop.target == "notes-scroll")
            let stoppedAt = app.notesOffset
            let quiet = app.lineCount
            try await Task.sleep(for: .milliseconds(500))
            #expect(app.notesOffset == stoppedAt, "A1: no scrolling after the pointer left")
            #expect(!app.events(from: quiet).contains { $0.event == "autoscrolled" })
            let scrolled = try Screenshot.capture(app.display)
            let changed = scrolled.differences(from: before, in: scroll.insetBy(4, 4))
            #expect(changed > 2000, "A1: the list's content moved on screen: \(changed) pixels changed")

            // The rows moved with the content: aim at the top of a row now in the middle.
            let middle = scroll.midY
            let target = try #require(
                notes.indices.first {
                    notes[$0].frame.y - stoppedAt > middle - 40 && notes[$0].frame.y - stoppedAt < middle + 40
                })
            let aim = (x: scroll.midX, y: notes[target].frame.y - stoppedAt + 8)
            try input.move(from: (outbox.midX, outbox.midY), to: aim)
            let drop = app.lineCount
            try input.release()
            let committed = try await app.waitFor(FeedbackLine.self, "the drop in Notes", after: drop, where: event("committed"))
            #expect(committed.destination == "notes")
            #expect(
                committed.index == target,
                "dropped above \(notes[target].title) after scrolling \(stoppedAt)")
            let lists = try await app.waitForState("Eggs among the notes", after: drop) { lists, _ in
                lists["notes"]?.contains("Eggs") == true
            }
            #expect(lists["notes"]?[target] == "Eggs")
        }
    }

    @Test("F7, A6: a refused drop whose source is no longer visible evaporates (grows and fades) and the reason shows")
    func evaporateWithReason() async throws {
        try await withVisuals { app, input in
            let layout = try await app.settledLayout()
            let spring = try #require(try app.controls()["spring"])
            let milk = try layout.row("Milk", in: "groceries")
            let archive = try layout.list("archive")
            let oldNote = try layout.row("Old Note", in: "archive")

            // A spring-loaded button hides the Groceries page mid-drag: the source is gone.
            let mark = app.lineCount
            try input.lift(at: (milk.x + 16, milk.y + 8))
            let hover = (x: spring.maxX - 8, y: spring.maxY - 6)
            try input.move(from: (milk.x + 20, milk.y + 12), to: hover)
            try await app.waitFor(ActivatedLine.self, "the page switch", after: mark)
            let drop = (x: archive.midX - 60, y: archive.y + 220)
            try input.move(from: hover, to: drop)
            let release = app.lineCount
            try input.release()
            let outcome = try await app.waitFor(FeedbackLine.self, "the outcome", after: release, where: event("outcome"))
            #expect(outcome.outcome == "evaporate")
            #expect(outcome.failure == "forbidden")
            try await Task.sleep(for: .milliseconds(150))
            let fading = try Screenshot.capture(app.display)
            let reason = try await app.waitFor(NoticeLine.self, "the reason", after: release)
            #expect(reason.message.contains("read-only"))
            let window = ScreenRect(x: app.origin.x, y: app.origin.y, width: 1000, height: 600)
            #expect(fading.count(in: window, where: near(DragStyles.noticeFill)) > 1000, "F7: the reason is on screen")

            // Once faded out (1.5 s in the fixture), the same place shows the window alone.
            try await Task.sleep(for: .milliseconds(1800))
            let gone = try Screenshot.capture(app.display)
            let area = ScreenRect(
                x: archive.x - 120, y: oldNote.maxY + 4, width: archive.width + 240,
                height: archive.maxY - oldNote.maxY - 8)
            let image = try #require(fading.differenceBounds(from: gone, in: area), "F7: no evaporating image")
            #expect(
                image.width > milk.width * 1.05,
                "F7: the image grows as it evaporates: \(image) vs a \(milk.width) px row")
            #expect(
                abs(image.midX - (drop.x - 16 + milk.width / 2)) < 30,
                "F7: it evaporates where it was dropped: \(image)")
            let leftover = gone.count(in: area.insetBy(120, 0)) { !near(Self.white, 6)($0) }
            #expect(leftover == 0, "F7: the image has faded out (\(leftover) pixels left in Archive)")
            #expect(app.lists["groceries"]?.contains("Milk") == true)
            #expect(app.lists["archive"] == ["Old Note"])
        }
    }

    @Test(
        "U2: a drop on a list that cannot take it back asks first; Cancel leaves everything unchanged, the confirm button moves the row"
    )
    func confirmationSheet() async throws {
        try await withVisuals { app, input in
            let layout = try await app.settledLayout()
            let bread = try layout.row("Bread", in: "groceries")
            let outbox = try layout.list("outbox")
            let window = ScreenRect(x: app.origin.x, y: app.origin.y, width: 1000, height: 600)
            let original = app.lists

            for answer in ["cancel", "confirm"] {
                let mark = app.lineCount
                try input.lift(at: (bread.midX, bread.midY))
                try input.move(from: (bread.midX + 4, bread.midY + 4), to: (outbox.midX, outbox.y + 150))
                try input.release()
                let asked = try await app.waitFor(ConfirmationLine.self, "the confirmation's buttons", after: mark)
                let button = try #require(
                    (answer == "cancel" ? asked.cancel : asked.confirm).map { ScreenRect($0, from: app.origin) },
                    "no \(answer) button in \(asked)")
                try await Task.sleep(for: .milliseconds(150))
                let sheet = try Screenshot.capture(app.display)
                #expect(
                    sheet.count(in: window, where: near(DragStyles.confirmFill)) > 3000, "U2: the sheet is on screen")
                #expect(app.lists == original, "U2: nothing happens before the answer")
                try await app.waitForDragEnd(after: mark)
                try input.click(at: (button.midX, button.midY))
                let outcome = try await app.waitFor(FeedbackLine.self, "the answer's outcome", after: mark, where: event("outcome"))
                try await Task.sleep(for: .milliseconds(250))
                let after = try Screenshot.capture(app.display)
                #expect(after.count(in: window, where: near(DragStyles.confirmFill)) == 0, "U2: the sheet is gone")
                if answer == "cancel" {
                    #expect(outcome.failure == "declined")
                    #expect(app.lists == original, "U2: Cancel leaves everything unchanged")
                    #expect(!app.events(from: mark).contains { $0.event == "committed" })
                } else {
                    #expect(outcome.outcome == "completed")
                    try await app.waitForState("Bread in the Outbox", after: mark) { lists, _ in
                        lists["outbox"] == ["Draft", "Bread"] && lists["groceries"]?.contains("Bread") == false
                    }
                }
            }
        }
    }
}
