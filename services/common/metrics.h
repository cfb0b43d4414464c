// Prometheus metrics for every server: counters, gauges and histograms with labels, kept in one
// process-wide registry and written in Prometheus' text exposition format (version 0.0.4) by
// the /metrics endpoint (metrics_endpoint.h). docs/operations.md lists every metric.
//
// A family is a metric name with its help text, its type and its label names; its children
// are the label values seen so far. Recording is lock-free (atomics); only finding a child by
// its label values takes the family's lock, so hot paths look a child up once and keep the
// pointer: children live as long as the registry. A family holds at most kMaxChildren children;
// further label values are folded into one child whose every label is "other", so a caller who
// controls a label (a method name a client sent) cannot grow the process' memory.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace arena::common {

class Counter {
 public:
  void Add(double amount = 1) { value_.fetch_add(amount, std::memory_order_relaxed); }
  double Value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<double> value_{0};
};

class Gauge {
 public:
  void Set(double value) { value_.store(value, std::memory_order_relaxed); }
  void Add(double amount) { value_.fetch_add(amount, std::memory_order_relaxed); }
  double Value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<double> value_{0};
};

// Cumulative buckets by upper bound, as Prometheus reads them; `Observe` is wait-free.
class Histogram {
 public:
  explicit Histogram(const std::vector<double>& bounds);
  void Observe(double value);

  struct Snapshot {
    std::vector<double> bounds;
    std::vector<uint64_t> cumulative;  // one per bound, then +Inf (== count)
    double sum = 0;
    uint64_t count = 0;
  };
  Snapshot Read() const;

 private:
  const std::vector<double> bounds_;
  std::unique_ptr<std::atomic<uint64_t>[]> counts_;  // per bucket (not cumulative), + overflow
  std::atomic<double> sum_{0};
  std::atomic<uint64_t> count_{0};
};

// Latency buckets in seconds, from a millisecond to a minute (gRPC calls, model turns).
const std::vector<double>& LatencyBuckets();

template <typename T>
class Family;

class MetricsRegistry {
 public:
  static constexpr size_t kMaxChildren = 1000;

  MetricsRegistry();
  ~MetricsRegistry();
  MetricsRegistry(const MetricsRegistry&) = delete;
  MetricsRegistry& operator=(const MetricsRegistry&) = delete;

  // The family of that name, made on first use. Asking again with the same name returns the
  // same family (the help and labels of the first call stand); a name of another type is a
  // programming error and aborts.
  Family<Counter>& Counters(std::string name, std::string help,
                            std::vector<std::string> label_names = {});
  Family<Gauge>& Gauges(std::string name, std::string help,
                        std::vector<std::string> label_names = {});
  Family<Histogram>& Histograms(std::string name, std::string help,
                                std::vector<std::string> label_names,
                                std::vector<double> bounds = LatencyBuckets());
  // A gauge read when the metrics are written (games in memory, queue lengths). Registering
  // the same name again replaces the function.
  void GaugeFunction(std::string name, std::string help, std::function<double()> read);

  // Every family, sorted by name, in the text exposition format.
  std::string Expose() const;

  // The registry every server's /metrics shows.
  static MetricsRegistry& Global();

 private:
  struct Entry;
  Entry& Find(const std::string& name, std::string_view type);

  mutable std::mutex mu_;
  std::map<std::string, std::unique_ptr<Entry>> entries_;
};

// One metric name's children by label values.
template <typename T>
class Family {
 public:
  Family(std::vector<std::string> label_names, std::function<std::unique_ptr<T>()> make)
      : label_names_(std::move(label_names)), make_(std::move(make)) {}

  // The child of these label values (as many as the family's label names; missing ones are
  // empty, extra ones ignored). The reference stays valid for the registry's life.
  T& With(const std::vector<std::string>& values);
  T& Get() { return With({}); }

  const std::vector<std::string>& label_names() const { return label_names_; }
  // Calls `f(values, child)` for every child, in label order.
  void ForEach(const std::function<void(const std::vector<std::string>&, const T&)>& f) const;

 private:
  const std::vector<std::string> label_names_;
  const std::function<std::unique_ptr<T>()> make_;
  mutable std::mutex mu_;
  std::map<std::vector<std::string>, std::unique_ptr<T>> children_;
};

template <typename T>
T& Family<T>::With(const std::vector<std::string>& values) {
  std::vector<std::string> key(label_names_.size());
  for (size_t i = 0; i < key.size() && i < values.size(); ++i) key[i] = values[i];
  std::lock_guard<std::mutex> lock(mu_);
  auto it = children_.find(key);
  if (it != children_.end()) return *it->second;
  if (children_.size() >= MetricsRegistry::kMaxChildren) {
    key.assign(label_names_.size(), "other");
    it = children_.find(key);
    if (it != children_.end()) return *it->second;
  }
  return *children_.emplace(std::move(key), make_()).first->second;
}

template <typename T>
void Family<T>::ForEach(
    const std::function<void(const std::vector<std::string>&, const T&)>& f) const {
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& [values, child] : children_) f(values, *child);
}

// Escapes a label value for the exposition format (backslash, double quote, newline).
std::string EscapeLabelValue(std::string_view value);

}  // namespace arena::common
