// GTK 4 for Swift: type checks for walking a window's widgets (the showcase's checks of its
// own controls: button titles, copyable labels, text-field hints; K1-K3).
#ifndef DRAGDROP_CGTK4_SHIM_INSPECT_H
#define DRAGDROP_CGTK4_SHIM_INSPECT_H

#include <gtk/gtk.h>

static inline gboolean dd_is_label(gpointer p) { return GTK_IS_LABEL(p); }
static inline gboolean dd_is_menu_button(gpointer p) { return GTK_IS_MENU_BUTTON(p); }
static inline gboolean dd_is_entry(gpointer p) { return GTK_IS_ENTRY(p); }
static inline gboolean dd_is_text_view(gpointer p) { return GTK_IS_TEXT_VIEW(p); }
static inline gboolean dd_is_list_box_row(gpointer p) { return GTK_IS_LIST_BOX_ROW(p); }
static inline gboolean dd_is_flow_box_child(gpointer p) { return GTK_IS_FLOW_BOX_CHILD(p); }
static inline gboolean dd_is_list_box(gpointer p) { return GTK_IS_LIST_BOX(p); }
static inline gboolean dd_is_flow_box(gpointer p) { return GTK_IS_FLOW_BOX(p); }
static inline GtkEntry *dd_entry(gpointer p) { return GTK_ENTRY(p); }
static inline const char *dd_type_name(gpointer p) { return G_OBJECT_TYPE_NAME(p); }

#endif
