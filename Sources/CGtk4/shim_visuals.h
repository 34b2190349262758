// GTK 4 for Swift: casts and type checks the visual feedback (placeholders, spring-loaded
// buttons, autoscroll, flocks) needs. Kept apart from shim.h so parallel work merges cleanly.
#ifndef DRAGDROP_CGTK4_SHIM_VISUALS_H
#define DRAGDROP_CGTK4_SHIM_VISUALS_H

#include <gtk/gtk.h>

static inline GtkProgressBar *dd_progress_bar(gpointer p) { return GTK_PROGRESS_BAR(p); }
static inline GtkStack *dd_stack(gpointer p) { return GTK_STACK(p); }
static inline gboolean dd_is_scrolled_window(gpointer p) { return GTK_IS_SCROLLED_WINDOW(p); }
static inline gboolean dd_is_button(gpointer p) { return GTK_IS_BUTTON(p); }

#endif
