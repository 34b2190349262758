// The two window-property steps of X Direct Save (XDS, "XdndDirectSave0") for a drop from another
// app: the source names the file it would save on its own window; the target replaces that name
// with the address where the source is to save it, then asks for the XdndDirectSave0 target of
// XdndSelection (read with dd_x11_xdnd_read), whose one-byte answer says how it went.
#include "CDragDropGTKSupport.h"

#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#include <X11/Xatom.h>
#include <string.h>

char *dd_x11_text_property(GdkDisplay *display, gulong window, const char *property, gsize limit) {
    if (display == NULL || !GDK_IS_X11_DISPLAY(display) || window == 0 || property == NULL) return NULL;
    Display *xdisplay = gdk_x11_display_get_xdisplay(display);
    Atom name = gdk_x11_get_xatom_by_name_for_display(display, property);
    Atom type = None;
    int format = 0;
    unsigned long count = 0, after = 0;
    unsigned char *data = NULL;
    char *result = NULL;
    gdk_x11_display_error_trap_push(display);
    // Lengths are in 32-bit units; any type (text/plain, STRING, UTF8_STRING) of 8-bit items.
    if (XGetWindowProperty(xdisplay, (Window)window, name, 0, (long)((limit + 3) / 4), False, AnyPropertyType,
                           &type, &format, &count, &after, &data) == Success &&
        type != None && format == 8 && after == 0) {
        result = g_strndup((const char *)data, count);
    }
    if (data) XFree(data);
    gdk_x11_display_error_trap_pop_ignored(display);
    return result;
}

gboolean dd_x11_set_text_property(GdkDisplay *display, gulong window, const char *property, const char *value) {
    if (display == NULL || !GDK_IS_X11_DISPLAY(display) || window == 0 || property == NULL || value == NULL)
        return FALSE;
    Display *xdisplay = gdk_x11_display_get_xdisplay(display);
    Atom name = gdk_x11_get_xatom_by_name_for_display(display, property);
    Atom text = gdk_x11_get_xatom_by_name_for_display(display, "text/plain");
    gdk_x11_display_error_trap_push(display);
    XChangeProperty(xdisplay, (Window)window, name, text, 8, PropModeReplace, (const unsigned char *)value,
                    (int)strlen(value));
    XSync(xdisplay, False);
    return gdk_x11_display_error_trap_pop(display) == 0;
}

#else

char *dd_x11_text_property(GdkDisplay *display, gulong window, const char *property, gsize limit) {
    (void)display;
    (void)window;
    (void)property;
    (void)limit;
    return NULL;
}

gboolean dd_x11_set_text_property(GdkDisplay *display, gulong window, const char *property, const char *value) {
    (void)display;
    (void)window;
    (void)property;
    (void)value;
    return FALSE;
}

#endif
