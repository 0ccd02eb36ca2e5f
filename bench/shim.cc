// shim.cc — the C API of gb_shim.h over Google Benchmark. The only C++
// in the project: it forwards to benchmark:: and adds nothing of its own
// except a reporter that shows every run to a C hook before the default
// display reporter prints it, a count of the benchmarks the filter selects
// (for progress), and a check of the --benchmark_out file's writes. No
// exception crosses into C.
#include "gb_shim.h"

#include <benchmark/benchmark.h>
#include <regex.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ostream>
#include <string>
#include <vector>

namespace {

benchmark::State &state(gb_state *st) { return *reinterpret_cast<benchmark::State *>(st); }
const benchmark::State &state(const gb_state *st)
{
    return *reinterpret_cast<const benchmark::State *>(st);
}
benchmark::internal::Benchmark *bench(gb_bench *b) { return reinterpret_cast<benchmark::internal::Benchmark *>(b); }

std::vector<std::string> &registered()
{
    static std::vector<std::string> names;
    return names;
}

// Shows each run to the C hook, then hands it to the real display reporter
// (console, or JSON/CSV per --benchmark_format). The --benchmark_out file
// reporter is separate and untouched.
class hook_reporter : public benchmark::BenchmarkReporter {
public:
    hook_reporter(benchmark::BenchmarkReporter *inner, gb_report_fn fn, void *user)
        : inner_(inner), fn_(fn), user_(user) {}

    bool ReportContext(const Context &context) override { return inner_->ReportContext(context); }

    void ReportRuns(const std::vector<Run> &runs) override
    {
        if (fn_)
            for (const Run &run : runs) report_one(run);
        // The console prints an inverted rate with the unit "s", as if its
        // value were seconds; the callers' inverted counters carry their own
        // unit in their name (ns_per_joint, copy_ratio), so show them bare.
        std::vector<Run> shown(runs);
        for (Run &run : shown)
            for (auto &kv : run.counters)
                if (kv.second.flags & benchmark::Counter::kInvert)
                    kv.second.flags = static_cast<benchmark::Counter::Flags>(kv.second.flags & ~benchmark::Counter::kIsRate);
        inner_->ReportRuns(shown);
    }

    void Finalize() override { inner_->Finalize(); }

private:
    void report_one(const Run &run)
    {
        const std::string name = run.run_name.str();
        std::vector<const char *> cname;
        std::vector<double> cval;
        for (const auto &kv : run.counters) {
            cname.push_back(kv.first.c_str());
            cval.push_back(kv.second.value);
        }
        const bool agg = run.run_type == Run::RT_Aggregate;
        const bool pct = agg && run.aggregate_unit == benchmark::kPercentage;
        // Per-iteration seconds, as Run::GetAdjusted*Time() computes them
        // (without the time-unit multiplier); percentages are stored as is.
        const double div = (!pct && run.iterations != 0) ? static_cast<double>(run.iterations) : 1.0;
        gb_result r;
        r.name = name.c_str();
        r.aggregate = agg ? run.aggregate_name.c_str() : "";
        r.percentage = pct;
        r.error = run.error_occurred;
        r.label = run.error_occurred ? run.error_message.c_str() : run.report_label.c_str();
        r.iterations = run.iterations;
        r.repetition_index = agg ? -1 : run.repetition_index;
        r.cpu_time = run.cpu_accumulated_time / div;
        r.real_time = run.real_accumulated_time / div;
        r.ncounters = static_cast<int>(cname.size());
        r.counter_name = cname.data();
        r.counter_value = cval.data();
        fn_(&r, user_);
    }

    benchmark::BenchmarkReporter *inner_;
    gb_report_fn fn_;
    void *user_;
};

// The --benchmark_out file, as Google Benchmark will choose it: the last
// --benchmark_out= / --benchmark_out_format= flag, else its environment
// defaults (BENCHMARK_OUT, BENCHMARK_OUT_FORMAT), else none / json.
std::string out_path, out_format;
bool out_failed;

// The file reporter Google Benchmark would make for out_format, wrapped so
// that a failed write is seen: the framework writes the file through an
// ofstream it never checks (bench --json /dev/full exited 0, "wrote").
class checked_file_reporter : public benchmark::BenchmarkReporter {
public:
    explicit checked_file_reporter(benchmark::BenchmarkReporter *inner) : inner_(inner) {}
    ~checked_file_reporter() override { delete inner_; }

    bool ReportContext(const Context &context) override
    {
        inner_->SetOutputStream(&GetOutputStream());   // the framework's ofstream, set on this wrapper
        inner_->SetErrorStream(&GetErrorStream());
        return inner_->ReportContext(context);
    }
    void ReportRuns(const std::vector<Run> &runs) override { inner_->ReportRuns(runs); }
    void Finalize() override
    {
        inner_->Finalize();
        GetOutputStream().flush();
        out_failed = !GetOutputStream().good();
    }

private:
    benchmark::BenchmarkReporter *inner_;
};

benchmark::BenchmarkReporter *make_file_reporter()
{
    if (out_format == "json") return new benchmark::JSONReporter;
    if (out_format == "console") return new benchmark::ConsoleReporter(benchmark::ConsoleReporter::OO_None);
    return nullptr;   // csv (deprecated by the framework): unchecked, as before; any other: the framework refuses it
}

}  // namespace

extern "C" {

gb_bench *gb_register(const char *name, gb_fn fn, void *user)
{
    try {
        benchmark::internal::Benchmark *b = benchmark::RegisterBenchmark(
            name, [fn, user](benchmark::State &st) { fn(reinterpret_cast<gb_state *>(&st), user); });
        registered().push_back(name);
        return reinterpret_cast<gb_bench *>(b);
    } catch (...) {
        return nullptr;
    }
}

void gb_use_real_time(gb_bench *b) { bench(b)->UseRealTime(); }
void gb_repetitions(gb_bench *b, int n) { bench(b)->Repetitions(n); }
void gb_min_time(gb_bench *b, double seconds) { bench(b)->MinTime(seconds); }

int gb_keep_running(gb_state *st) { return state(st).KeepRunning(); }
int gb_keep_running_batch(gb_state *st, int64_t n) { return state(st).KeepRunningBatch(n); }
void gb_pause_timing(gb_state *st) { state(st).PauseTiming(); }
void gb_resume_timing(gb_state *st) { state(st).ResumeTiming(); }
int64_t gb_iterations(const gb_state *st) { return state(st).iterations(); }
void gb_set_label(gb_state *st, const char *label) { state(st).SetLabel(label); }
void gb_skip_with_error(gb_state *st, const char *msg) { state(st).SkipWithError(msg); }

void gb_set_counter(gb_state *st, const char *name, double value, unsigned flags)
{
    using C = benchmark::Counter;
    int f = C::kDefaults;
    if (flags & PB_BC_RATE) f |= C::kIsRate;
    if (flags & PB_BC_ITER_INVARIANT) f |= C::kIsIterationInvariant;
    if (flags & PB_BC_AVG_ITERATIONS) f |= C::kAvgIterations;
    if (flags & PB_BC_INVERT) f |= C::kInvert;
    try {
        state(st).counters[name] =
            C(value, static_cast<C::Flags>(f), (flags & PB_BC_1024) ? C::kIs1024 : C::kIs1000);
    } catch (...) {
        state(st).SkipWithError("out of memory setting a counter");
    }
}

void gb_clobber_memory(void) { benchmark::ClobberMemory(); }

void gb_add_context(const char *key, const char *value)
{
    try {
        benchmark::AddCustomContext(key, value);
    } catch (...) {
        std::fputs("posebench bench: out of memory adding context\n", stderr);
    }
}

int gb_init(int *argc, char **argv)
{
    const char *env_out = std::getenv("BENCHMARK_OUT"), *env_fmt = std::getenv("BENCHMARK_OUT_FORMAT");
    out_path = env_out ? env_out : "";
    out_format = env_fmt ? env_fmt : "json";
    out_failed = false;
    static const char k_out[] = "--benchmark_out=", k_fmt[] = "--benchmark_out_format=";
    for (int i = 1; i < *argc; i++) {
        if (std::strncmp(argv[i], k_out, sizeof k_out - 1) == 0) out_path = argv[i] + sizeof k_out - 1;
        if (std::strncmp(argv[i], k_fmt, sizeof k_fmt - 1) == 0) out_format = argv[i] + sizeof k_fmt - 1;
    }
    benchmark::Initialize(argc, argv);
    return benchmark::ReportUnrecognizedArguments(*argc, argv) ? -1 : 0;
}

// Google Benchmark's own selection rule: "" or "all" selects everything, a
// leading '-' negates, otherwise an extended regex searched in the name.
size_t gb_count_selected(void)
{
    std::string spec = benchmark::GetBenchmarkFilter();
    if (spec.empty() || spec == "all") return registered().size();
    bool negate = false;
    if (spec[0] == '-') {
        negate = true;
        spec.erase(0, 1);
    }
    regex_t re;
    if (regcomp(&re, spec.c_str(), REG_EXTENDED | REG_NOSUB) != 0) return registered().size();
    size_t n = 0;
    for (const std::string &name : registered())
        if ((regexec(&re, name.c_str(), 0, nullptr, 0) == 0) != negate) n++;
    regfree(&re);
    return n;
}

long gb_run(gb_report_fn report, void *user)
{
    try {
        // The default display reporter is owned by the library: not deleted here.
        hook_reporter hook(benchmark::CreateDefaultDisplayReporter(), report, user);
        benchmark::BenchmarkReporter *inner = out_path.empty() ? nullptr : make_file_reporter();
        if (!inner) return static_cast<long>(benchmark::RunSpecifiedBenchmarks(&hook));
        checked_file_reporter file(inner);
        return static_cast<long>(benchmark::RunSpecifiedBenchmarks(&hook, &file));
    } catch (const std::exception &e) {
        std::fprintf(stderr, "posebench bench: %s\n", e.what());
        return -1;
    }
}

size_t gb_llc_bytes(void)
{
    size_t best = 0;
    for (const auto &c : benchmark::CPUInfo::Get().caches)
        if (c.type != "Instruction" && c.size > 0 && static_cast<size_t>(c.size) > best) best = static_cast<size_t>(c.size);
    return best;
}

size_t gb_cache_total_bytes(void)
{
    size_t sum = 0;
    for (const auto &c : benchmark::CPUInfo::Get().caches)
        if (c.type != "Instruction" && c.size > 0) sum += static_cast<size_t>(c.size);
    return sum;
}

const char *gb_out_error(void) { return out_failed ? out_path.c_str() : nullptr; }

void gb_shutdown(void) { benchmark::Shutdown(); }

}  // extern "C"
