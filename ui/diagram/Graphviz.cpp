#include "ui/diagram/Graphviz.h"

#include <graphviz/gvc.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdlib>
#include <memory>
#include <list>
#include <mutex>

#include "core/util/FileUtil.h"

namespace fw::diagram {

namespace {

std::mutex& graphvizMutex() {
  static std::mutex* m = new std::mutex();  // never destroyed: an abandoned layout may still hold it at exit
  return *m;
}

std::atomic<long> g_sessions{0};
std::atomic<int> g_inside{0};
std::atomic<int> g_maxInside{0};

// Graphviz reports errors through a process-wide callback; it only runs under the mutex.
std::string g_errors;
int collectError(char* msg) {
  if (msg) g_errors += msg;
  return 0;
}

// Holds the mutex and the bookkeeping for one parse/layout/render sequence.
class Session {
 public:
  Session() : lock_(graphvizMutex()) {
    ++g_sessions;
    const int now = ++g_inside;
    int seen = g_maxInside.load();
    while (now > seen && !g_maxInside.compare_exchange_weak(seen, now)) {
    }
    g_errors.clear();
    agseterrf(collectError);
  }
  ~Session() {
    agseterrf(nullptr);
    --g_inside;
  }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  std::string errors() const {
    std::string e = g_errors;
    while (!e.empty() && std::isspace(static_cast<unsigned char>(e.back()))) e.pop_back();
    return e;
  }

 private:
  std::lock_guard<std::mutex> lock_;
};

// One Graphviz context for the process, created on first use (under the mutex) and never freed.
// Graphviz 2.42's pango plugin keeps a pointer to the last font name it measured in a static, and that
// name lives in the context's font dictionary: freeing a context and creating the next one left the
// pointer dangling, and the next layout read freed memory (heap-use-after-free in textspan_size, found
// by the asan preset in every test that lays out twice). A context that lives as long as the process
// keeps the name valid; it is also how the dot command uses Graphviz.
GVC_t* sharedContext() {
  static GVC_t* const gvc = gvContext();
  return gvc;
}

struct GraphDeleter {
  void operator()(Agraph_t* g) const { agclose(g); }
};
using AgraphPtr = std::unique_ptr<Agraph_t, GraphDeleter>;

// A layout attached to a graph; freed before the graph is closed (declare after the GraphPtr).
class LayoutHolder {
 public:
  LayoutHolder(GVC_t* gvc, Agraph_t* g) : gvc_(gvc), g_(g) {}
  ~LayoutHolder() {
    if (active_) gvFreeLayout(gvc_, g_);
  }
  LayoutHolder(const LayoutHolder&) = delete;
  LayoutHolder& operator=(const LayoutHolder&) = delete;
  int run(const char* engine) {
    const int rc = gvLayout(gvc_, g_, engine);
    active_ = rc == 0;
    return rc;
  }

 private:
  GVC_t* gvc_;
  Agraph_t* g_;
  bool active_ = false;
};

class RenderBuffer {
 public:
  ~RenderBuffer() {
    if (data) gvFreeRenderData(data);
  }
  char* data = nullptr;
  unsigned int length = 0;
};

// Parsed and laid-out graph; everything freed in reverse order of declaration.
struct Prepared {
  GVC_t* gvc = nullptr;  // sharedContext()
  AgraphPtr graph;
  std::unique_ptr<LayoutHolder> layout;
};

Status prepare(const std::string& dot, Session& s, Prepared& p) {
  p.gvc = sharedContext();
  if (!p.gvc) return Error::internal("graphviz: could not create a context (gvContext)");
  p.graph.reset(agmemread(dot.c_str()));
  if (!p.graph) {
    std::string e = s.errors();
    return Error::badInput("graphviz: could not parse the DOT text" + (e.empty() ? std::string() : ": " + e));
  }
  p.layout = std::make_unique<LayoutHolder>(p.gvc, p.graph.get());
  if (p.layout->run("dot") != 0) {
    std::string e = s.errors();
    return Error::internal("graphviz: dot layout failed" + (e.empty() ? std::string() : ": " + e));
  }
  return {};
}

long boxAttr(void* obj) {
  char* v = agget(obj, const_cast<char*>("fw_box"));
  if (!v || !*v) return -1;
  char* end = nullptr;
  const long x = std::strtol(v, &end, 10);
  return (end && *end == 0) ? x : -1;
}

void readClusters(Agraph_t* g, double top, double left, Layout& out) {
  for (int i = 1; i <= GD_n_cluster(g); ++i) {
    Agraph_t* c = GD_clust(g)[i];
    const boxf bb = GD_bb(c);
    ClusterGeometry cg;
    cg.name = agnameof(c);
    if (GD_label(c) && GD_label(c)->text) cg.label = GD_label(c)->text;
    cg.x = bb.LL.x - left;
    cg.y = top - bb.UR.y;
    cg.width = bb.UR.x - bb.LL.x;
    cg.height = bb.UR.y - bb.LL.y;
    out.clusters.push_back(std::move(cg));
    readClusters(c, top, left, out);
  }
}

}  // namespace

const char* formatName(Format f) {
  switch (f) {
    case Format::Svg: return "svg";
    case Format::Png: return "png";
    case Format::Pdf: return "pdf";
    case Format::Dot: return "dot";
  }
  return "?";
}

Result<Format> formatFromPath(const std::string& path) {
  const auto slash = path.find_last_of("/\\");
  const auto dot = path.rfind('.');
  std::string ext = (dot == std::string::npos || (slash != std::string::npos && dot < slash)) ? std::string()
                                                                                            : path.substr(dot + 1);
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  if (ext == "svg") return Format::Svg;
  if (ext == "png") return Format::Png;
  if (ext == "pdf") return Format::Pdf;
  if (ext == "dot" || ext == "gv") return Format::Dot;
  return Error::badInput("'" + path + "': unknown diagram format " +
                         (ext.empty() ? std::string("(no extension)") : "'." + ext + "'") +
                         "; use .svg, .png, .pdf or .dot");
}

namespace {
// Layouts already computed, by their exact DOT text: the same group at the same level and rule set
// gives the same DOT, so toggling a rule back, re-expanding a group or redrawing the other view costs
// a lookup. Most recently used first; bounded by entries and by the DOT bytes kept.
struct LayoutCache {
  std::mutex m;
  std::list<std::pair<std::string, Layout>> entries;
  size_t bytes = 0;
  long hits = 0;
};
LayoutCache& layoutCache() {
  static LayoutCache* c = new LayoutCache();  // never destroyed: layouts may finish during exit
  return *c;
}
constexpr size_t kCachedLayouts = 32;
constexpr size_t kCachedDotBytes = size_t{64} << 20;

Result<Layout> layoutDotUncached(const std::string& dot);
}  // namespace

std::optional<Layout> cachedLayout(const std::string& dot) {
  auto& c = layoutCache();
  std::lock_guard<std::mutex> lock(c.m);
  for (auto it = c.entries.begin(); it != c.entries.end(); ++it)
    if (it->first.size() == dot.size() && it->first == dot) {
      c.entries.splice(c.entries.begin(), c.entries, it);
      ++c.hits;
      return c.entries.front().second;
    }
  return std::nullopt;
}

Result<Layout> layoutDot(const std::string& dot) {
  if (auto hit = cachedLayout(dot)) return std::move(*hit);
  auto& c = layoutCache();
  FW_ASSIGN_OR_RETURN(Layout l, layoutDotUncached(dot));
  std::lock_guard<std::mutex> lock(c.m);
  c.entries.emplace_front(dot, l);
  c.bytes += dot.size();
  while (c.entries.size() > kCachedLayouts || (c.entries.size() > 1 && c.bytes > kCachedDotBytes)) {
    c.bytes -= c.entries.back().first.size();
    c.entries.pop_back();
  }
  return l;
}

namespace {
Result<Layout> layoutDotUncached(const std::string& dot) {
  Session s;
  Prepared p;
  FW_TRY_STATUS(prepare(dot, s, p));
  Agraph_t* g = p.graph.get();
  Layout out;
  const boxf bb = GD_bb(g);
  const double top = bb.UR.y, left = bb.LL.x;
  out.width = bb.UR.x - bb.LL.x;
  out.height = bb.UR.y - bb.LL.y;
  auto flip = [&](pointf q) { return Point{q.x - left, top - q.y}; };
  for (Agnode_t* n = agfstnode(g); n; n = agnxtnode(g, n)) {
    NodeGeometry ng;
    ng.name = agnameof(n);
    ng.box = boxAttr(n);
    const Point c = flip(ND_coord(n));
    ng.x = c.x;
    ng.y = c.y;
    ng.width = ND_width(n) * 72.0;
    ng.height = ND_height(n) * 72.0;
    out.nodes.push_back(std::move(ng));
  }
  for (Agnode_t* n = agfstnode(g); n; n = agnxtnode(g, n)) {
    for (Agedge_t* e = agfstout(g, n); e; e = agnxtout(g, e)) {
      EdgeGeometry eg;
      eg.from = agnameof(agtail(e));
      eg.to = agnameof(aghead(e));
      eg.fromBox = boxAttr(agtail(e));
      eg.toBox = boxAttr(aghead(e));
      if (const splines* spl = ED_spl(e)) {
        for (int i = 0; i < spl->size; ++i) {
          const bezier& bz = spl->list[i];
          for (int k = 0; k < bz.size; ++k) {
            // Consecutive beziers share their joint point; keep it once.
            if (i > 0 && k == 0) continue;
            eg.points.push_back(flip(bz.list[k]));
          }
          if (bz.eflag) eg.arrowTip = flip(bz.ep);
        }
      }
      out.edges.push_back(std::move(eg));
    }
  }
  readClusters(g, top, left, out);
  return out;
}
}  // namespace

Result<std::string> renderDot(const std::string& dot, Format format) {
  if (format == Format::Dot) return dot;
  Session s;
  Prepared p;
  FW_TRY_STATUS(prepare(dot, s, p));
  // The core SVG renderer writes <g class="node">; cairo does the bitmap and PDF output.
  const char* renderer = format == Format::Svg ? "svg" : format == Format::Png ? "png" : "pdf";
  RenderBuffer buf;
  if (gvRenderData(p.gvc, p.graph.get(), renderer, &buf.data, &buf.length) != 0 || !buf.data) {
    std::string e = s.errors();
    return Error::internal(std::string("graphviz: rendering ") + formatName(format) + " failed" +
                           (e.empty() ? std::string(" (is the Graphviz cairo plugin installed?)") : ": " + e));
  }
  return std::string(buf.data, buf.length);
}

Status renderDotToFile(const std::string& dot, const std::string& path) {
  FW_ASSIGN_OR_RETURN(Format f, formatFromPath(path));
  FW_ASSIGN_OR_RETURN(std::string bytes, renderDot(dot, f));
  return writeFileAtomic(path, bytes);
}

GraphvizStats graphvizStats() {
  GraphvizStats st{g_sessions.load(), g_maxInside.load()};
  std::lock_guard<std::mutex> lock(layoutCache().m);
  st.layoutCacheHits = layoutCache().hits;
  return st;
}

}  // namespace fw::diagram
