// The Qt baseline for scenario 1 (issue 12): the same scene as the engine benchmark and the GTK
// tool, as items of a QGraphicsScene indexed by Qt's BSP tree (ItemIndexMethod BspTreeIndex,
// the default), timed at the same pointer positions. A query is what a drop lookup needs from
// the scene: QGraphicsScene::itemAt (the topmost item under the point, through the BSP index),
// then up the node's ancestors to the first one that is a destination (column, list or card),
// which is what the engine's resolve and the linear scan answer.
//
// Every node is a top-level item stacked by its depth (z value), so the BSP tree indexes all of
// them: the most favourable arrangement for Qt. With `--nested` the items are nested as the
// scene nests (child items of their parent node); QGraphicsScene then asks its index only for
// top-level items and walks each one's children itself, so a container with 100,000 children
// is scanned one child at a time (printed for reference, not used in the table).
//
// dragdrop-bench writes the scene into a text file, so both sides see exactly the same doubles:
//   nodes N            then N lines: PARENT X Y WIDTH HEIGHT KIND (absolute frames, KIND as
//                      BenchGeometry's NodeKind: 2 column, 5 list, 6 card are destinations)
//   points M           then M lines: X Y (the positions timed, in the engine's order)
//   expect K           then K lines: the node the engine resolved at points 0..<K, or -1
//
// Usage: qt-pick-bench SCENE_FILE [--quick] [--nested]
// Prints one line: `ok MEDIAN_NS P99_NS SAMPLES ITEMS SETUP_SECONDS MISMATCHES`, or `n/a REASON`.
// Built by `make bench` with g++ and pkg-config's Qt6Widgets flags (qt6-base-dev).
#include <QApplication>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QPainter>
#include <QTransform>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <unistd.h>
#include <vector>

namespace {

struct Node {
    int parent;
    double x, y, width, height;
    int kind;
};

// A rectangle that draws nothing. contains() has the engine's semantics (left and top edges
// inside, right and bottom outside) and skips building a QPainterPath per test: the most
// favourable item for Qt, as the GTK tool's clipping containers are for GTK.
class BoxItem final : public QGraphicsItem {
public:
    BoxItem(int node, double width, double height, QGraphicsItem *parent)
        : QGraphicsItem(parent), node(node), rect(0, 0, width, height) {
        setFlag(ItemHasNoContents);
    }
    QRectF boundingRect() const override { return rect; }
    bool contains(const QPointF &p) const override {
        return p.x() >= 0 && p.y() >= 0 && p.x() < rect.width() && p.y() < rect.height();
    }
    void paint(QPainter *, const QStyleOptionGraphicsItem *, QWidget *) override {}

    const int node;

private:
    QRectF rect;
};

// A private runtime directory when there is none, removed on the way out.
char runtimeDir[] = "/tmp/qt-pick-bench-XXXXXX";

[[noreturn]] void unavailable(const char *reason) {
    std::printf("n/a %s\n", reason);
    std::fflush(stdout);
    rmdir(runtimeDir);
    std::_Exit(0);
}

inline long long nowNs() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

std::vector<Node> nodes;
std::vector<unsigned char> accepts;

// The destination at (x, y): the topmost item, then its ancestors, to the first destination.
inline int lookup(const QGraphicsScene &scene, double x, double y) {
    QGraphicsItem *item = scene.itemAt(QPointF(x, y), QTransform());
    int node = item ? static_cast<BoxItem *>(item)->node : -1;
    while (node >= 0 && !accepts[node]) node = nodes[node].parent;
    return node;
}

volatile int sink;

}  // namespace

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: qt-pick-bench SCENE_FILE [--quick]\n");
        return 2;
    }
    bool quick = false, nested = false;
    for (int i = 2; i < argc; i++) {
        if (std::strcmp(argv[i], "--quick") == 0) quick = true;
        if (std::strcmp(argv[i], "--nested") == 0) nested = true;
    }
    // No window is shown: the offscreen platform needs no display.
    if (!std::getenv("QT_QPA_PLATFORM")) setenv("QT_QPA_PLATFORM", "offscreen", 1);
    // Qt warns on every start when there is no runtime directory (as under `make bench` in CI).
    if (!std::getenv("XDG_RUNTIME_DIR") && mkdtemp(runtimeDir)) {
        setenv("XDG_RUNTIME_DIR", runtimeDir, 1);
    }
    QApplication app(argc, argv);

    FILE *file = std::fopen(argv[1], "r");
    if (!file) unavailable("the scene file could not be opened");
    int count = 0;
    if (std::fscanf(file, " nodes %d", &count) != 1 || count <= 0) unavailable("the scene file has no nodes");
    nodes.resize(count);
    for (auto &n : nodes) {
        if (std::fscanf(file, " %d %lf %lf %lf %lf %d", &n.parent, &n.x, &n.y, &n.width, &n.height, &n.kind) != 6)
            unavailable("the scene file is cut short (nodes)");
    }
    int pointCount = 0;
    if (std::fscanf(file, " points %d", &pointCount) != 1 || pointCount <= 0) unavailable("the scene file has no points");
    std::vector<double> xs(pointCount), ys(pointCount);
    for (int i = 0; i < pointCount; i++) {
        if (std::fscanf(file, " %lf %lf", &xs[i], &ys[i]) != 2) unavailable("the scene file is cut short (points)");
    }
    int expectCount = 0;
    if (std::fscanf(file, " expect %d", &expectCount) != 1) unavailable("the scene file has no expected answers");
    std::vector<int> expected(expectCount);
    for (auto &e : expected) {
        if (std::fscanf(file, " %d", &e) != 1) unavailable("the scene file is cut short (expect)");
    }
    std::fclose(file);

    accepts.resize(count);
    std::vector<int> depth(count, 0);
    for (int i = 0; i < count; i++) {
        accepts[i] = nodes[i].kind == 2 || nodes[i].kind == 5 || nodes[i].kind == 6;
        // Parents come before their children.
        depth[i] = nodes[i].parent >= 0 ? depth[nodes[i].parent] + 1 : 0;
    }

    // Build the scene: flat, stacked by depth (or nested, children relative to their parent).
    const long long setupStart = nowNs();
    QGraphicsScene scene;
    scene.setItemIndexMethod(QGraphicsScene::BspTreeIndex);
    scene.setSceneRect(nodes[0].x, nodes[0].y, nodes[0].width, nodes[0].height);
    std::vector<BoxItem *> items(count, nullptr);
    for (int i = 0; i < count; i++) {
        const Node &n = nodes[i];
        BoxItem *parent = nested && n.parent >= 0 ? items[n.parent] : nullptr;
        auto *item = new BoxItem(i, n.width, n.height, parent);
        if (parent) {
            item->setPos(n.x - nodes[n.parent].x, n.y - nodes[n.parent].y);
        } else {
            item->setPos(n.x, n.y);
            item->setZValue(depth[i]);
            scene.addItem(item);
        }
        items[i] = item;
    }
    // The index is built lazily, by the first query: make it part of the setup.
    sink = lookup(scene, xs[0], ys[0]);
    const double setupSeconds = double(nowNs() - setupStart) / 1e9;

    int mismatches = 0;
    for (int i = 0; i < expectCount && i < pointCount; i++) {
        const int got = lookup(scene, xs[i], ys[i]);
        if (got != expected[i]) {
            if (mismatches < 3)
                std::fprintf(stderr, "qt-pick-bench: at (%.17g, %.17g) Qt found node %d, the engine %d\n", xs[i], ys[i], got,
                             expected[i]);
            mismatches++;
        }
    }

    // The cost of an empty measurement (two clock reads), subtracted from every sample.
    std::vector<long long> empty(200000);
    for (auto &e : empty) {
        const long long a = nowNs();
        e = nowNs() - a;
    }
    std::nth_element(empty.begin(), empty.begin() + empty.size() / 2, empty.end());
    const long long overhead = empty[empty.size() / 2];

    const int warmup = quick ? 100 : 2000;
    const size_t wanted = quick ? 5000 : 300000;
    const size_t minimum = quick ? 20 : 200;
    const long long budget = quick ? 500000000LL : 1500000000LL;
    for (int i = 0; i < warmup; i++) sink = lookup(scene, xs[i % pointCount], ys[i % pointCount]);
    std::vector<long long> samples;
    samples.reserve(wanted);
    const long long start = nowNs();
    for (size_t i = 0; samples.size() < wanted && (samples.size() < minimum || nowNs() - start < budget); i++) {
        const size_t k = i % (size_t)pointCount;
        const long long a = nowNs();
        sink = lookup(scene, xs[k], ys[k]);
        const long long b = nowNs();
        samples.push_back(std::max(0LL, b - a - overhead));
    }
    std::sort(samples.begin(), samples.end());
    const long long median = samples[samples.size() / 2];
    const long long p99 = samples[std::min(samples.size() - 1, (size_t)((double)(samples.size() - 1) * 0.99 + 0.5))];
    std::printf("ok %lld %lld %zu %d %f %d\n", median, p99, samples.size(), count, setupSeconds, mismatches);
    std::fflush(stdout);
    // Skip tearing down 100,000 items.
    rmdir(runtimeDir);
    std::_Exit(0);
}
