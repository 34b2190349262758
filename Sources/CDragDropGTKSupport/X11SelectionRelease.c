// Ends GDK's X11 selection reads that still wait for the other app's first answer.
//
// GDK 4.8 starts a read of another app's drop with XConvertSelection and listens for the
// SelectionNotify that answers it; a read whose answer never comes keeps listening, and it then
// takes the answer meant for the next read of the same selection and type. So one app that never
// answers (or that dies before answering) broke every later drop of that type until the app was
// restarted. A SelectionNotify saying "no data" (property None), sent to the client leader window
// where GDK's reads listen, ends each such waiting read with an error instead.
#include "CDragDropGTKSupport.h"

#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#include <X11/Xatom.h>

void dd_x11_release_selection_reads(GdkSurface *surface, const char *selection, const char *const *targets,
                                    gsize n_targets) {
    if (surface == NULL || !GDK_IS_X11_SURFACE(surface) || selection == NULL) return;
    GdkDisplay *display = gdk_surface_get_display(surface);
    Display *xdisplay = gdk_x11_display_get_xdisplay(display);
    Window xid = gdk_x11_surface_get_xid(surface);
    gdk_x11_display_error_trap_push(display);
    Atom type = None;
    int format = 0;
    unsigned long count = 0, after = 0;
    unsigned char *data = NULL;
    Window leader = None;
    if (XGetWindowProperty(xdisplay, xid, XInternAtom(xdisplay, "WM_CLIENT_LEADER", False), 0, 1, False, XA_WINDOW,
                           &type, &format, &count, &after, &data) == Success &&
        type == XA_WINDOW && format == 32 && count == 1 && data != NULL) {
        leader = (Window)((unsigned long *)data)[0];
    }
    if (data) XFree(data);
    if (leader != None) {
        Atom selection_atom = XInternAtom(xdisplay, selection, False);
        for (gsize i = 0; i < n_targets; i++) {
            if (targets[i] == NULL) continue;
            XEvent event = {0};
            event.xselection.type = SelectionNotify;
            event.xselection.display = xdisplay;
            event.xselection.requestor = leader;
            event.xselection.selection = selection_atom;
            event.xselection.target = XInternAtom(xdisplay, targets[i], False);
            event.xselection.property = None;
            event.xselection.time = CurrentTime;
            XSendEvent(xdisplay, leader, False, NoEventMask, &event);
        }
        XFlush(xdisplay);
    }
    gdk_x11_display_error_trap_pop_ignored(display);
}

#else

void dd_x11_release_selection_reads(GdkSurface *surface, const char *selection, const char *const *targets,
                                    gsize n_targets) {
    (void)surface;
    (void)selection;
    (void)targets;
    (void)n_targets;
}

#endif
