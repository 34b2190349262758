// A GtkBox that takes the keyboard focus itself: GtkBox passes Tab on to its children only, so
// a card made of a picture and a label (a drag source) could never be reached with the keyboard
// to pick it up (C4).
#include "CDragDropGTKSupport.h"

struct _DDFocusBox {
    GtkBox parent_instance;
};

G_DEFINE_FINAL_TYPE(DDFocusBox, dd_focus_box, GTK_TYPE_BOX)

static gboolean dd_focus_box_focus(GtkWidget *widget, GtkDirectionType direction) {
    (void)direction;
    // Entering: take the focus. Already focused: let Tab move on.
    if (gtk_widget_is_focus(widget)) return FALSE;
    return gtk_widget_grab_focus(widget);
}

static void dd_focus_box_class_init(DDFocusBoxClass *klass) {
    GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);
    widget_class->focus = dd_focus_box_focus;
}

static void dd_focus_box_init(DDFocusBox *self) {
    gtk_widget_set_focusable(GTK_WIDGET(self), TRUE);
}

GtkWidget *dd_focus_box_new(GtkOrientation orientation, int spacing) {
    return g_object_new(dd_focus_box_get_type(), "orientation", orientation, "spacing", spacing, NULL);
}
