// GTK 4 for the gtk_widget_pick baseline: casts that are macros in C, as inline functions.
#ifndef DRAGDROP_BENCH_CGTK4_SHIM_H
#define DRAGDROP_BENCH_CGTK4_SHIM_H

#include <gtk/gtk.h>

static inline GtkFixed *bb_fixed(GtkWidget *w) { return (GtkFixed *)w; }
static inline GtkWindow *bb_window(GtkWidget *w) { return (GtkWindow *)w; }
static inline GtkScrolledWindow *bb_scrolled_window(GtkWidget *w) { return (GtkScrolledWindow *)w; }

#endif
