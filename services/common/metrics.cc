#include "services/common/metrics.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <variant>

#include "absl/strings/str_cat.h"

namespace arena::common {

Histogram::Histogram(const std::vector<double>& bounds)
    : bounds_(bounds), counts_(new std::atomic<uint64_t>[bounds.size() + 1]) {
  for (size_t i = 0; i <= bounds_.size(); ++i) counts_[i].store(0, std::memory_order_relaxed);
}

void Histogram::Observe(double value) {
  size_t i = 0;
  while (i < bounds_.size() && value > bounds_[i]) ++i;
  counts_[i].fetch_add(1, std::memory_order_relaxed);
  sum_.fetch_add(value, std::memory_order_relaxed);
  count_.fetch_add(1, std::memory_order_relaxed);
}

Histogram::Snapshot Histogram::Read() const {
  Snapshot s;
  s.bounds = bounds_;
  uint64_t running = 0;
  for (size_t i = 0; i <= bounds_.size(); ++i) {
    running += counts_[i].load(std::memory_order_relaxed);
    s.cumulative.push_back(running);
  }
  // The buckets are read one by one while others record: the total is their sum, so the
  // +Inf bucket and the count always agree in one scrape.
  s.count = running;
  s.sum = sum_.load(std::memory_order_relaxed);
  return s;
}

const std::vector<double>& LatencyBuckets() {
  static const std::vector<double> buckets = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
                                              0.5,   1,      2.5,   5,    10,    30,   60};
  return buckets;
}

namespace {

// Backslash and newline escaped, and double quotes too when `quotes` (label values; help text
// leaves them).
std::string Escape(std::string_view text, bool quotes) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '"' && quotes) {
      out += "\\\"";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string EscapeLabelValue(std::string_view value) {
  return Escape(value, true);
}

namespace {

// A sample value as Prometheus reads it: integers without a fraction, +Inf/-Inf/NaN by name.
std::string Number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    return absl::StrCat(static_cast<int64_t>(v));
  }
  // The shortest of 15 or 17 significant digits that reads back as the same double.
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  if (std::strtod(buf, nullptr) != v) std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// `{a="x",b="y"}` (empty without labels); `extra` is appended as one more label (le=...).
std::string Labels(const std::vector<std::string>& names, const std::vector<std::string>& values,
                   std::string_view extra = {}) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    absl::StrAppend(&out, out.empty() ? "{" : ",", names[i], "=\"", EscapeLabelValue(values[i]),
                    "\"");
  }
  if (!extra.empty()) {
    out += out.empty() ? "{" : ",";
    out += extra;
  }
  if (!out.empty()) out += "}";
  return out;
}

}  // namespace

struct MetricsRegistry::Entry {
  std::string help;
  std::string type;  // "counter", "gauge", "histogram"
  std::variant<std::monostate, std::unique_ptr<Family<Counter>>, std::unique_ptr<Family<Gauge>>,
               std::unique_ptr<Family<Histogram>>, std::function<double()>>
      body;
};

MetricsRegistry::MetricsRegistry() = default;
MetricsRegistry::~MetricsRegistry() = default;

MetricsRegistry::Entry& MetricsRegistry::Find(const std::string& name, std::string_view type) {
  auto& slot = entries_[name];
  if (!slot) {
    slot = std::make_unique<Entry>();
    slot->type = std::string(type);
  } else if (slot->type != type) {
    std::fprintf(stderr, "metric %s registered as %s and as %s\n", name.c_str(), slot->type.c_str(),
                 std::string(type).c_str());
    std::abort();
  }
  return *slot;
}

Family<Counter>& MetricsRegistry::Counters(std::string name, std::string help,
                                           std::vector<std::string> label_names) {
  std::lock_guard<std::mutex> lock(mu_);
  Entry& e = Find(name, "counter");
  if (e.body.index() == 0) {
    e.help = std::move(help);
    e.body = std::make_unique<Family<Counter>>(std::move(label_names),
                                               [] { return std::make_unique<Counter>(); });
  }
  return *std::get<1>(e.body);
}

Family<Gauge>& MetricsRegistry::Gauges(std::string name, std::string help,
                                       std::vector<std::string> label_names) {
  std::lock_guard<std::mutex> lock(mu_);
  Entry& e = Find(name, "gauge");
  if (e.body.index() == 0) {
    e.help = std::move(help);
    e.body = std::make_unique<Family<Gauge>>(std::move(label_names),
                                             [] { return std::make_unique<Gauge>(); });
  } else if (e.body.index() != 2) {
    std::fprintf(stderr, "metric %s is a gauge function, not a gauge family\n", name.c_str());
    std::abort();
  }
  return *std::get<2>(e.body);
}

Family<Histogram>& MetricsRegistry::Histograms(std::string name, std::string help,
                                               std::vector<std::string> label_names,
                                               std::vector<double> bounds) {
  std::lock_guard<std::mutex> lock(mu_);
  Entry& e = Find(name, "histogram");
  if (e.body.index() == 0) {
    e.help = std::move(help);
    e.body = std::make_unique<Family<Histogram>>(
        std::move(label_names), [bounds] { return std::make_unique<Histogram>(bounds); });
  }
  return *std::get<3>(e.body);
}

void MetricsRegistry::GaugeFunction(std::string name, std::string help,
                                    std::function<double()> read) {
  std::lock_guard<std::mutex> lock(mu_);
  Entry& e = Find(name, "gauge");
  if (e.body.index() != 0 && e.body.index() != 4) {
    std::fprintf(stderr, "metric %s is a gauge family, not a gauge function\n", name.c_str());
    std::abort();
  }
  e.help = std::move(help);
  e.body = std::move(read);
}

std::string MetricsRegistry::Expose() const {
  // What to write is gathered under the lock, and written without it: a gauge function may
  // take its owner's locks, whose holders may be registering a metric meanwhile.
  struct Item {
    std::string name, help, type;
    const Family<Counter>* counters = nullptr;
    const Family<Gauge>* gauges = nullptr;
    const Family<Histogram>* histograms = nullptr;
    std::function<double()> read;
  };
  std::vector<Item> items;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& [name, e] : entries_) {
      if (e->body.index() == 0) continue;
      Item item;
      item.name = name;
      item.help = e->help;
      item.type = e->type;
      if (const auto* f = std::get_if<1>(&e->body)) item.counters = f->get();
      if (const auto* g = std::get_if<2>(&e->body)) item.gauges = g->get();
      if (const auto* h = std::get_if<3>(&e->body)) item.histograms = h->get();
      if (const auto* fn = std::get_if<4>(&e->body)) item.read = *fn;
      items.push_back(std::move(item));
    }
  }
  std::string out;
  for (const Item& it : items) {
    const std::string& name = it.name;
    absl::StrAppend(&out, "# HELP ", name, " ", Escape(it.help, false), "\n# TYPE ", name, " ",
                    it.type, "\n");
    if (it.counters != nullptr) {
      it.counters->ForEach([&](const std::vector<std::string>& values, const Counter& c) {
        absl::StrAppend(&out, name, Labels(it.counters->label_names(), values), " ",
                        Number(c.Value()), "\n");
      });
    } else if (it.gauges != nullptr) {
      it.gauges->ForEach([&](const std::vector<std::string>& values, const Gauge& v) {
        absl::StrAppend(&out, name, Labels(it.gauges->label_names(), values), " ",
                        Number(v.Value()), "\n");
      });
    } else if (it.histograms != nullptr) {
      const auto& names = it.histograms->label_names();
      it.histograms->ForEach([&](const std::vector<std::string>& values, const Histogram& hist) {
        const Histogram::Snapshot s = hist.Read();
        for (size_t i = 0; i < s.cumulative.size(); ++i) {
          const std::string le = i < s.bounds.size()
                                     ? absl::StrCat("le=\"", Number(s.bounds[i]), "\"")
                                     : std::string("le=\"+Inf\"");
          absl::StrAppend(&out, name, "_bucket", Labels(names, values, le), " ", s.cumulative[i],
                          "\n");
        }
        absl::StrAppend(&out, name, "_sum", Labels(names, values), " ", Number(s.sum), "\n");
        absl::StrAppend(&out, name, "_count", Labels(names, values), " ", s.count, "\n");
      });
    } else if (it.read) {
      absl::StrAppend(&out, name, " ", Number(it.read()), "\n");
    }
  }
  return out;
}

MetricsRegistry& MetricsRegistry::Global() {
  static MetricsRegistry* registry = new MetricsRegistry();
  return *registry;
}

}  // namespace arena::common
