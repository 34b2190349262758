// GTK 4 for Swift: the macros and varargs that do not import, as static inline functions.
#ifndef DRAGDROP_CGTK4_SHIM_H
#define DRAGDROP_CGTK4_SHIM_H

#include <gtk/gtk.h>
#include <glib-unix.h>

// libdispatch's main queue on Linux is woken through an eventfd; GLib watches it and drains
// the queue so Swift's main actor runs inside GTK's main loop.
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *msg);

static inline int dd_dispatch_main_queue_fd(void) { return _dispatch_get_main_queue_handle_4CF(); }
static inline void dd_dispatch_drain_main_queue(void) { _dispatch_main_queue_callback_4CF(NULL); }

static inline gulong dd_signal_connect(gpointer instance, const char *signal, GCallback handler, gpointer data,
                                       GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, handler, data, destroy, (GConnectFlags)0);
}

static inline GType dd_type_string(void) { return G_TYPE_STRING; }
static inline GType dd_type_bytes(void) { return G_TYPE_BYTES; }
static inline GType dd_type_file_list(void) { return GDK_TYPE_FILE_LIST; }

static inline GtkWidget *dd_widget(gpointer p) { return GTK_WIDGET(p); }
static inline GtkWindow *dd_window(gpointer p) { return GTK_WINDOW(p); }
static inline GtkEventController *dd_controller(gpointer p) { return GTK_EVENT_CONTROLLER(p); }
static inline GtkGesture *dd_gesture(gpointer p) { return GTK_GESTURE(p); }
static inline GtkGestureSingle *dd_gesture_single(gpointer p) { return GTK_GESTURE_SINGLE(p); }
static inline GtkBox *dd_box(gpointer p) { return GTK_BOX(p); }
static inline GtkLabel *dd_label(gpointer p) { return GTK_LABEL(p); }
static inline GtkOverlay *dd_overlay(gpointer p) { return GTK_OVERLAY(p); }
static inline GtkFixed *dd_fixed(gpointer p) { return GTK_FIXED(p); }
static inline GtkScrolledWindow *dd_scrolled_window(gpointer p) { return GTK_SCROLLED_WINDOW(p); }
static inline GtkDrawingArea *dd_drawing_area(gpointer p) { return GTK_DRAWING_AREA(p); }
static inline GtkDragSource *dd_drag_source(gpointer p) { return GTK_DRAG_SOURCE(p); }
static inline GtkDropTargetAsync *dd_drop_target_async(gpointer p) { return GTK_DROP_TARGET_ASYNC(p); }
static inline GApplication *dd_application(gpointer p) { return G_APPLICATION(p); }
static inline GtkApplication *dd_gtk_application(gpointer p) { return GTK_APPLICATION(p); }
static inline GObject *dd_object(gpointer p) { return G_OBJECT(p); }
static inline GtkEditable *dd_editable(gpointer p) { return GTK_EDITABLE(p); }
static inline GtkTextView *dd_text_view(gpointer p) { return GTK_TEXT_VIEW(p); }
static inline GtkButton *dd_button(gpointer p) { return GTK_BUTTON(p); }
static inline GtkAccessible *dd_accessible(gpointer p) { return GTK_ACCESSIBLE(p); }
static inline GtkPicture *dd_picture(gpointer p) { return GTK_PICTURE(p); }
static inline GdkPaintable *dd_paintable(gpointer p) { return GDK_PAINTABLE(p); }
static inline GtkListBox *dd_list_box(gpointer p) { return GTK_LIST_BOX(p); }
static inline GtkListBoxRow *dd_list_box_row(gpointer p) { return GTK_LIST_BOX_ROW(p); }
static inline GtkDragIcon *dd_drag_icon(gpointer p) { return GTK_DRAG_ICON(p); }
static inline GdkDrag *dd_gdk_drag(gpointer p) { return GDK_DRAG(p); }
static inline GdkDrop *dd_gdk_drop(gpointer p) { return GDK_DROP(p); }
static inline GdkContentProvider *dd_content_provider(gpointer p) { return GDK_CONTENT_PROVIDER(p); }
static inline GtkStyleProvider *dd_style_provider(gpointer p) { return GTK_STYLE_PROVIDER(p); }
static inline GtkEventControllerKey *dd_event_controller_key(gpointer p) { return GTK_EVENT_CONTROLLER_KEY(p); }
static inline GdkFrameClock *dd_frame_clock(gpointer p) { return GDK_FRAME_CLOCK(p); }

// g_object_set is variadic.
static inline void dd_object_set_int(gpointer object, const char *property, int value) {
    g_object_set(object, property, value, NULL);
}

// gtk_accessible_update_property is variadic.
static inline void dd_accessible_set_label(GtkAccessible *a, const char *label) {
    gtk_accessible_update_property(a, GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}
static inline void dd_accessible_set_description(GtkAccessible *a, const char *text) {
    gtk_accessible_update_property(a, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}

#endif
