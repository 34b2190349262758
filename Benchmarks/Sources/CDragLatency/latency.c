// Input-to-screen latency of a drag image on X11, measured from outside the toolkit: a fake
// pointer move goes in through XTest and the clock stops when the X server tells a second
// client that the drag image's window moved. Without a compositor (Xvfb) the window is on
// screen where the server says it is. XTest is opened at run time (libXtst.so.6), so building
// needs no XTest headers.
#define _GNU_SOURCE
#include "CDragLatency.h"

#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/Xdamage.h>
#include <dlfcn.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

typedef int (*FakeMotion)(Display *, int, int, int, unsigned long);
typedef int (*FakeButton)(Display *, unsigned int, Bool, unsigned long);

double dd_latency_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

double dd_latency_thread_cpu(void) {
    struct rusage usage;
    if (getrusage(RUSAGE_THREAD, &usage) != 0) return 0;
    return (double)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3 +
           (double)(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

// Waits up to `timeout_ms` for an event on `display`; returns 1 when one is pending.
static int wait_event(Display *display, double timeout_ms) {
    if (XPending(display)) return 1;
    struct pollfd fd = {.fd = ConnectionNumber(display), .events = POLLIN};
    int ms = timeout_ms < 0 ? 0 : (int)timeout_ms;
    return poll(&fd, 1, ms) > 0 && XPending(display);
}

// What ends a move's timing: in the X11 mode (`damaged` 0) the drag image's window configured
// (found after the press), in the damage mode a DamageNotify for `damaged`, the nested
// compositor's window.
typedef struct {
    Window damaged;
    int damage_notify;  // the DamageNotify event type
} Watch;

static int ends_move(const Watch *watch, Window image, const XEvent *event) {
    if (watch->damaged)
        return event->type == watch->damage_notify &&
               ((const XDamageNotifyEvent *)event)->drawable == watch->damaged;
    return event->type == ConfigureNotify && event->xconfigure.window == image;
}

static DDLatencyResult run(const Watch *watch, Display *display, int x, int y, int moves, int gap_ms, int release_x,
                           int release_y);

DDLatencyResult dd_latency_run(int x, int y, int moves, int gap_ms, int release_x, int release_y) {
    Display *display = XOpenDisplay(NULL);
    if (!display) return (DDLatencyResult){.error = 1};
    Watch watch = {0};
    return run(&watch, display, x, y, moves, gap_ms, release_x, release_y);
}

typedef Bool (*DamageQuery)(Display *, int *, int *);
typedef Damage (*DamageCreate)(Display *, Drawable, int);

// The first child of the root whose name (WM_NAME) or class (WM_CLASS: weston sets no WM_NAME)
// contains `title`, or 0.
static Window named_window(Display *display, const char *title) {
    Window root = DefaultRootWindow(display), parent, *children = NULL, found = 0;
    unsigned int n = 0;
    if (!XQueryTree(display, root, &root, &parent, &children, &n)) return 0;
    for (unsigned int i = 0; i < n && !found; i++) {
        char *name = NULL;
        if (XFetchName(display, children[i], &name) && name && strstr(name, title)) found = children[i];
        if (name) XFree(name);
        XClassHint hint = {0};
        if (!found && XGetClassHint(display, children[i], &hint)) {
            if (hint.res_class && strstr(hint.res_class, title)) found = children[i];
            if (hint.res_name) XFree(hint.res_name);
            if (hint.res_class) XFree(hint.res_class);
        }
    }
    if (children) XFree(children);
    return found;
}

DDLatencyResult dd_latency_run_damage(const char *window_title, int x, int y, int moves, int gap_ms, int release_x,
                                      int release_y) {
    void *library = dlopen("libXdamage.so.1", RTLD_NOW);
    DamageQuery query = library ? (DamageQuery)dlsym(library, "XDamageQueryExtension") : NULL;
    DamageCreate create = library ? (DamageCreate)dlsym(library, "XDamageCreate") : NULL;
    if (!query || !create) return (DDLatencyResult){.error = 4};
    Display *display = XOpenDisplay(NULL);
    if (!display) return (DDLatencyResult){.error = 1};
    int event_base = 0, error_base = 0;
    Window window = named_window(display, window_title);
    if (!query(display, &event_base, &error_base) || !window) {
        XCloseDisplay(display);
        return (DDLatencyResult){.error = 4};
    }
    // Every rectangle the compositor draws is reported (no need to subtract to re-arm).
    create(display, window, XDamageReportRawRectangles);
    Watch watch = {.damaged = window, .damage_notify = event_base + XDamageNotify};
    return run(&watch, display, x, y, moves, gap_ms, release_x, release_y);
}

static DDLatencyResult run(const Watch *watch, Display *display, int x, int y, int moves, int gap_ms, int release_x,
                           int release_y) {
    DDLatencyResult result = {0};
    void *xtst = dlopen("libXtst.so.6", RTLD_NOW);
    FakeMotion motion = xtst ? (FakeMotion)dlsym(xtst, "XTestFakeMotionEvent") : NULL;
    FakeButton button = xtst ? (FakeButton)dlsym(xtst, "XTestFakeButtonEvent") : NULL;
    if (!motion || !button) {
        XCloseDisplay(display);
        result.error = 2;
        return result;
    }
    Window root = DefaultRootWindow(display);
    XSelectInput(display, root, SubstructureNotifyMask);
    XSync(display, False);
    motion(display, -1, x, y, 0);
    XFlush(display);
    usleep(300000);
    button(display, 1, True, 0);
    XFlush(display);
    usleep(150000);
    // Past the drag threshold, a step at a time, until an override-redirect window is mapped
    // and follows the pointer: the drag image (GTK maps other such windows too).
    Window mapped[8];
    int mapped_count = 0;
    Window image = 0;
    // In the damage mode the drag image is the compositor's to draw (a Wayland drag icon): the
    // steps are made and the drag is taken to be on (the app checks that it began).
    for (int step = 1; step <= (watch->damaged ? 10 : 20) && !image; step++) {
        motion(display, -1, x + 3 * step, y + 2 * step, 0);
        XFlush(display);
        double until = dd_latency_now() + (watch->damaged ? 30 : 120);
        while (!image && dd_latency_now() < until) {
            if (!wait_event(display, until - dd_latency_now())) continue;
            XEvent event;
            XNextEvent(display, &event);
            if (event.type == MapNotify && event.xmap.override_redirect && mapped_count < 8) {
                mapped[mapped_count++] = event.xmap.window;
            } else if (event.type == ConfigureNotify) {
                for (int i = 0; i < mapped_count; i++)
                    if (mapped[i] == event.xconfigure.window) image = event.xconfigure.window;
            }
        }
    }
    if (watch->damaged) image = watch->damaged;
    if (!image) {
        button(display, 1, False, 0);
        XCloseDisplay(display);
        result.error = 3;
        return result;
    }
    usleep(400000);
    while (XPending(display)) {
        XEvent event;
        XNextEvent(display, &event);
    }
    result.latencies = calloc((size_t)(moves > 0 ? moves : 1), sizeof(double));
    // DRAGDROP_BENCH_TRACE: each move's start (CLOCK_MONOTONIC ms) and delay on standard error,
    // in the order made, to set beside the app's own trace of what its main thread did.
    const char *trace_variable = getenv("DRAGDROP_BENCH_TRACE");
    int trace = trace_variable != NULL && trace_variable[0] != '\0';
    int cx = x + 45, cy = y + 30;
    for (int i = 0; i < moves; i++) {
        // Around one spot, never twice in a row at the same place.
        int nx = cx + ((i % 4) - 2) * 5 + 2, ny = cy + ((i % 6) - 3) * 3 + 1;
        double start = dd_latency_now();
        if (i == 0) result.first_move = start;
        motion(display, -1, nx, ny, 0);
        XFlush(display);
        int seen = 0;
        double until = start + 250;
        while (!seen && dd_latency_now() < until) {
            if (!wait_event(display, until - dd_latency_now())) continue;
            XEvent event;
            XNextEvent(display, &event);
            if (ends_move(watch, image, &event)) seen = 1;
        }
        double end = dd_latency_now();
        result.last_move = start;
        if (trace) fprintf(stderr, "move %d %.3f %.3f\n", i, start, seen ? end - start : -1.0);
        if (seen) {
            result.latencies[result.count++] = end - start;
        } else {
            result.lost++;
        }
        double next = start + gap_ms;
        while (dd_latency_now() < next) {
            if (wait_event(display, next - dd_latency_now())) {
                XEvent event;
                XNextEvent(display, &event);
            }
        }
    }
    motion(display, -1, release_x, release_y, 0);
    XFlush(display);
    usleep(200000);
    button(display, 1, False, 0);
    XFlush(display);
    usleep(200000);
    XCloseDisplay(display);
    qsort(result.latencies, (size_t)result.count, sizeof(double), compare);
    return result;
}

void dd_latency_free(DDLatencyResult *result) {
    free(result->latencies);
    result->latencies = NULL;
}

// Reads the window's _NET_WM_PID, or -1.
static long window_pid(Display *display, Window window, Atom pid_atom) {
    Atom type;
    int format;
    unsigned long count, after;
    unsigned char *data = NULL;
    long pid = -1;
    if (XGetWindowProperty(display, window, pid_atom, 0, 1, False, XA_CARDINAL, &type, &format, &count, &after,
                           &data) == Success &&
        data) {
        if (type == XA_CARDINAL && format == 32 && count == 1) pid = (long)*(unsigned long *)data;
        XFree(data);
    }
    return pid;
}

int dd_latency_find_window(int pid, const char *title, int *x, int *y, int *width, int *height) {
    Display *display = XOpenDisplay(NULL);
    if (!display) return 0;
    Atom pid_atom = XInternAtom(display, "_NET_WM_PID", False);
    Window root = DefaultRootWindow(display), parent, *children = NULL;
    unsigned int n = 0;
    int found = 0;
    long best_area = -1;
    if (XQueryTree(display, root, &root, &parent, &children, &n)) {
        for (unsigned int i = 0; i < n; i++) {
            XWindowAttributes attributes;
            if (!XGetWindowAttributes(display, children[i], &attributes)) continue;
            if (attributes.map_state != IsViewable || attributes.override_redirect) continue;
            if (window_pid(display, children[i], pid_atom) != pid) continue;
            if (title) {
                char *name = NULL;
                int matches = XFetchName(display, children[i], &name) && name && strstr(name, title);
                if (name) XFree(name);
                if (!matches) continue;
            }
            long area = (long)attributes.width * attributes.height;
            if (area <= best_area) continue;
            best_area = area;
            *x = attributes.x;
            *y = attributes.y;
            *width = attributes.width;
            *height = attributes.height;
            found = 1;
        }
        if (children) XFree(children);
    }
    XCloseDisplay(display);
    return found;
}
