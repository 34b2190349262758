// Reads the X11 drag-and-drop messages GDK does not expose: whether the other app accepted one
// of our drops (XdndFinished), which X targets a drag from another app offers and which window
// it comes from (XdndEnter), the action it suggests as it moves (XdndPosition), the drop's timestamp (XdndDrop), and when the app a drag comes from
// goes away (DestroyNotify of the source window named by XdndEnter).
#include "CDragDropGTKSupport.h"

#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#include <X11/Xatom.h>
#include <X11/Xutil.h>
// For the connection's resource-id mask (Display's resource_mask, for extension writers): it
// tells which windows belong to the same client.
#include <X11/Xlibint.h>

typedef struct {
    DDX11DndCallback callback;
    gpointer user_data;
    GDestroyNotify destroy;
    Atom finished;
    Atom status;
    /// The last target whose XdndStatus was seen (watched for destruction once).
    Window last_target;
    Atom enter;
    Atom position;
    Atom drop;
    Atom type_list;
    Atom action_copy;
    Atom action_move;
    Atom action_link;
} DDX11Watch;

static void dd_x11_watch_free(gpointer data, GClosure *closure) {
    (void)closure;
    DDX11Watch *watch = data;
    if (watch->destroy && watch->user_data) watch->destroy(watch->user_data);
    g_free(watch);
}

// The X targets an XdndEnter offers: its three inline atoms, or the source's XdndTypeList when
// data.l[1] bit 0 says there are more. NULL-terminated; free with g_strfreev.
static char **dd_x11_enter_types(GdkDisplay *display, DDX11Watch *watch, const XClientMessageEvent *message) {
    Display *xdisplay = gdk_x11_display_get_xdisplay(display);
    GPtrArray *names = g_ptr_array_new();
    Atom *atoms = NULL;
    unsigned long count = 0;
    unsigned char *data = NULL;
    gdk_x11_display_error_trap_push(display);
    if (message->data.l[1] & 1) {
        Atom type;
        int format;
        unsigned long after;
        if (XGetWindowProperty(xdisplay, (Window)message->data.l[0], watch->type_list, 0, 1024, False, XA_ATOM,
                               &type, &format, &count, &after, &data) == Success &&
            type == XA_ATOM && format == 32) {
            atoms = (Atom *)data;
        } else {
            count = 0;
        }
    }
    Atom inline_atoms[3];
    if (atoms == NULL) {
        count = 0;
        for (int i = 2; i <= 4; i++)
            if (message->data.l[i] != None) inline_atoms[count++] = (Atom)message->data.l[i];
        atoms = inline_atoms;
    }
    for (unsigned long i = 0; i < count; i++) {
        const char *name = gdk_x11_get_xatom_name_for_display(display, atoms[i]);
        if (name) g_ptr_array_add(names, g_strdup(name));
    }
    if (data) XFree(data);
    gdk_x11_display_error_trap_pop_ignored(display);
    g_ptr_array_add(names, NULL);
    return (char **)g_ptr_array_free(names, FALSE);
}

// Asks for `window`'s DestroyNotify, if it is another client's: changing the event mask of one
// of our own windows would take events away from GDK.
static void dd_x11_watch_destruction(GdkDisplay *display, Window window) {
    if (window == None || gdk_x11_surface_lookup_for_display(display, window) != NULL) return;
    gdk_x11_display_error_trap_push(display);
    XSelectInput(gdk_x11_display_get_xdisplay(display), window, StructureNotifyMask);
    gdk_x11_display_error_trap_pop_ignored(display);
}

// The GDK action an XDND action atom names, 0 for none or another.
static guint dd_x11_action(const DDX11Watch *watch, Atom action) {
    return action == watch->action_copy   ? GDK_ACTION_COPY
           : action == watch->action_move ? GDK_ACTION_MOVE
           : action == watch->action_link ? GDK_ACTION_LINK
                                          : 0;
}

static gboolean dd_x11_on_xevent(GdkX11Display *x11_display, gpointer xevent, gpointer data) {
    DDX11Watch *watch = data;
    XEvent *event = xevent;
    GdkDisplay *display = GDK_DISPLAY(x11_display);
    DDX11DndMessage message = {0};
    if (event->type == ClientMessage && event->xclient.message_type == watch->finished) {
        // XDND 5: data.l[1] bit 0 says whether the target accepted the drop. Earlier versions
        // send 0 there and cannot be told apart from a refusal; GTK, Qt and browsers speak 5.
        message.event = DD_X11_DND_FINISHED;
        message.window = (gulong)event->xclient.data.l[0];
        message.our_window = (gulong)event->xclient.window;
        message.accepted = (event->xclient.data.l[1] & 1) != 0;
        message.action = dd_x11_action(watch, (Atom)event->xclient.data.l[2]);
        watch->callback(watch->user_data, &message);
    } else if (event->type == ClientMessage && event->xclient.message_type == watch->status) {
        Window target = (Window)event->xclient.data.l[0];
        if (target != watch->last_target) {
            watch->last_target = target;
            dd_x11_watch_destruction(display, target);
        }
        message.event = DD_X11_DND_STATUS;
        message.window = (gulong)target;
        message.our_window = (gulong)event->xclient.window;
        message.accepted = (event->xclient.data.l[1] & 1) != 0;
        watch->callback(watch->user_data, &message);
    } else if (event->type == ClientMessage && event->xclient.message_type == watch->enter) {
        Window source = (Window)event->xclient.data.l[0];
        dd_x11_watch_destruction(display, source);
        char **types = dd_x11_enter_types(display, watch, &event->xclient);
        message.event = DD_X11_DND_ENTER;
        message.window = (gulong)source;
        message.our_window = (gulong)event->xclient.window;
        message.types = (const char *const *)types;
        watch->callback(watch->user_data, &message);
        g_strfreev(types);
    } else if (event->type == ClientMessage && event->xclient.message_type == watch->position) {
        message.event = DD_X11_DND_POSITION;
        message.window = (gulong)event->xclient.data.l[0];
        message.our_window = (gulong)event->xclient.window;
        message.action = dd_x11_action(watch, (Atom)event->xclient.data.l[4]);
        watch->callback(watch->user_data, &message);
    } else if (event->type == ClientMessage && event->xclient.message_type == watch->drop) {
        message.event = DD_X11_DND_DROP;
        message.window = (gulong)event->xclient.data.l[0];
        message.our_window = (gulong)event->xclient.window;
        message.time = (guint32)event->xclient.data.l[2];
        watch->callback(watch->user_data, &message);
    } else if (event->type == DestroyNotify) {
        message.event = DD_X11_DND_SOURCE_DESTROYED;
        message.window = (gulong)event->xdestroywindow.window;
        watch->callback(watch->user_data, &message);
    }
    return FALSE;  // GDK handles every event as usual
}

gboolean dd_x11_watch_dnd(GdkDisplay *display, DDX11DndCallback callback, gpointer user_data,
                          GDestroyNotify destroy) {
    if (display == NULL || !GDK_IS_X11_DISPLAY(display) || callback == NULL) return FALSE;
    DDX11Watch *watch = g_new0(DDX11Watch, 1);
    watch->callback = callback;
    watch->user_data = user_data;
    watch->destroy = destroy;
    watch->finished = gdk_x11_get_xatom_by_name_for_display(display, "XdndFinished");
    watch->status = gdk_x11_get_xatom_by_name_for_display(display, "XdndStatus");
    watch->enter = gdk_x11_get_xatom_by_name_for_display(display, "XdndEnter");
    watch->drop = gdk_x11_get_xatom_by_name_for_display(display, "XdndDrop");
    watch->position = gdk_x11_get_xatom_by_name_for_display(display, "XdndPosition");
    watch->type_list = gdk_x11_get_xatom_by_name_for_display(display, "XdndTypeList");
    watch->action_copy = gdk_x11_get_xatom_by_name_for_display(display, "XdndActionCopy");
    watch->action_move = gdk_x11_get_xatom_by_name_for_display(display, "XdndActionMove");
    watch->action_link = gdk_x11_get_xatom_by_name_for_display(display, "XdndActionLink");
    g_signal_connect_data(display, "xevent", G_CALLBACK(dd_x11_on_xevent), watch, dd_x11_watch_free,
                          (GConnectFlags)0);
    return TRUE;
}

// GDK sets the drag's actions from the modifiers (notify::actions) before it compares them with
// what it last wrote to XdndActionList and writes them: taking move out here is what the other
// app reads. Setting them again notifies again, with copy alone: nothing more to do then.
static void dd_x11_drag_actions_changed(GObject *object, GParamSpec *pspec, gpointer data) {
    (void)pspec;
    (void)data;
    GdkDrag *drag = GDK_DRAG(object);
    GdkDragAction actions = gdk_drag_get_actions(drag);
    if ((actions & GDK_ACTION_COPY) && (actions & GDK_ACTION_MOVE))
        g_object_set(drag, "actions", (GdkDragAction)(actions & ~GDK_ACTION_MOVE), NULL);
}

gboolean dd_x11_drag_offer_copy_by_default(GdkDrag *drag) {
    if (drag == NULL || !GDK_IS_X11_DRAG(drag)) return FALSE;
    g_signal_connect(drag, "notify::actions", G_CALLBACK(dd_x11_drag_actions_changed), NULL);
    // The first motion sets the same actions again, which notifies nothing: take move out now.
    dd_x11_drag_actions_changed(G_OBJECT(drag), NULL, NULL);
    return TRUE;
}

// GDK's X11 drop follows the source window's XdndActionList through a handler on the display's
// `xevent` signal, with the drop as its data, until the drop is finalized; a change after the
// drop started (a browser clears the list when its drag ends, or rewrites it for its next drag
// while GDK still holds this drop as the current one) then sets the actions of a drop that no
// longer takes them, and GDK prints a critical. Once dropped, the actions are settled: the
// handler goes.
gboolean dd_x11_drop_stop_following_actions(GdkDrop *drop) {
    if (drop == NULL) return FALSE;
    GdkDisplay *display = gdk_drop_get_display(drop);
    if (!GDK_IS_X11_DISPLAY(display) || gdk_drop_get_drag(drop) != NULL) return FALSE;
    return g_signal_handlers_disconnect_matched(display, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, drop) > 0;
}

// The WM_CLASS class (or instance) name of `window`, or NULL.
static char *dd_x11_class_hint(Display *xdisplay, Window window) {
    XClassHint hint = {NULL, NULL};
    char *result = NULL;
    if (XGetClassHint(xdisplay, window, &hint)) {
        const char *name = hint.res_class && hint.res_class[0] ? hint.res_class : hint.res_name;
        if (name && name[0]) result = g_strdup(name);
        if (hint.res_class) XFree(hint.res_class);
        if (hint.res_name) XFree(hint.res_name);
    }
    return result;
}

char *dd_x11_window_class(GdkDisplay *display, gulong window) {
    if (display == NULL || !GDK_IS_X11_DISPLAY(display) || window == 0) return NULL;
    Display *xdisplay = gdk_x11_display_get_xdisplay(display);
    gdk_x11_display_error_trap_push(display);
    char *result = dd_x11_class_hint(xdisplay, (Window)window);
    if (result == NULL) {
        // Drags often come from a hidden helper window without WM_CLASS (Qt's "Qt Selection
        // Owner"): the X server gives each client one range of resource ids, so a top-level
        // window of the same client names the app. The mask is the same for every client.
        XID mask = xdisplay->resource_mask;
        XID base = (XID)window & ~mask;
        Window root, parent, *children = NULL;
        unsigned int count = 0;
        if (XQueryTree(xdisplay, DefaultRootWindow(xdisplay), &root, &parent, &children, &count)) {
            for (unsigned int i = 0; i < count && result == NULL; i++) {
                if ((children[i] & ~mask) == base) result = dd_x11_class_hint(xdisplay, children[i]);
            }
            if (children) XFree(children);
        }
    }
    gdk_x11_display_error_trap_pop_ignored(display);
    return result;
}

#else

gboolean dd_x11_drag_offer_copy_by_default(GdkDrag *drag) {
    (void)drag;
    return FALSE;
}

gboolean dd_x11_drop_stop_following_actions(GdkDrop *drop) {
    (void)drop;
    return FALSE;
}

char *dd_x11_window_class(GdkDisplay *display, gulong window) {
    (void)display;
    (void)window;
    return NULL;
}

gboolean dd_x11_watch_dnd(GdkDisplay *display, DDX11DndCallback callback, gpointer user_data,
                          GDestroyNotify destroy) {
    (void)display;
    (void)callback;
    (void)user_data;
    (void)destroy;
    return FALSE;
}

#endif
