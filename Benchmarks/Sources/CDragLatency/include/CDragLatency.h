#ifndef CDRAGLATENCY_H
#define CDRAGLATENCY_H

/// What one latency run measured: each small pointer move's delay until the X server reported
/// the drag image's window at its new place, in milliseconds, and the moves it never followed.
typedef struct {
    /// 0 when measured; otherwise why not (1: no display, 2: XTest missing, 3: no drag image,
    /// 4: no XDamage or no window to watch).
    int error;
    int count;
    int lost;
    double *latencies;  // `count` values, sorted; free with dd_latency_free
    /// CLOCK_MONOTONIC milliseconds of the first and last move (the span the app's CPU is read over).
    double first_move;
    double last_move;
} DDLatencyResult;

/// On the display in DISPLAY, through a connection of its own: presses at (x, y), moves until a
/// drag image appears (an override-redirect window mapped after the press), then makes `moves`
/// small moves `gap_ms` apart around one spot below and right of the press and times each until
/// that window is configured to follow; releases outside at (release_x, release_y). Blocks:
/// call it off the app's main thread.
DDLatencyResult dd_latency_run(int x, int y, int moves, int gap_ms, int release_x, int release_y);

/// The same for a nested compositor (weston's X11 backend, a Wayland app inside it): each move
/// is timed until the X server reports damage to the compositor's window (the moment its new
/// frame is on screen), the first child of the root whose name or class contains
/// `window_title`. The drag is taken to be on after the press and ten steps (the app checks
/// that it began).
DDLatencyResult dd_latency_run_damage(const char *window_title, int x, int y, int moves, int gap_ms, int release_x,
                                      int release_y);

void dd_latency_free(DDLatencyResult *result);

/// The top-level window of process `pid` (by its _NET_WM_PID) that is mapped and viewable, on
/// the display in DISPLAY: the one whose title contains `title` when it is not NULL, else the
/// largest. Fills its place on the screen and its size; returns 0 when there is none yet.
int dd_latency_find_window(int pid, const char *title, int *x, int *y, int *width, int *height);

/// Milliseconds on CLOCK_MONOTONIC.
double dd_latency_now(void);

/// The calling thread's CPU time (user and system) in milliseconds.
double dd_latency_thread_cpu(void);

#endif
