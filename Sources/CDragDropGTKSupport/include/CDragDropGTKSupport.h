// GObject pieces Swift cannot write: a GdkContentProvider subclass that produces its data only
// when another app asks (P1), a watch on X11 drag-and-drop client messages, and a list and
// selection model answered by the app (virtualized lists and grids).
#ifndef DRAGDROP_GTK_SUPPORT_H
#define DRAGDROP_GTK_SUPPORT_H

// GTK through the CGtk4 module (its shim.h includes gtk.h), so GTK's declarations belong to one
// module only: a second, textual copy here made them vanish from Swift files at random.
#include "../../CGtk4/shim.h"

G_BEGIN_DECLS

/// Called when a reader asks for `mime_type`: write the data to `stream` (asynchronously, on the
/// main thread), then call dd_lazy_provider_return(task, ...) exactly once. `task` is owned by
/// the callee until it is returned; `stream` and `cancellable` are valid until then.
typedef void (*DDLazyProviderWrite)(gpointer user_data, const char *mime_type, GOutputStream *stream,
                                    int io_priority, GCancellable *cancellable, GTask *task);

/// A content provider offering `mime_types` (richest first) whose bytes are written by `write`
/// on demand. `destroy` releases `user_data` when the provider is finalized. Transfer full.
GdkContentProvider *dd_lazy_provider_new(const char *const *mime_types, gsize n_mime_types,
                                         DDLazyProviderWrite write, gpointer user_data, GDestroyNotify destroy);

/// Ends a write started by a DDLazyProviderWrite call and releases `task`. `error_message` is
/// NULL on success; otherwise the reader gets a G_IO_ERROR_FAILED error with that message.
void dd_lazy_provider_return(GTask *task, const char *error_message);

/// The modifiers the keyboard of X11 `display` holds now, followed from the X server's XKB state
/// events (the first call asks once and starts following); no round trip after that. FALSE on
/// another backend or without XKB.
gboolean dd_x11_modifiers(GdkDisplay *display, GdkModifierType *modifiers);

/// What dd_x11_watch_dnd reports.
typedef enum {
    /// The target of one of our drags finished it (XdndFinished): `accepted` is whether it
    /// took the drop (always 1 for XDND versions before 5, which do not say).
    DD_X11_DND_FINISHED = 1,
    /// Another client's drag entered one of our windows (XdndEnter): `window` is its source
    /// window, now watched for destruction; `types` the X targets it offers.
    DD_X11_DND_ENTER = 2,
    /// A watched window (a drag's source, or our drag's target) was destroyed: its app quit or
    /// crashed.
    DD_X11_DND_SOURCE_DESTROYED = 3,
    /// A drag was dropped on one of our windows (XdndDrop): `time` is the drop's timestamp, the
    /// one to read XdndSelection with.
    DD_X11_DND_DROP = 4,
    /// The target of one of our drags answered a position (XdndStatus): `window` is its
    /// window, now watched for destruction (a target killed mid-transfer never finishes the
    /// drag), `accepted` whether it would take a drop there.
    DD_X11_DND_STATUS = 5,
    /// A drag from another client moved over one of our windows (XdndPosition): `window` is its
    /// source, `action` the action it suggests (GDK_ACTION_MOVE while the person holds Shift
    /// in GTK and Qt sources), which GDK 4 keeps to itself.
    DD_X11_DND_POSITION = 6,
} DDX11DndEvent;

/// One X11 drag-and-drop message, valid during the callback only.
typedef struct {
    DDX11DndEvent event;
    /// The other client's window: the source (ENTER, DROP, SOURCE_DESTROYED) or the target
    /// that finished our drag (FINISHED).
    gulong window;
    /// Our window the message was sent to (ENTER, DROP, FINISHED).
    gulong our_window;
    /// DROP: the drop's timestamp (0 when the source did not give one).
    guint32 time;
    /// FINISHED: whether the target took the drop.
    gboolean accepted;
    /// FINISHED: the action the target performed (XDND 5's data.l[2]: GDK_ACTION_COPY,
    /// GDK_ACTION_MOVE or GDK_ACTION_LINK), 0 when it names none or an unknown one; POSITION:
    /// the action the source suggests (data.l[4]), the same way.
    guint action;
    /// ENTER: the X target names offered, NULL-terminated (MIME types and X names such as
    /// UTF8_STRING).
    const char *const *types;
} DDX11DndMessage;

typedef void (*DDX11DndCallback)(gpointer user_data, const DDX11DndMessage *message);

/// Watches `display`'s X11 events for drag-and-drop messages. Returns FALSE (and does nothing)
/// when `display` is not an X11 display.
gboolean dd_x11_watch_dnd(GdkDisplay *display, DDX11DndCallback callback, gpointer user_data,
                          GDestroyNotify destroy);

/// Makes an X11 drag offer other apps only a copy unless the person asks for a move (S2): GDK
/// recomputes the drag's actions from the modifiers at every pointer motion and key, just before
/// it writes them to XdndActionList; while both copy and move are possible (no modifier held) this
/// takes move out, so the other app sees copy alone; with Shift held GDK offers move alone and it
/// stays. Returns FALSE (and does nothing) for a drag that is not an X11 drag.
gboolean dd_x11_drag_offer_copy_by_default(GdkDrag *drag);

/// Stops GDK following the source's XdndActionList for a drop from another app that was
/// dropped: GDK would set the actions of a drop past its start when the source changes the list
/// (a browser does, at its drag's end and its next drag's start), and print a critical. Returns
/// whether a handler was removed (FALSE on other backends and for drops of this app's drags).
gboolean dd_x11_drop_stop_following_actions(GdkDrop *drop);

/// The WM_CLASS class name of X11 window `window` (the app it belongs to), or NULL when unknown.
/// A window without WM_CLASS (a hidden selection owner) is named by a top-level window of the
/// same client. Free with g_free.
char *dd_x11_window_class(GdkDisplay *display, gulong window);

/// What a read of XdndSelection reports.
typedef enum {
    /// A chunk of the data (`data`, `length`); more follows.
    DD_X11_READ_DATA = 1,
    /// The data is complete.
    DD_X11_READ_END = 2,
    /// The owner refused the conversion (no drag data for this request, or not in this type).
    DD_X11_READ_REFUSED = 3,
    /// The reply could not be read (the property vanished, or the window is gone).
    DD_X11_READ_FAILED = 4,
} DDX11ReadStatus;

/// Called on the main thread with each part of a read; `data` is valid during the call only.
/// After END, REFUSED or FAILED the read is over (its `destroy` runs).
typedef void (*DDX11ReadCallback)(gpointer user_data, DDX11ReadStatus status, const guint8 *data, gsize length);

/// Asks the owner of XdndSelection (the app a drag comes from) for its data as X target
/// `target`, the way the XDND specification says a target does after XdndDrop: with the drop's
/// timestamp `time` and one of our windows, `requestor` (the one the drop was sent to), as the
/// requestor. Large data arrives in INCR chunks. GDK's own read (gdk_drop_read_async) asks with
/// CurrentTime from a hidden window, which sources that match the request to their drop by
/// timestamp or window (Qt 5) refuse. Returns a read id (0: not an X11 display; nothing
/// happens and `destroy` runs at once).
guint dd_x11_xdnd_read(GdkDisplay *display, gulong requestor, const char *target, guint32 time,
                       DDX11ReadCallback callback, gpointer user_data, GDestroyNotify destroy);

/// Stops read `id`: its callback is not called again; its `destroy` runs. Unknown ids are ignored.
/// The owner's late answer to it (data, INCR chunks or a refusal) is taken and dropped, never
/// given to a later read (X11SelectionRead.c).
void dd_x11_xdnd_read_cancel(GdkDisplay *display, guint id);

/// Ends GDK's X11 reads of `selection` as any of `targets` that still wait for the other app's
/// first answer (see X11SelectionRelease.c): a read abandoned that way would otherwise take the
/// answer meant for the next drop of the same type. Does nothing off X11.
void dd_x11_release_selection_reads(GdkSurface *surface, const char *selection, const char *const *targets,
                                    gsize n_targets);

/// The text of property `property` on another client's X11 window `window` (8-bit items of any
/// type, at most `limit` bytes), or NULL when it is missing, longer, or not an X11 display. X
/// Direct Save: the name of the file a drag's source would save (X11DirectSave.c). Free with g_free.
char *dd_x11_text_property(GdkDisplay *display, gulong window, const char *property, gsize limit);

/// Sets property `property` of X11 window `window` to `value`, typed text/plain (X Direct Save:
/// where the source is to save the file). Returns whether the X server took it.
gboolean dd_x11_set_text_property(GdkDisplay *display, gulong window, const char *property, const char *value);

/// A box that takes the keyboard focus itself (Tab stops on it, then moves on), for cards that
/// are drag sources: the keyboard picks up what has the focus. Focusable from the start.
G_DECLARE_FINAL_TYPE(DDFocusBox, dd_focus_box, DD, FOCUS_BOX, GtkBox)
GtkWidget *dd_focus_box_new(GtkOrientation orientation, int spacing);

/// A GtkListView (like gtk_list_view_new, taking `model` and `factory`) that draws the 1 px
/// line under each row but the last child itself, in one snapshot after its rows (RowLines.c):
/// GTK 4.8's cairo renderer paid 2-3 ms a frame for a border drawn by every row while
/// scrolling. Rows in the :focus-visible state are left to the stylesheet. `draws_lines` is set
/// to whether it does (a plain GtkListView otherwise, if GTK's type cannot be derived from).
GtkWidget *dd_list_view_new(GtkSelectionModel *model, GtkListItemFactory *factory, gboolean *draws_lines);

/// What a selection change asks for (GtkSelectionModel's operations).
typedef enum {
    DD_SELECT_ITEM = 0,
    DD_UNSELECT_ITEM = 1,
    DD_SELECT_RANGE = 2,
    DD_UNSELECT_RANGE = 3,
    DD_SELECT_ALL = 4,
    DD_UNSELECT_ALL = 5,
} DDSelectionChange;

/// The app's answers for a DDCollectionModel, called on the main thread.
typedef struct {
    /// The number of items.
    guint (*n_items)(gpointer user_data);
    /// Whether the item at `position` is selected.
    gboolean (*is_selected)(gpointer user_data, guint position);
    /// Applies a selection change (`n_items` positions from `position` for the ranges; `unselect_rest`
    /// for selecting); returns whether it was applied. The callee announces what changed with
    /// dd_collection_model_selection_changed.
    gboolean (*change_selection)(gpointer user_data, DDSelectionChange change, guint position, guint n_items,
                                 gboolean unselect_rest);
    /// The key of the item at `position` (its identifier), newly allocated with g_malloc: while GTK
    /// holds the object made for a key, the same object stands for it. NULL: a new object.
    char *(*item_key)(gpointer user_data, guint position);
    /// A row (a GtkListItem) is bound to an item, after the unbind of any other it showed.
    void (*bind)(gpointer user_data, gpointer list_item);
    /// A row no longer shows its item.
    void (*unbind)(gpointer user_data, gpointer list_item);
} DDCollectionModelCallbacks;

/// A GListModel and GtkSelectionModel whose item count and selection are the app's, answered
/// through `callbacks` (see CollectionModel.c). `destroy` releases `user_data` when the model is
/// finalized or detached. Transfer full.
#define DD_TYPE_COLLECTION_MODEL (dd_collection_model_get_type())
G_DECLARE_FINAL_TYPE(DDCollectionModel, dd_collection_model, DD, COLLECTION_MODEL, GObject)
DDCollectionModel *dd_collection_model_new(const DDCollectionModelCallbacks *callbacks, gpointer user_data,
                                           GDestroyNotify destroy);
/// Emits items-changed: `removed` items at `position` replaced by `added`.
void dd_collection_model_items_changed(DDCollectionModel *model, guint position, guint removed, guint added);
/// Makes the next request for `key` give a new object, so the row showing it is bound again.
void dd_collection_model_forget(DDCollectionModel *model, const char *key);
/// How many keys have an object GTK holds.
guint dd_collection_model_held_items(DDCollectionModel *model);
/// Handles `factory`'s (a GtkSignalListItemFactory) bind and unbind for the model's callbacks,
/// calling them only when a row's item changes (see CollectionModel.c).
void dd_collection_model_connect_factory(DDCollectionModel *model, gpointer factory);
/// Tells the app now of the rows unbound and not bound again to their item.
void dd_collection_model_flush_unbinds(DDCollectionModel *model);
/// Emits selection-changed for `n_items` positions from `position` (nothing when 0).
void dd_collection_model_selection_changed(DDCollectionModel *model, guint position, guint n_items);
/// Forgets the callbacks and releases `user_data` now (the model may outlive its owner in GTK).
void dd_collection_model_detach(DDCollectionModel *model);

/// Whether `widget` is a GtkListView / a GtkGridView.
gboolean dd_is_list_view(gpointer widget);
gboolean dd_is_grid_view(gpointer widget);

/// Starts watching whether the file transfer portal (xdg-document-portal) runs on the session
/// bus, without ever starting it. Call on the main thread; later calls do nothing.
void dd_portal_watch(void);
/// Whether the portal's service was last seen running (FALSE until the watch first hears).
gboolean dd_portal_available(void);
/// Opens a transfer of `paths` (NULL-terminated) with the portal: the key to offer as
/// `application/vnd.portal.filetransfer`, from dd_portal_register_files_finish (transfer full).
void dd_portal_register_files_async(const char *const *paths, gboolean writable, GCancellable *cancellable,
                                    GAsyncReadyCallback callback, gpointer user_data);
char *dd_portal_register_files_finish(GAsyncResult *result, GError **error);
/// The files of the transfer `key`, as paths this process can open (NULL-terminated, transfer
/// full), from dd_portal_retrieve_files_finish.
void dd_portal_retrieve_files_async(const char *key, GCancellable *cancellable, GAsyncReadyCallback callback,
                                    gpointer user_data);
char **dd_portal_retrieve_files_finish(GAsyncResult *result, GError **error);

/* WordBreak.c: ICU's word break iterator (L4). The word-break segment of `text` (UTF-16,
 * `length` units) that holds unit `offset`, its start and end in `*start` and `*end`. Returns
 * ICU's rule status for it (below dd_icu_word_none_limit(): spaces or punctuation, not a word),
 * or -1 when ICU failed. `locale`: "ja" for Japanese (its dictionary), "" otherwise. */
int32_t dd_icu_word_segment(
    const uint16_t *text, int32_t length, int32_t offset, const char *locale, int32_t *start, int32_t *end);
int32_t dd_icu_word_none_limit(void);

G_END_DECLS

#endif
