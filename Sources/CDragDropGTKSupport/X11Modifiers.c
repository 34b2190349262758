// The keyboard's modifiers on X11, followed from the X server's XKB state events instead of
// asked for. GDK reads them from its keymap, which those same events keep current, but reaching
// the keymap asks the server which pointer is the client's (XIGetClientPointer, a round trip):
// a drag reads the modifiers on every motion.
#include "CDragDropGTKSupport.h"

#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#include <X11/XKBlib.h>

typedef struct {
    int xkb_event;
    guint mods;
} DDX11Modifiers;

static const char *const dd_x11_modifiers_key = "dragdrop-x11-modifiers";

static gboolean dd_x11_modifiers_on_xevent(GdkX11Display *x11_display, gpointer xevent, gpointer data) {
    (void)x11_display;
    DDX11Modifiers *state = data;
    XkbEvent *event = xevent;
    if (event->type == state->xkb_event && event->any.xkb_type == XkbStateNotify) state->mods = event->state.mods;
    return FALSE;
}

gboolean dd_x11_modifiers(GdkDisplay *display, GdkModifierType *modifiers) {
    if (display == NULL || !GDK_IS_X11_DISPLAY(display) || modifiers == NULL) return FALSE;
    DDX11Modifiers *state = g_object_get_data(G_OBJECT(display), dd_x11_modifiers_key);
    if (state == NULL) {
        int opcode, event_base, error_base;
        int major = XkbMajorVersion, minor = XkbMinorVersion;
        Display *xdisplay = gdk_x11_display_get_xdisplay(display);
        if (!XkbQueryExtension(xdisplay, &opcode, &event_base, &error_base, &major, &minor)) return FALSE;
        GdkSeat *seat = gdk_display_get_default_seat(display);
        GdkDevice *keyboard = seat ? gdk_seat_get_keyboard(seat) : NULL;
        if (keyboard == NULL) return FALSE;
        state = g_new0(DDX11Modifiers, 1);
        state->xkb_event = event_base;
        // From here on GDK's reading and the events agree: the events GDK selected (modifier
        // state changes, in gdk_display_open) are the ones that keep its keymap current.
        state->mods = (guint)gdk_device_get_modifier_state(keyboard);
        g_object_set_data_full(G_OBJECT(display), dd_x11_modifiers_key, state, g_free);
        g_signal_connect(display, "xevent", G_CALLBACK(dd_x11_modifiers_on_xevent), state);
    }
    *modifiers = (GdkModifierType)state->mods;
    return TRUE;
}

#else

gboolean dd_x11_modifiers(GdkDisplay *display, GdkModifierType *modifiers) {
    (void)display;
    (void)modifiers;
    return FALSE;
}

#endif
