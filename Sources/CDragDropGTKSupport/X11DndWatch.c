// Reads the X11 drag-and-drop messages GDK does not expose: whether the other app accepted one
// of our drops (XdndFinished), and when the app a drag comes from goes away (DestroyNotify of
// the source window named by XdndEnter).
#include "CDragDropGTKSupport.h"

#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#include <X11/Xutil.h>

typedef struct {
    DDX11DndCallback callback;
    gpointer user_data;
    GDestroyNotify destroy;
    Atom finished;
    Atom enter;
} DDX11Watch;

static void dd_x11_watch_free(gpointer data, GClosure *closure) {
    (void)closure;
    DDX11Watch *watch = data;
    if (watch->destroy && watch->user_data) watch->destroy(watch->user_data);
    g_free(watch);
}

static gboolean dd_x11_on_xevent(GdkX11Display *x11_display, gpointer xevent, gpointer data) {
    DDX11Watch *watch = data;
    XEvent *event = xevent;
    GdkDisplay *display = GDK_DISPLAY(x11_display);
    if (event->type == ClientMessage && event->xclient.message_type == watch->finished) {
        // XDND 5: data.l[1] bit 0 says whether the target accepted the drop. Earlier versions
        // send 0 there and cannot be told apart from a refusal; GTK, Qt and browsers speak 5.
        gboolean accepted = (event->xclient.data.l[1] & 1) != 0;
        watch->callback(watch->user_data, DD_X11_DND_FINISHED, (gulong)event->xclient.data.l[0], accepted);
    } else if (event->type == ClientMessage && event->xclient.message_type == watch->enter) {
        Window source = (Window)event->xclient.data.l[0];
        // Watch another client's window only: changing the event mask of one of our own windows
        // would take events away from GDK.
        if (gdk_x11_surface_lookup_for_display(display, source) == NULL) {
            gdk_x11_display_error_trap_push(display);
            XSelectInput(gdk_x11_display_get_xdisplay(display), source, StructureNotifyMask);
            gdk_x11_display_error_trap_pop_ignored(display);
        }
        watch->callback(watch->user_data, DD_X11_DND_ENTER, (gulong)source, FALSE);
    } else if (event->type == DestroyNotify) {
        watch->callback(watch->user_data, DD_X11_DND_SOURCE_DESTROYED, (gulong)event->xdestroywindow.window, FALSE);
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
    watch->enter = gdk_x11_get_xatom_by_name_for_display(display, "XdndEnter");
    g_signal_connect_data(display, "xevent", G_CALLBACK(dd_x11_on_xevent), watch, dd_x11_watch_free,
                          (GConnectFlags)0);
    return TRUE;
}

char *dd_x11_window_class(GdkDisplay *display, gulong window) {
    if (display == NULL || !GDK_IS_X11_DISPLAY(display) || window == 0) return NULL;
    XClassHint hint = {NULL, NULL};
    char *result = NULL;
    gdk_x11_display_error_trap_push(display);
    if (XGetClassHint(gdk_x11_display_get_xdisplay(display), (Window)window, &hint)) {
        const char *name = hint.res_class ? hint.res_class : hint.res_name;
        if (name) result = g_strdup(name);
        if (hint.res_class) XFree(hint.res_class);
        if (hint.res_name) XFree(hint.res_name);
    }
    gdk_x11_display_error_trap_pop_ignored(display);
    return result;
}

#else

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
