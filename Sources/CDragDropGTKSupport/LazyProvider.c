// A GdkContentProvider whose data is produced only when a reader asks for one of its types.
#include "CDragDropGTKSupport.h"

typedef struct {
    GdkContentProvider parent_instance;
    GdkContentFormats *formats;
    DDLazyProviderWrite write;
    gpointer user_data;
    GDestroyNotify destroy;
} DDLazyProvider;

typedef struct {
    GdkContentProviderClass parent_class;
} DDLazyProviderClass;

static GType dd_lazy_provider_get_type(void);
G_DEFINE_TYPE(DDLazyProvider, dd_lazy_provider, GDK_TYPE_CONTENT_PROVIDER)

static void dd_lazy_provider_finalize(GObject *object) {
    DDLazyProvider *self = (DDLazyProvider *)object;
    if (self->formats) gdk_content_formats_unref(self->formats);
    if (self->destroy && self->user_data) self->destroy(self->user_data);
    G_OBJECT_CLASS(dd_lazy_provider_parent_class)->finalize(object);
}

static GdkContentFormats *dd_lazy_provider_ref_formats(GdkContentProvider *provider) {
    DDLazyProvider *self = (DDLazyProvider *)provider;
    return gdk_content_formats_ref(self->formats);
}

static void dd_lazy_provider_write_mime_type_async(GdkContentProvider *provider, const char *mime_type,
                                                   GOutputStream *stream, int io_priority,
                                                   GCancellable *cancellable, GAsyncReadyCallback callback,
                                                   gpointer user_data) {
    DDLazyProvider *self = (DDLazyProvider *)provider;
    GTask *task = g_task_new(provider, cancellable, callback, user_data);
    g_task_set_priority(task, io_priority);
    g_task_set_source_tag(task, dd_lazy_provider_write_mime_type_async);
    // The stream must outlive the write even if the reader drops its reference early.
    g_task_set_task_data(task, g_object_ref(stream), g_object_unref);
    if (!gdk_content_formats_contain_mime_type(self->formats, mime_type) || self->write == NULL) {
        g_task_return_new_error(task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "Cannot provide contents as “%s”",
                                mime_type);
        g_object_unref(task);
        return;
    }
    self->write(self->user_data, mime_type, stream, io_priority, cancellable, task);
}

static gboolean dd_lazy_provider_write_mime_type_finish(GdkContentProvider *provider, GAsyncResult *result,
                                                        GError **error) {
    g_return_val_if_fail(g_task_is_valid(result, provider), FALSE);
    return g_task_propagate_boolean(G_TASK(result), error);
}

static void dd_lazy_provider_class_init(DDLazyProviderClass *klass) {
    GObjectClass *object_class = G_OBJECT_CLASS(klass);
    GdkContentProviderClass *provider_class = GDK_CONTENT_PROVIDER_CLASS(klass);
    object_class->finalize = dd_lazy_provider_finalize;
    provider_class->ref_formats = dd_lazy_provider_ref_formats;
    provider_class->write_mime_type_async = dd_lazy_provider_write_mime_type_async;
    provider_class->write_mime_type_finish = dd_lazy_provider_write_mime_type_finish;
}

static void dd_lazy_provider_init(DDLazyProvider *self) { (void)self; }

GdkContentProvider *dd_lazy_provider_new(const char *const *mime_types, gsize n_mime_types,
                                         DDLazyProviderWrite write, gpointer user_data, GDestroyNotify destroy) {
    DDLazyProvider *self = g_object_new(dd_lazy_provider_get_type(), NULL);
    self->formats = gdk_content_formats_new((const char **)mime_types, (guint)n_mime_types);
    self->write = write;
    self->user_data = user_data;
    self->destroy = destroy;
    return GDK_CONTENT_PROVIDER(self);
}

void dd_lazy_provider_return(GTask *task, const char *error_message) {
    if (task == NULL) return;
    if (error_message == NULL) {
        g_task_return_boolean(task, TRUE);
    } else {
        g_task_return_new_error(task, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", error_message);
    }
    g_object_unref(task);
}
