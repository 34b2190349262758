// GTK 4 for Swift: what the standard controls (page control, slider, switch rows, secure entry)
// and the HIG check of live windows need that does not import: type checks, variadic
// accessibility calls, construct-only roles and GObject data. Kept apart from shim.h so
// parallel work merges cleanly.
#ifndef DRAGDROP_CGTK4_SHIM_CONTROLS_H
#define DRAGDROP_CGTK4_SHIM_CONTROLS_H

#include <gtk/gtk.h>

static inline gboolean dd_is_switch(gpointer p) { return GTK_IS_SWITCH(p); }
static inline gboolean dd_is_range(gpointer p) { return GTK_IS_RANGE(p); }
static inline gboolean dd_is_scale(gpointer p) { return GTK_IS_SCALE(p); }
static inline gboolean dd_is_password_entry(gpointer p) { return GTK_IS_PASSWORD_ENTRY(p); }
static inline gboolean dd_is_text(gpointer p) { return GTK_IS_TEXT(p); }
static inline gboolean dd_is_check_button(gpointer p) { return GTK_IS_CHECK_BUTTON(p); }
static inline gboolean dd_is_popover(gpointer p) { return GTK_IS_POPOVER(p); }
static inline gboolean dd_is_header_bar(gpointer p) { return GTK_IS_HEADER_BAR(p); }
static inline gboolean dd_is_editable(gpointer p) { return GTK_IS_EDITABLE(p); }
static inline GtkSwitch *dd_switch(gpointer p) { return GTK_SWITCH(p); }
static inline GtkRange *dd_range(gpointer p) { return GTK_RANGE(p); }
static inline GtkScale *dd_scale(gpointer p) { return GTK_SCALE(p); }
static inline GtkMenuButton *dd_menu_button(gpointer p) { return GTK_MENU_BUTTON(p); }
static inline GtkPopover *dd_popover(gpointer p) { return GTK_POPOVER(p); }

// A drawing area with another accessible role (the role is a construct-only property): a page
// control is an adjustable "slider" to assistive technology ("Page 2 of 3").
static inline GtkWidget *dd_drawing_area_new_with_role(GtkAccessibleRole role) {
    return GTK_WIDGET(g_object_new(GTK_TYPE_DRAWING_AREA, "accessible-role", role, NULL));
}

// A box with another accessible role (a row of controls that is one control to a screen reader).
static inline GtkWidget *dd_box_new_with_role(GtkOrientation orientation, int spacing, GtkAccessibleRole role) {
    return GTK_WIDGET(
        g_object_new(GTK_TYPE_BOX, "orientation", orientation, "spacing", spacing, "accessible-role", role, NULL));
}

// Number-valued accessible properties (value now, min, max) are variadic.
static inline void dd_accessible_set_double(GtkAccessible *a, GtkAccessibleProperty property, double value) {
    gtk_accessible_update_property(a, property, value, -1);
}

// The hidden state (decoration a screen reader skips) and the disabled state are variadic too.
static inline void dd_accessible_set_hidden(GtkAccessible *a, gboolean hidden) {
    gtk_accessible_update_state(a, GTK_ACCESSIBLE_STATE_HIDDEN, hidden, -1);
}

// The labelled-by relation (variadic, NULL-terminated list of widgets).
static inline void dd_accessible_set_labelled_by(GtkAccessible *a, GtkWidget *label) {
    gtk_accessible_update_relation(a, GTK_ACCESSIBLE_RELATION_LABELLED_BY, label, NULL, -1);
}

// Whether GTK holds an accessible property or relation for `a` (false as well when GTK runs
// without an accessibility context, GTK_A11Y=none).
static inline gboolean dd_accessible_has_property(GtkAccessible *a, GtkAccessibleProperty property) {
    return gtk_test_accessible_has_property(a, property);
}
static inline gboolean dd_accessible_has_relation(GtkAccessible *a, GtkAccessibleRelation relation) {
    return gtk_test_accessible_has_relation(a, relation);
}

// Small integers kept on any GObject under a name (GINT_TO_POINTER), readable by code that
// did not make the object: a page indicator's page count for the HIG check.
static inline void dd_object_set_int_data(gpointer object, const char *key, int value) {
    g_object_set_data(G_OBJECT(object), key, GINT_TO_POINTER(value));
}
static inline int dd_object_get_int_data(gpointer object, const char *key) {
    return GPOINTER_TO_INT(g_object_get_data(G_OBJECT(object), key));
}

// Sets a string property (g_object_set is variadic).
static inline void dd_object_set_string(gpointer object, const char *property, const char *value) {
    g_object_set(object, property, value, NULL);
}

// A string property's value (g_object_get is variadic); free with g_free.
static inline char *dd_object_dup_string(gpointer object, const char *property) {
    char *value = NULL;
    g_object_get(object, property, &value, NULL);
    return value;
}

#endif
