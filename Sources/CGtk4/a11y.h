// Accessibility helpers for GTK 4.8: variadic calls that do not import into Swift.
#ifndef DRAGDROP_CGTK4_A11Y_H
#define DRAGDROP_CGTK4_A11Y_H

#include <gtk/gtk.h>

// A label with another accessible role (the role is a construct-only property): a status
// label announcing drag progress uses GTK_ACCESSIBLE_ROLE_STATUS (AT-SPI "status bar").
static inline GtkWidget *dd_label_new_with_role(const char *text, GtkAccessibleRole role) {
    return GTK_WIDGET(g_object_new(GTK_TYPE_LABEL, "label", text, "accessible-role", role, NULL));
}

// Sets a string-valued accessible property (label, description, key shortcuts...).
// A picture that is decoration (a tile's thumbnail, named by its tile): screen readers skip it.
static inline GtkWidget *dd_picture_new_decorative(void) {
    return GTK_WIDGET(g_object_new(GTK_TYPE_PICTURE, "accessible-role", GTK_ACCESSIBLE_ROLE_PRESENTATION, NULL));
}

static inline void dd_accessible_set_string(GtkAccessible *a, GtkAccessibleProperty property, const char *text) {
    gtk_accessible_update_property(a, property, text, -1);
}

// Sets an integer-valued accessible property (a tree item's level, 1 at the top).
static inline void dd_accessible_set_int(GtkAccessible *a, GtkAccessibleProperty property, int value) {
    gtk_accessible_update_property(a, property, value, -1);
}

// Says whether a tree item shows its children (AT-SPI "expanded"/"expandable").
static inline void dd_accessible_set_expanded(GtkAccessible *a, gboolean expanded) {
    gtk_accessible_update_state(a, GTK_ACCESSIBLE_STATE_EXPANDED, expanded, -1);
}

// A row that holds no children: neither expanded nor collapsed.
static inline void dd_accessible_reset_expanded(GtkAccessible *a) {
    gtk_accessible_reset_state(a, GTK_ACCESSIBLE_STATE_EXPANDED);
}

// The value of a string-valued accessible property as GTK holds it (free with g_free), or NULL
// when the property is not set. GTK 4.8 has no getter: gtk_test_accessible_check_property
// returns NULL when the value equals the one passed and the real value otherwise, so it is
// compared with a value no widget uses.
static inline char *dd_accessible_copy_string(GtkAccessible *a, GtkAccessibleProperty property) {
    if (!gtk_test_accessible_has_property(a, property)) return NULL;
    return gtk_test_accessible_check_property(a, property, "\001dd-no-such-value\001");
}

#endif
