import ShowcaseModel

/// The example situations of the guidelines, one pane each, in the order of the requirements:
/// twelve about drag and drop, then three from the controls page (13 to 15).
struct Situation: Sendable, Hashable {
    /// 1 to 15.
    let number: Int
    /// A stable short name: the pane's id on the command line (`--pane reminders`), in the
    /// tour's output and in screenshot file names.
    let slug: String
    /// The sidebar title.
    let title: String
    /// What the pane shows and how to try it, in one or two sentences.
    let summary: String
    /// Nil when the pane is implemented; otherwise what it waits for ("Coming with the grid
    /// widget"). A pending pane is never reported as passing by the tour.
    let pending: String?

    static let all: [Situation] = [
        Situation(
            number: 1, slug: "notes", title: words("Notes"),
            summary:
                words(
                    "Double-click a word, then drag it to another place in the same note: it moves, keeping its "
                        + "style. Drag it to the other note: it is copied there, still bold or italic."),
            pending: nil),
        Situation(
            number: 2, slug: "reminders", title: words("Reminders"),
            summary:
                words(
                    "Drag reminders from one list to another: they move. Click, then Ctrl-click or Shift-click to "
                        + "select several and drag them together; drop between rows to choose the place. Ctrl+Z undoes a "
                        + "drop, Ctrl+Shift+Z redoes it. Hold Ctrl while dragging to copy instead."),
            pending: nil),
        Situation(
            number: 3, slug: "web-mail", title: words("Web Page and Mail"),
            summary:
                words(
                    "Drag a photo from the Web Page window (another app: `showcase --role page`) into the new "
                        + "message: it is copied in as image/png, read from the other app only at the drop."),
            pending: nil),
        Situation(
            number: 4, slug: "home-screen", title: words("Home Screen"),
            summary:
                words(
                    "Click an icon, Ctrl-click another and drag them onto the Utilities folder: they move in "
                        + "together. The folder springs open while you hover; a double click opens it too. Ctrl+Z undoes."
                ),
            pending: nil),
        Situation(
            number: 5, slug: "photos", title: words("Photos"),
            summary:
                words(
                    "Choose Select, pick several photos and drag them together; drop one into the shared Family "
                        + "Stream and use Stop Sharing to take it back."),
            pending: nil),
        Situation(
            number: 6, slug: "mail", title: words("Mail"),
            summary:
                words(
                    "Drag messages onto a mailbox to move them there; Sent is read-only and refuses drops. Drag a "
                        + "mailbox into another, or between two at the depth you point to. Click a mailbox to open it; rest "
                        + "dragged messages on Back to reach the mailboxes again. Drag a paragraph of the draft near its "
                        + "edge to scroll it. Ctrl+Z undoes a move."),
            pending: nil),
        Situation(
            number: 7, slug: "calendar", title: words("Calendar"),
            summary:
                words(
                    "Drag an event over the Day, Week, Month and Year segments: held there, each opens its view (a click "
                        + "works too). Drop the event on a date of the view shown to move it there. Ctrl+Z undoes it."),
            pending: nil),
        Situation(
            number: 8, slug: "files", title: words("Files"),
            summary:
                words(
                    "Drag files between folders: they are copied (hold Shift to move them instead). Dropping into the "
                        + "write-only Drop Box asks for confirmation first. Files dragged from other apps are copied in. "
                        + "In the folder tree, drag a folder onto another to move it there on disk."),
            pending: nil),
        Situation(
            number: 9, slug: "contacts-mail", title: words("Contacts and Mail"),
            summary:
                words(
                    "Drag a contact onto To: in the new message: the card carries name, email, phone and address, "
                        + "but the field takes only \"Name <email>\". Ctrl+Z undoes it."),
            pending: nil),
        Situation(
            number: 10, slug: "charts", title: words("Charts"),
            summary:
                words(
                    "Drag the chart onto Dashboard and onto Slides: it offers the native chart first, then a PNG "
                        + "image. Dashboard knows charts and gets the chart's data; Slides takes only images and gets the "
                        + "picture. Each drop copies; Ctrl+Z takes it back."),
            pending: nil),
        Situation(
            number: 11, slug: "drawing", title: words("Drawing"),
            summary:
                words(
                    "A line drawing is offered as PDF, PNG and JPEG, in that order. Drag it onto Print (takes PDF), "
                        + "Editor (PNG) and Web (JPEG): each shows the type and size it received."),
            pending: nil),
        Situation(
            number: 12, slug: "upload", title: words("Upload"),
            summary:
                words(
                    "Drop a video on the channel: a placeholder shows the upload's progress, then the video is there. "
                        + "Cancel Upload stops it; the video stays where it was."),
            pending: nil),
        Situation(
            number: 13, slug: "home-pages", title: words("Home Screen Pages"),
            summary:
                words(
                    "Pages of icons with a page control: click before or after the current dot, press Page Up or Page "
                        + "Down, or swipe on the empty area to turn a page. Hold a dragged icon at the right edge: the "
                        + "page turns after a pause and the icon drops there. Ctrl+Z undoes it."),
            pending: nil),
        Situation(
            number: 14, slug: "settings", title: words("Settings"),
            summary:
                words(
                    "Turn on Airplane Mode: Wi-Fi and Bluetooth turn off and grey, with the networks; Ctrl+Z undoes it "
                        + "in one step. Click a network to join it, its detail button for its details. Drag the brightness "
                        + "slider or use the arrow keys. The info button tells about the app."),
            pending: nil),
        Situation(
            number: 15, slug: "inbox", title: words("Mail Inbox"),
            summary:
                words(
                    "Pull the inbox down from its empty area (or scroll up past the top, or press F5) to check for "
                        + "mail; it also checks by itself every few minutes. Type addresses in To:, or add a contact with "
                        + "the button beside it."),
            pending: nil),
    ]

    static func named(_ slug: String) -> Situation? { all.first { $0.slug == slug } }
}
