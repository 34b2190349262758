// A list model that is also its own selection model, both answered by Swift through a table
// of callbacks: the count of items and which are selected live in the app's model (a database,
// a folder on disk), so a GtkListView or GtkGridView over 100,000 items holds nothing per item.
// Items are made only when GTK asks for one (the rows GTK keeps widgets for). Each is a plain
// GObject standing for one row's key (its identifier) for as long as GTK holds it, so a row
// widget can tell whether it is bound again to the item it showed.
//
// That matters because GTK 4.8's signal list item factory unbinds and binds a row whenever GTK
// updates it: after every change of its position or of the selection. GTK keeps about 200 row
// widgets, most of them off screen, so one click, or rows inserted above them, made the app bind
// 200 rows again (in a debug build about 80 µs a row: 17 ms). The factory's bind and unbind are
// filtered here (dd_collection_model_connect_factory): an unbind waits, and a bind to the same
// item object cancels it without calling the app; an unbind not followed by a bind to the same
// item reaches the app at the next bind, at dd_collection_model_flush_unbinds, or at the next
// turn of the main loop. The app forgets a key (dd_collection_model_forget) when its item's
// content changed, so the row is bound again.
#include "CDragDropGTKSupport.h"

typedef struct {
    DDCollectionModel *model;
    char *key;
    GObject *object;
} DDCollectionItem;

struct _DDCollectionModel {
    GObject parent_instance;
    DDCollectionModelCallbacks callbacks;
    gpointer user_data;
    GDestroyNotify destroy;
    /// key → DDCollectionItem, for the items GTK holds; weak.
    GHashTable *items;
    /// The list items unbound, waiting to see whether they are bound again to their item.
    GPtrArray *unbound;
    guint flush_source;
};

static GQuark dd_unbound_item_quark(void) {
    static GQuark quark;
    if (quark == 0) quark = g_quark_from_static_string("dd-unbound-item");
    return quark;
}

static void dd_collection_item_free(gpointer data) {
    DDCollectionItem *entry = data;
    g_free(entry->key);
    g_free(entry);
}

/// The object of `entry` was finalized: its key no longer has one.
static void dd_collection_item_gone(gpointer data, GObject *where_the_object_was) {
    (void)where_the_object_was;
    DDCollectionItem *entry = data;
    g_hash_table_remove(entry->model->items, entry->key);
}

static void dd_collection_model_forget_all(DDCollectionModel *self) {
    GHashTableIter iter;
    gpointer value;
    g_hash_table_iter_init(&iter, self->items);
    while (g_hash_table_iter_next(&iter, NULL, &value)) {
        DDCollectionItem *entry = value;
        g_object_weak_unref(entry->object, dd_collection_item_gone, entry);
        g_hash_table_iter_remove(&iter);
    }
}

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
    DDCollectionModel *self = DD_COLLECTION_MODEL(list);
    if (position >= dd_collection_model_get_n_items(list)) return NULL;
    char *key = self->callbacks.item_key ? self->callbacks.item_key(self->user_data, position) : NULL;
    if (key == NULL) return g_object_new(G_TYPE_OBJECT, NULL);
    DDCollectionItem *entry = g_hash_table_lookup(self->items, key);
    if (entry != NULL) {
        g_free(key);
        return g_object_ref(entry->object);
    }
    entry = g_new0(DDCollectionItem, 1);
    entry->model = self;
    entry->key = key;
    entry->object = g_object_new(G_TYPE_OBJECT, NULL);
    g_object_weak_ref(entry->object, dd_collection_item_gone, entry);
    g_hash_table_insert(self->items, entry->key, entry);
    return entry->object;
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
    if (self->flush_source) g_source_remove(self->flush_source);
    g_ptr_array_unref(self->unbound);
    dd_collection_model_forget_all(self);
    g_hash_table_unref(self->items);
    if (self->destroy && self->user_data) self->destroy(self->user_data);
    self->user_data = NULL;
    G_OBJECT_CLASS(dd_collection_model_parent_class)->finalize(object);
}

static void dd_collection_model_class_init(DDCollectionModelClass *klass) {
    G_OBJECT_CLASS(klass)->finalize = dd_collection_model_finalize;
}

static void dd_collection_model_init(DDCollectionModel *self) {
    self->items = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, dd_collection_item_free);
    self->unbound = g_ptr_array_new_with_free_func(g_object_unref);
}

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

void dd_collection_model_forget(DDCollectionModel *model, const char *key) {
    DDCollectionItem *entry = g_hash_table_lookup(model->items, key);
    if (entry == NULL) return;
    g_object_weak_unref(entry->object, dd_collection_item_gone, entry);
    g_hash_table_remove(model->items, key);
}

guint dd_collection_model_held_items(DDCollectionModel *model) { return g_hash_table_size(model->items); }

// Row binding (see the top of this file).

void dd_collection_model_flush_unbinds(DDCollectionModel *self) {
    if (self->unbound->len == 0) return;
    GPtrArray *waiting = self->unbound;
    self->unbound = g_ptr_array_new_with_free_func(g_object_unref);
    for (guint i = 0; i < waiting->len; i++) {
        GObject *list_item = g_ptr_array_index(waiting, i);
        if (g_object_get_qdata(list_item, dd_unbound_item_quark()) == NULL) continue;
        g_object_set_qdata(list_item, dd_unbound_item_quark(), NULL);
        if (self->callbacks.unbind) self->callbacks.unbind(self->user_data, list_item);
    }
    g_ptr_array_unref(waiting);
}

static gboolean dd_collection_model_flush_later(gpointer data) {
    DDCollectionModel *self = data;
    self->flush_source = 0;
    dd_collection_model_flush_unbinds(self);
    return G_SOURCE_REMOVE;
}

static void dd_collection_model_on_unbind(GtkSignalListItemFactory *factory, GObject *list_item, gpointer data) {
    (void)factory;
    DDCollectionModel *self = data;
    gpointer item = gtk_list_item_get_item(GTK_LIST_ITEM(list_item));
    if (item == NULL) {
        if (self->callbacks.unbind) self->callbacks.unbind(self->user_data, list_item);
        return;
    }
    // Held until the next bind: the same object then is the same item (no other can take its address).
    g_object_set_qdata_full(list_item, dd_unbound_item_quark(), g_object_ref(item), g_object_unref);
    g_ptr_array_add(self->unbound, g_object_ref(list_item));
    if (self->flush_source == 0)
        self->flush_source = g_idle_add_full(G_PRIORITY_HIGH, dd_collection_model_flush_later, self, NULL);
}

static void dd_collection_model_on_bind(GtkSignalListItemFactory *factory, GObject *list_item, gpointer data) {
    (void)factory;
    DDCollectionModel *self = data;
    gpointer before = g_object_get_qdata(list_item, dd_unbound_item_quark());
    if (before != NULL) {
        gboolean same = before == gtk_list_item_get_item(GTK_LIST_ITEM(list_item));
        g_object_set_qdata(list_item, dd_unbound_item_quark(), NULL);
        if (same) return;
        if (self->callbacks.unbind) self->callbacks.unbind(self->user_data, list_item);
    }
    if (self->callbacks.bind) self->callbacks.bind(self->user_data, list_item);
}

static void dd_collection_model_on_teardown(GtkSignalListItemFactory *factory, GObject *list_item, gpointer data) {
    (void)factory;
    (void)data;
    g_object_set_qdata(list_item, dd_unbound_item_quark(), NULL);
}

void dd_collection_model_connect_factory(DDCollectionModel *model, gpointer factory) {
    g_signal_connect_object(factory, "bind", G_CALLBACK(dd_collection_model_on_bind), model, 0);
    g_signal_connect_object(factory, "unbind", G_CALLBACK(dd_collection_model_on_unbind), model, 0);
    g_signal_connect_object(factory, "teardown", G_CALLBACK(dd_collection_model_on_teardown), model, 0);
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
    dd_collection_model_forget_all(model);
}

gboolean dd_is_list_view(gpointer widget) { return widget != NULL && GTK_IS_LIST_VIEW(widget); }
gboolean dd_is_grid_view(gpointer widget) { return widget != NULL && GTK_IS_GRID_VIEW(widget); }
