// The separator lines of a DragCollectionView list, drawn once for the whole list.
//
// A `border-bottom` on every row cost GTK 4.8's cairo renderer 2-3 ms a frame while scrolling
// (BENCHMARKS.md, "Autoscroll frames"), however the row drew it. The list view here is a
// GtkListView whose snapshot, after GTK's (the rows), appends one 1 px rectangle at the bottom
// of each row widget, where GTK laid it out: the rows keep a 1 px bottom padding where their
// border was, so the geometry stays the same, and the lines stay under the scrolled window's
// scrollbars and above the rows' backgrounds, as the borders were. Like the stylesheet's
// `row:not(:last-child)`, the list's last child row gets no line. A row in the :focus-visible
// state keeps its border from the stylesheet (its focus ring is drawn over it). The colour is
// the stylesheet's, rgba(0, 0, 0, 0.08) (DragCollectionView.css).
//
// GtkListView is declared final in its header but its GType is not (GTK 4.8): the subclass is
// registered at run time with the sizes GObject reports for it.
#include "CDragDropGTKSupport.h"
#include <string.h>

static GtkWidgetClass *dd_list_view_parent_class;
static GdkRGBA dd_list_view_line_color = {0, 0, 0, 0.08};

static void dd_list_view_snapshot(GtkWidget *list, GtkSnapshot *snapshot) {
    dd_list_view_parent_class->snapshot(list, snapshot);
    int width = gtk_widget_get_width(list), height = gtk_widget_get_height(list);
    if (width <= 0 || height <= 0) return;
    GtkWidget *last = gtk_widget_get_last_child(list);
    gboolean clipped = FALSE;
    for (GtkWidget *row = gtk_widget_get_first_child(list); row != NULL && row != last;
         row = gtk_widget_get_next_sibling(row)) {
        if (!gtk_widget_get_visible(row) || !gtk_widget_get_child_visible(row)) continue;
        if (strcmp(gtk_widget_get_css_name(row), "row") != 0) continue;
        if (gtk_widget_get_state_flags(row) & GTK_STATE_FLAG_FOCUS_VISIBLE) continue;
        graphene_rect_t bounds;
        if (!gtk_widget_compute_bounds(row, list, &bounds) || bounds.size.height < 1) continue;
        float y = bounds.origin.y + bounds.size.height - 1;
        if (y + 1 <= 0 || y >= height) continue;
        float x0 = MAX(bounds.origin.x, 0), x1 = MIN(bounds.origin.x + bounds.size.width, width);
        if (x1 <= x0) continue;
        if (!clipped) {
            gtk_snapshot_push_clip(snapshot, &GRAPHENE_RECT_INIT(0, 0, width, height));
            clipped = TRUE;
        }
        gtk_snapshot_append_color(snapshot, &dd_list_view_line_color, &GRAPHENE_RECT_INIT(x0, y, x1 - x0, 1));
    }
    if (clipped) gtk_snapshot_pop(snapshot);
}

static void dd_list_view_class_init(gpointer klass, gpointer data) {
    (void)data;
    dd_list_view_parent_class = g_type_class_peek_parent(klass);
    GTK_WIDGET_CLASS(klass)->snapshot = dd_list_view_snapshot;
}

static GType dd_list_view_get_type(void) {
    static GType type = 0;
    if (type == 0) {
        GTypeQuery query;
        g_type_query(GTK_TYPE_LIST_VIEW, &query);
        if (query.type == 0 || G_TYPE_IS_FINAL(GTK_TYPE_LIST_VIEW)) return G_TYPE_INVALID;
        GTypeInfo info = {
            .class_size = (guint16)query.class_size,
            .class_init = dd_list_view_class_init,
            .instance_size = (guint16)query.instance_size,
        };
        type = g_type_register_static(GTK_TYPE_LIST_VIEW, "DDListView", &info, 0);
    }
    return type;
}

GtkWidget *dd_list_view_new(GtkSelectionModel *model, GtkListItemFactory *factory, gboolean *draws_lines) {
    GType type = dd_list_view_get_type();
    *draws_lines = type != G_TYPE_INVALID;
    if (type == G_TYPE_INVALID) return gtk_list_view_new(model, factory);
    GtkWidget *list = g_object_new(type, "model", model, "factory", factory, NULL);
    // gtk_list_view_new takes both references; so does this.
    if (model != NULL) g_object_unref(model);
    if (factory != NULL) g_object_unref(factory);
    return list;
}
