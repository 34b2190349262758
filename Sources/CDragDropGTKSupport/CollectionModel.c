// A list model that is also its own selection model, both answered by Swift through a table
// of callbacks: the count of items and which are selected live in the app's model (a database,
// a folder on disk), so a GtkListView or GtkGridView over 100,000 items holds nothing per item.
// Items are made only when GTK asks for one (the rows on screen); each is a plain GObject, new
// every time, so GTK rebinds any row whose position was part of a change.
#include "CDragDropGTKSupport.h"

struct _DDCollectionModel {
    GObject parent_instance;
    DDCollectionModelCallbacks callbacks;
    gpointer user_data;
    GDestroyNotify destroy;
};

static void dd_collection_model_list_model_init(GListModelInterface *iface);
static void dd_collection_model_selection_model_init(GtkSelectionModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE(DDCollectionModel, dd_collection_model, G_TYPE_OBJECT,
                              G_IMPLEMENT_INTERFACE(G_TYPE_LIST_MODEL, dd_collection_model_list_model_init)
                                  G_IMPLEMENT_INTERFACE(GTK_TYPE_SELECTION_MODEL,
                                                        dd_collection_model_selection_model_init))

static GType dd_collection_model_get_item_type(GListModel *list) {
    (void)list;
    return G_TYPE_OBJECT;
}

static guint dd_collection_model_get_n_items(GListModel *list) {
    DDCollectionModel *self = DD_COLLECTION_MODEL(list);
    return self->callbacks.n_items ? self->callbacks.n_items(self->user_data) : 0;
}

static gpointer dd_collection_model_get_item(GListModel *list, guint position) {
    if (position >= dd_collection_model_get_n_items(list)) return NULL;
    return g_object_new(G_TYPE_OBJECT, NULL);
}

static void dd_collection_model_list_model_init(GListModelInterface *iface) {
    iface->get_item_type = dd_collection_model_get_item_type;
    iface->get_n_items = dd_collection_model_get_n_items;
    iface->get_item = dd_collection_model_get_item;
}

static gboolean dd_collection_model_is_selected(GtkSelectionModel *model, guint position) {
    DDCollectionModel *self = DD_COLLECTION_MODEL(model);
    return self->callbacks.is_selected ? self->callbacks.is_selected(self->user_data, position) : FALSE;
}

static gboolean dd_collection_model_change(GtkSelectionModel *model, DDSelectionChange change, guint position,
                                           guint n_items, gboolean unselect_rest) {
    DDCollectionModel *self = DD_COLLECTION_MODEL(model);
    if (!self->callbacks.change_selection) return FALSE;
    return self->callbacks.change_selection(self->user_data, change, position, n_items, unselect_rest);
}

static gboolean dd_collection_model_select_item(GtkSelectionModel *model, guint position, gboolean unselect_rest) {
    return dd_collection_model_change(model, DD_SELECT_ITEM, position, 1, unselect_rest);
}

static gboolean dd_collection_model_unselect_item(GtkSelectionModel *model, guint position) {
    return dd_collection_model_change(model, DD_UNSELECT_ITEM, position, 1, FALSE);
}

static gboolean dd_collection_model_select_range(GtkSelectionModel *model, guint position, guint n_items,
                                                 gboolean unselect_rest) {
    return dd_collection_model_change(model, DD_SELECT_RANGE, position, n_items, unselect_rest);
}

static gboolean dd_collection_model_unselect_range(GtkSelectionModel *model, guint position, guint n_items) {
    return dd_collection_model_change(model, DD_UNSELECT_RANGE, position, n_items, FALSE);
}

static gboolean dd_collection_model_select_all(GtkSelectionModel *model) {
    return dd_collection_model_change(model, DD_SELECT_ALL, 0, 0, FALSE);
}

static gboolean dd_collection_model_unselect_all(GtkSelectionModel *model) {
    return dd_collection_model_change(model, DD_UNSELECT_ALL, 0, 0, FALSE);
}

static void dd_collection_model_selection_model_init(GtkSelectionModelInterface *iface) {
    iface->is_selected = dd_collection_model_is_selected;
    iface->select_item = dd_collection_model_select_item;
    iface->unselect_item = dd_collection_model_unselect_item;
    iface->select_range = dd_collection_model_select_range;
    iface->unselect_range = dd_collection_model_unselect_range;
    iface->select_all = dd_collection_model_select_all;
    iface->unselect_all = dd_collection_model_unselect_all;
}

static void dd_collection_model_finalize(GObject *object) {
    DDCollectionModel *self = DD_COLLECTION_MODEL(object);
    if (self->destroy && self->user_data) self->destroy(self->user_data);
    self->user_data = NULL;
    G_OBJECT_CLASS(dd_collection_model_parent_class)->finalize(object);
}

static void dd_collection_model_class_init(DDCollectionModelClass *klass) {
    G_OBJECT_CLASS(klass)->finalize = dd_collection_model_finalize;
}

static void dd_collection_model_init(DDCollectionModel *self) { (void)self; }

DDCollectionModel *dd_collection_model_new(const DDCollectionModelCallbacks *callbacks, gpointer user_data,
                                           GDestroyNotify destroy) {
    DDCollectionModel *self = g_object_new(DD_TYPE_COLLECTION_MODEL, NULL);
    self->callbacks = *callbacks;
    self->user_data = user_data;
    self->destroy = destroy;
    return self;
}

void dd_collection_model_items_changed(DDCollectionModel *model, guint position, guint removed, guint added) {
    g_list_model_items_changed(G_LIST_MODEL(model), position, removed, added);
}

void dd_collection_model_selection_changed(DDCollectionModel *model, guint position, guint n_items) {
    if (n_items == 0) return;
    gtk_selection_model_selection_changed(GTK_SELECTION_MODEL(model), position, n_items);
}

void dd_collection_model_detach(DDCollectionModel *model) {
    if (model->destroy && model->user_data) model->destroy(model->user_data);
    model->user_data = NULL;
    model->destroy = NULL;
    memset(&model->callbacks, 0, sizeof model->callbacks);
}

gboolean dd_is_list_view(gpointer widget) { return widget != NULL && GTK_IS_LIST_VIEW(widget); }
gboolean dd_is_grid_view(gpointer widget) { return widget != NULL && GTK_IS_GRID_VIEW(widget); }
