// Reads XdndSelection the way the XDND specification asks a drop target to: after XdndDrop,
// with the drop's timestamp and the window the drop was sent to as requestor. GDK's reader uses
// CurrentTime and a hidden window; Qt 5 cannot tie that request to a finished drop and answers
// with a refusal GDK does not recognize, so the drop waited forever (issue 11).
#include "CDragDropGTKSupport.h"

#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#include <X11/Xatom.h>

typedef struct {
    guint id;
    Window requestor;
    Atom target;
    Atom property;
    gboolean incr;  // the data arrives in INCR chunks (PropertyNotify)
    DDX11ReadCallback callback;
    gpointer user_data;
    GDestroyNotify destroy;
} DDX11Read;

typedef struct {
    GList *reads;  // of DDX11Read
    guint next_id;
    Atom selection;
    Atom incr;
    gulong handler;
} DDX11Reads;

static void dd_x11_read_free(DDX11Read *read) {
    if (read->destroy && read->user_data) read->destroy(read->user_data);
    g_free(read);
}

static void dd_x11_reads_free(gpointer data) {
    DDX11Reads *reads = data;
    g_list_free_full(reads->reads, (GDestroyNotify)dd_x11_read_free);
    g_free(reads);
}

// Ends `read` with `status` (not DATA): detaches it first, so the callback may start new reads.
static void dd_x11_read_end(DDX11Reads *reads, DDX11Read *read, DDX11ReadStatus status) {
    reads->reads = g_list_remove(reads->reads, read);
    read->callback(read->user_data, status, NULL, 0);
    dd_x11_read_free(read);
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
        DDX11Read *match = NULL;
        for (GList *l = reads->reads; l != NULL && match == NULL; l = l->next) {
            DDX11Read *read = l->data;
            if (read->requestor != notify->requestor || read->incr) continue;
            if (notify->property != None ? notify->property == read->property
                                         : (notify->target == read->target || notify->target == None))
                match = read;
        }
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
            // INCR: deleting the property (done) asks for the first chunk.
            match->incr = TRUE;
        } else {
            if (length > 0) match->callback(match->user_data, DD_X11_READ_DATA, bytes, length);
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
            } else if (length == 0) {
                dd_x11_read_end(reads, read, DD_X11_READ_END);  // a zero-length chunk ends INCR
            } else {
                read->callback(read->user_data, DD_X11_READ_DATA, bytes, length);
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
    Display *xdisplay = gdk_x11_display_get_xdisplay(display);
    DDX11Read *read = g_new0(DDX11Read, 1);
    read->id = reads->next_id++;
    read->requestor = (Window)requestor;
    read->target = gdk_x11_get_xatom_by_name_for_display(display, target);
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
    XConvertSelection(xdisplay, reads->selection, read->target, read->property, read->requestor,
                      time != 0 ? (Time)time : CurrentTime);
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
        if (read->id != id) continue;
        reads->reads = g_list_delete_link(reads->reads, l);
        // What the owner still writes there is nobody's now.
        gdk_x11_display_error_trap_push(display);
        XDeleteProperty(gdk_x11_display_get_xdisplay(display), read->requestor, read->property);
        gdk_x11_display_error_trap_pop_ignored(display);
        dd_x11_read_free(read);
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
