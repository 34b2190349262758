// Reads XdndSelection the way the XDND specification asks a drop target to: after XdndDrop,
// with the drop's timestamp and the window the drop was sent to as requestor. GDK's reader uses
// CurrentTime and a hidden window; Qt 5 cannot tie that request to a finished drop and answers
// with a refusal GDK does not recognize, so the drop waited forever (issue 11).
#include "CDragDropGTKSupport.h"

#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#include <X11/Xatom.h>

// A read given up (dd_x11_xdnd_read_cancel) stays listed, abandoned, until the owner's late
// answer comes or ABANDONED_LIFETIME passes: its answer is then taken and thrown away, never
// given to a later read. Each read has its own property, so data can only reach its own read;
// a refusal names no property, so it is matched by the request time it echoes (ICCCM), then
// by target, oldest read first (owners answer in order). Without this, a source that answered
// a read after it was given up (GDK's reads had this flaw, X11SelectionRelease.c) would end
// the next read of that type with its refusal, and its data would stay on our window.

/// How long an abandoned read waits for its late answer (microseconds).
#define ABANDONED_LIFETIME (60 * G_USEC_PER_SEC)

typedef struct {
    guint id;
    Window requestor;
    Atom target;
    Atom property;
    Time time;      // the request's time (CurrentTime when the drop gave none)
    gboolean incr;  // the data arrives in INCR chunks (PropertyNotify)
    gint64 abandoned_at;  // 0: live; else when it was given up (monotonic): answers are dropped
    DDX11ReadCallback callback;
    gpointer user_data;
    GDestroyNotify destroy;
} DDX11Read;

typedef struct {
    GdkDisplay *display;  // the display these reads belong to (it owns this)
    GList *reads;  // of DDX11Read
    guint next_id;
    Atom selection;
    Atom incr;
    gulong handler;
} DDX11Reads;

// Releases what the read's caller gave (its callback is not called again).
static void dd_x11_read_release(DDX11Read *read) {
    GDestroyNotify destroy = read->destroy;
    gpointer user_data = read->user_data;
    read->callback = NULL;
    read->user_data = NULL;
    read->destroy = NULL;
    if (destroy && user_data) destroy(user_data);
}

static void dd_x11_read_free(DDX11Read *read) {
    dd_x11_read_release(read);
    g_free(read);
}

static void dd_x11_reads_free(gpointer data) {
    DDX11Reads *reads = data;
    g_list_free_full(reads->reads, (GDestroyNotify)dd_x11_read_free);
    g_free(reads);
}

// Ends `read` with `status` (not DATA): detaches it first, so the callback may start new reads.
// An abandoned read just goes.
static void dd_x11_read_end(DDX11Reads *reads, DDX11Read *read, DDX11ReadStatus status) {
    reads->reads = g_list_remove(reads->reads, read);
    if (read->callback) read->callback(read->user_data, status, NULL, 0);
    dd_x11_read_free(read);
}

// Hands a chunk to a live read; an abandoned one drops it.
static void dd_x11_read_chunk(DDX11Read *read, const guchar *bytes, gsize length) {
    if (read->callback && length > 0) read->callback(read->user_data, DD_X11_READ_DATA, bytes, length);
}

// Forgets abandoned reads whose answer did not come within ABANDONED_LIFETIME.
static void dd_x11_reads_expire(DDX11Reads *reads) {
    gint64 now = g_get_monotonic_time();
    GList *l = reads->reads;
    while (l != NULL) {
        GList *next = l->next;
        DDX11Read *read = l->data;
        if (read->abandoned_at != 0 && now - read->abandoned_at > ABANDONED_LIFETIME) {
            reads->reads = g_list_delete_link(reads->reads, l);
            // No answer came: whatever the owner left there is nobody's.
            gdk_x11_display_error_trap_push(reads->display);
            XDeleteProperty(gdk_x11_display_get_xdisplay(reads->display), read->requestor, read->property);
            gdk_x11_display_error_trap_pop_ignored(reads->display);
            dd_x11_read_free(read);
        }
        l = next;
    }
}

// The read a SelectionNotify answers, or NULL when it is none of ours.
static DDX11Read *dd_x11_reads_match(DDX11Reads *reads, const XSelectionEvent *notify) {
    DDX11Read *by_target = NULL;
    for (GList *l = reads->reads; l != NULL; l = l->next) {
        DDX11Read *read = l->data;
        if (read->requestor != notify->requestor || read->incr) continue;
        if (notify->property != None) {
            if (notify->property == read->property) return read;
            continue;
        }
        // A refusal: the read whose request time it echoes, else the oldest of its target.
        if (notify->target != read->target && notify->target != None) continue;
        if (notify->time != CurrentTime && notify->time == read->time) return read;
        if (by_target == NULL) by_target = read;
    }
    return by_target;
}

// Reads and deletes `read`'s property. Returns FALSE when it could not be read; `*bytes` is
// NULL-or-data, `*type` its type.
static gboolean dd_x11_take_property(GdkDisplay *display, DDX11Read *read, guchar **bytes, gsize *length,
                                     Atom *type) {
    Display *xdisplay = gdk_x11_display_get_xdisplay(display);
    int format = 0;
    unsigned long count = 0, after = 0;
    *bytes = NULL;
    *length = 0;
    *type = None;
    gdk_x11_display_error_trap_push(display);
    int status = XGetWindowProperty(xdisplay, read->requestor, read->property, 0, 0x1FFFFFFF, False,
                                    AnyPropertyType, type, &format, &count, &after, bytes);
    XDeleteProperty(xdisplay, read->requestor, read->property);
    gboolean failed = gdk_x11_display_error_trap_pop(display) != 0 || status != Success;
    if (failed) {
        if (*bytes) XFree(*bytes);
        *bytes = NULL;
        return FALSE;
    }
    // Xlib returns 32-bit items as longs.
    *length = format == 8 ? count : format == 16 ? count * sizeof(short) : format == 32 ? count * sizeof(long) : 0;
    return TRUE;
}

static gboolean dd_x11_reads_on_xevent(GdkX11Display *x11_display, gpointer xevent, gpointer data) {
    DDX11Reads *reads = data;
    XEvent *event = xevent;
    GdkDisplay *display = GDK_DISPLAY(x11_display);
    if (event->type == SelectionNotify && event->xselection.selection == reads->selection) {
        const XSelectionEvent *notify = &event->xselection;
        dd_x11_reads_expire(reads);
        DDX11Read *match = dd_x11_reads_match(reads, notify);
        if (match == NULL) return FALSE;
        if (notify->property == None) {
            dd_x11_read_end(reads, match, DD_X11_READ_REFUSED);
            return TRUE;
        }
        guchar *bytes;
        gsize length;
        Atom type;
        if (!dd_x11_take_property(display, match, &bytes, &length, &type)) {
            dd_x11_read_end(reads, match, DD_X11_READ_FAILED);
        } else if (type == reads->incr) {
            // INCR: deleting the property (done) asks for the first chunk. An abandoned read
            // takes the chunks too (and drops them), so the owner finishes instead of waiting.
            match->incr = TRUE;
        } else {
            dd_x11_read_chunk(match, bytes, length);
            dd_x11_read_end(reads, match, DD_X11_READ_END);
        }
        if (bytes) XFree(bytes);
        return TRUE;
    }
    if (event->type == PropertyNotify && event->xproperty.state == PropertyNewValue) {
        for (GList *l = reads->reads; l != NULL; l = l->next) {
            DDX11Read *read = l->data;
            if (!read->incr || read->requestor != event->xproperty.window || read->property != event->xproperty.atom)
                continue;
            guchar *bytes;
            gsize length;
            Atom type;
            if (!dd_x11_take_property(display, read, &bytes, &length, &type)) {
                dd_x11_read_end(reads, read, DD_X11_READ_FAILED);
            } else if (type == None) {
                // Already gone (not a chunk, which always has a type): wait for the next one.
            } else if (length == 0) {
                dd_x11_read_end(reads, read, DD_X11_READ_END);  // a zero-length chunk ends INCR
            } else {
                dd_x11_read_chunk(read, bytes, length);
            }
            if (bytes) XFree(bytes);
            break;
        }
    }
    return FALSE;
}

static DDX11Reads *dd_x11_reads_for(GdkDisplay *display) {
    DDX11Reads *reads = g_object_get_data(G_OBJECT(display), "dd-x11-xdnd-reads");
    if (reads) return reads;
    reads = g_new0(DDX11Reads, 1);
    reads->display = display;
    reads->next_id = 1;
    reads->selection = gdk_x11_get_xatom_by_name_for_display(display, "XdndSelection");
    reads->incr = gdk_x11_get_xatom_by_name_for_display(display, "INCR");
    reads->handler = g_signal_connect(display, "xevent", G_CALLBACK(dd_x11_reads_on_xevent), reads);
    g_object_set_data_full(G_OBJECT(display), "dd-x11-xdnd-reads", reads, dd_x11_reads_free);
    return reads;
}

guint dd_x11_xdnd_read(GdkDisplay *display, gulong requestor, const char *target, guint32 time,
                       DDX11ReadCallback callback, gpointer user_data, GDestroyNotify destroy) {
    if (display == NULL || !GDK_IS_X11_DISPLAY(display) || callback == NULL || target == NULL || requestor == 0) {
        if (destroy && user_data) destroy(user_data);
        return 0;
    }
    DDX11Reads *reads = dd_x11_reads_for(display);
    dd_x11_reads_expire(reads);
    Display *xdisplay = gdk_x11_display_get_xdisplay(display);
    DDX11Read *read = g_new0(DDX11Read, 1);
    read->id = reads->next_id++;
    if (reads->next_id == 0) reads->next_id = 1;
    read->requestor = (Window)requestor;
    read->target = gdk_x11_get_xatom_by_name_for_display(display, target);
    read->time = time != 0 ? (Time)time : CurrentTime;
    char property[48];
    g_snprintf(property, sizeof property, "DD_XDND_READ_%u", read->id);
    read->property = gdk_x11_get_xatom_by_name_for_display(display, property);
    read->callback = callback;
    read->user_data = user_data;
    read->destroy = destroy;
    reads->reads = g_list_append(reads->reads, read);
    gdk_x11_display_error_trap_push(display);
    // INCR chunks are announced by PropertyNotify: make sure the requestor reports them
    // (adding to its mask takes nothing away from GDK).
    XWindowAttributes attributes;
    if (XGetWindowAttributes(xdisplay, read->requestor, &attributes) &&
        !(attributes.your_event_mask & PropertyChangeMask))
        XSelectInput(xdisplay, read->requestor, attributes.your_event_mask | PropertyChangeMask);
    XDeleteProperty(xdisplay, read->requestor, read->property);
    XConvertSelection(xdisplay, reads->selection, read->target, read->property, read->requestor, read->time);
    XFlush(xdisplay);
    gdk_x11_display_error_trap_pop_ignored(display);
    return read->id;
}

void dd_x11_xdnd_read_cancel(GdkDisplay *display, guint id) {
    if (display == NULL || !GDK_IS_X11_DISPLAY(display) || id == 0) return;
    DDX11Reads *reads = g_object_get_data(G_OBJECT(display), "dd-x11-xdnd-reads");
    if (reads == NULL) return;
    for (GList *l = reads->reads; l != NULL; l = l->next) {
        DDX11Read *read = l->data;
        if (read->id != id || read->abandoned_at != 0) continue;
        // Its property is left alone: the owner may be writing it, and deleting it would ask an
        // INCR owner for more. What the owner sends from now on is taken by the abandoned read
        // and dropped (see the top of this file).
        read->abandoned_at = g_get_monotonic_time();
        dd_x11_read_release(read);
        return;
    }
}

#else

guint dd_x11_xdnd_read(GdkDisplay *display, gulong requestor, const char *target, guint32 time,
                       DDX11ReadCallback callback, gpointer user_data, GDestroyNotify destroy) {
    (void)display;
    (void)requestor;
    (void)target;
    (void)time;
    (void)callback;
    if (destroy && user_data) destroy(user_data);
    return 0;
}

void dd_x11_xdnd_read_cancel(GdkDisplay *display, guint id) {
    (void)display;
    (void)id;
}

#endif
