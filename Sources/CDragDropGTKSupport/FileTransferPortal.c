// The file transfer portal (org.freedesktop.portal.FileTransfer, served by xdg-document-portal):
// how files cross between a sandboxed app (Flatpak) and others. The giving side opens a transfer,
// hands the portal descriptors of its files and offers the transfer's key as the drag's
// `application/vnd.portal.filetransfer` bytes; the taking side asks the portal for the files of
// that key and gets paths it can open (inside a sandbox, paths under the portal's FUSE mount).
//
// The portal is only used while its service already runs: its name is watched, never started
// (as GTK does), so an app on a desktop without portals offers and reads nothing new.
#define _GNU_SOURCE
#include "CDragDropGTKSupport.h"

#ifdef G_OS_UNIX
#include <errno.h>
#include <fcntl.h>
#include <gio/gunixfdlist.h>
#include <string.h>
#include <unistd.h>

#define PORTAL_NAME "org.freedesktop.portal.Documents"
#define PORTAL_PATH "/org/freedesktop/portal/documents"
#define PORTAL_INTERFACE "org.freedesktop.portal.FileTransfer"
/// How long one call to the portal may take (ms).
#define PORTAL_TIMEOUT 10000
/// Descriptors sent in one AddFiles call (a bus message carries a limited number).
#define FILES_PER_CALL 16

static guint watch_id;
static gboolean portal_owned;

static void on_appeared(GDBusConnection *connection, const gchar *name, const gchar *owner, gpointer data) {
    (void)connection; (void)name; (void)owner; (void)data;
    portal_owned = TRUE;
}

static void on_vanished(GDBusConnection *connection, const gchar *name, gpointer data) {
    (void)connection; (void)name; (void)data;
    portal_owned = FALSE;
}

void dd_portal_watch(void) {
    if (watch_id != 0) return;
    watch_id = g_bus_watch_name(G_BUS_TYPE_SESSION, PORTAL_NAME, G_BUS_NAME_WATCHER_FLAGS_NONE, on_appeared,
                                on_vanished, NULL, NULL);
}

gboolean dd_portal_available(void) { return portal_owned; }

// MARK: Registering files (the giving side)

/// The reply of a finished portal call, or NULL after failing `task` with the call's error (the
/// task is then released).
static GVariant *reply_or_fail(GObject *source, GAsyncResult *result, GTask *task) {
    GError *error = NULL;
    GVariant *reply = g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), result, &error);
    if (reply == NULL) {
        g_task_return_error(task, error);
        g_object_unref(task);
    }
    return reply;
}

/// The session bus for `task`, or NULL after failing it (the task is then released).
static GDBusConnection *bus_or_fail(GTask *task) {
    GError *error = NULL;
    GDBusConnection *connection = g_bus_get_sync(G_BUS_TYPE_SESSION, g_task_get_cancellable(task), &error);
    if (connection == NULL) {
        g_task_return_error(task, error);
        g_object_unref(task);
    }
    return connection;
}

typedef struct {
    GDBusConnection *connection;
    char **paths;
    guint next;
    char *key;
} Registration;

static void registration_free(gpointer data) {
    Registration *r = data;
    g_clear_object(&r->connection);
    g_strfreev(r->paths);
    g_free(r->key);
    g_free(r);
}

static void add_next_files(GTask *task);

static void added_files(GObject *source, GAsyncResult *result, gpointer data) {
    GTask *task = data;
    GError *error = NULL;
    GVariant *reply =
        g_dbus_connection_call_with_unix_fd_list_finish(G_DBUS_CONNECTION(source), NULL, result, &error);
    if (reply == NULL) {
        g_task_return_error(task, error);
        g_object_unref(task);
        return;
    }
    g_variant_unref(reply);
    add_next_files(task);
}

static void add_next_files(GTask *task) {
    Registration *r = g_task_get_task_data(task);
    if (r->paths[r->next] == NULL) {
        g_task_return_pointer(task, g_strdup(r->key), g_free);
        g_object_unref(task);
        return;
    }
    GUnixFDList *descriptors = g_unix_fd_list_new();
    GVariantBuilder handles;
    g_variant_builder_init(&handles, G_VARIANT_TYPE("ah"));
    for (guint sent = 0; sent < FILES_PER_CALL && r->paths[r->next] != NULL; sent++, r->next++) {
        const char *path = r->paths[r->next];
        int fd = open(path, O_PATH | O_CLOEXEC);
        if (fd < 0) {
            int code = errno;
            g_variant_builder_clear(&handles);
            g_object_unref(descriptors);
            g_task_return_new_error(task, G_IO_ERROR, g_io_error_from_errno(code), "Could not open %s: %s", path,
                                    g_strerror(code));
            g_object_unref(task);
            return;
        }
        GError *error = NULL;
        int handle = g_unix_fd_list_append(descriptors, fd, &error);
        close(fd);
        if (handle < 0) {
            g_variant_builder_clear(&handles);
            g_object_unref(descriptors);
            g_task_return_error(task, error);
            g_object_unref(task);
            return;
        }
        g_variant_builder_add(&handles, "h", handle);
    }
    GVariantBuilder options;
    g_variant_builder_init(&options, G_VARIANT_TYPE_VARDICT);
    g_dbus_connection_call_with_unix_fd_list(
        r->connection, PORTAL_NAME, PORTAL_PATH, PORTAL_INTERFACE, "AddFiles",
        g_variant_new("(saha{sv})", r->key, &handles, &options), NULL, G_DBUS_CALL_FLAGS_NONE, PORTAL_TIMEOUT,
        descriptors, g_task_get_cancellable(task), added_files, task);
    g_object_unref(descriptors);
}

static void transfer_started(GObject *source, GAsyncResult *result, gpointer data) {
    GTask *task = data;
    GVariant *reply = reply_or_fail(source, result, task);
    if (reply == NULL) return;
    Registration *r = g_task_get_task_data(task);
    g_variant_get(reply, "(s)", &r->key);
    g_variant_unref(reply);
    add_next_files(task);
}

void dd_portal_register_files_async(const char *const *paths, gboolean writable, GCancellable *cancellable,
                                    GAsyncReadyCallback callback, gpointer user_data) {
    GTask *task = g_task_new(NULL, cancellable, callback, user_data);
    GDBusConnection *connection = bus_or_fail(task);
    if (connection == NULL) return;
    Registration *r = g_new0(Registration, 1);
    r->connection = connection;
    r->paths = g_strdupv((char **)paths);
    g_task_set_task_data(task, r, registration_free);
    GVariantBuilder options;
    g_variant_builder_init(&options, G_VARIANT_TYPE_VARDICT);
    g_variant_builder_add(&options, "{sv}", "writable", g_variant_new_boolean(writable));
    // The transfer ends once the other side has retrieved the files.
    g_variant_builder_add(&options, "{sv}", "autostop", g_variant_new_boolean(TRUE));
    g_dbus_connection_call(connection, PORTAL_NAME, PORTAL_PATH, PORTAL_INTERFACE, "StartTransfer",
                           g_variant_new("(a{sv})", &options), G_VARIANT_TYPE("(s)"), G_DBUS_CALL_FLAGS_NONE,
                           PORTAL_TIMEOUT, cancellable, transfer_started, task);
}

char *dd_portal_register_files_finish(GAsyncResult *result, GError **error) {
    return g_task_propagate_pointer(G_TASK(result), error);
}

// MARK: Retrieving files (the taking side)

static void files_retrieved(GObject *source, GAsyncResult *result, gpointer data) {
    GTask *task = data;
    GVariant *reply = reply_or_fail(source, result, task);
    if (reply == NULL) return;
    char **paths = NULL;
    g_variant_get(reply, "(^as)", &paths);
    g_variant_unref(reply);
    g_task_return_pointer(task, paths, (GDestroyNotify)g_strfreev);
    g_object_unref(task);
}

void dd_portal_retrieve_files_async(const char *key, GCancellable *cancellable, GAsyncReadyCallback callback,
                                    gpointer user_data) {
    GTask *task = g_task_new(NULL, cancellable, callback, user_data);
    GDBusConnection *connection = bus_or_fail(task);
    if (connection == NULL) return;
    GVariantBuilder options;
    g_variant_builder_init(&options, G_VARIANT_TYPE_VARDICT);
    g_dbus_connection_call(connection, PORTAL_NAME, PORTAL_PATH, PORTAL_INTERFACE, "RetrieveFiles",
                           g_variant_new("(sa{sv})", key, &options), G_VARIANT_TYPE("(as)"), G_DBUS_CALL_FLAGS_NONE,
                           PORTAL_TIMEOUT, cancellable, files_retrieved, task);
    g_object_unref(connection);
}

char **dd_portal_retrieve_files_finish(GAsyncResult *result, GError **error) {
    return g_task_propagate_pointer(G_TASK(result), error);
}

#else
void dd_portal_watch(void) {}
gboolean dd_portal_available(void) { return FALSE; }
#endif
