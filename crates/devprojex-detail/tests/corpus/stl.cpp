// SPDX-License-Identifier: MIT
// A small program using the C++ standard library, written for this corpus: what a collapsed
// body may not take away (g++ -fsyntax-only checks the outputs).
#include <algorithm>
#include <map>
#include <numeric>
#include <string>
#include <vector>

namespace {

// A constexpr function must keep its return: g++ rejects one without.
constexpr int square(int x)
{
    return x * x;
}
static_assert(square(3) == 9, "evaluated at compile time");

// The result type comes from the body: without it the function would return void.
auto total(const std::vector<int>& values)
{
    int sum = 0;
    for (int v : values)
        sum += v;
    return sum;
}

// Declared result type: the body collapses.
auto average(const std::vector<int>& values) -> double
{
    if (values.empty())
        return 0.0;
    return static_cast<double>(total(values)) / values.size();
}

template <typename Key, typename Value>
class Registry {
public:
    // Inline member definitions.
    void put(const Key& key, const Value& value)
    {
        entries_[key] = value;
        ++writes_;
    }

    const Value* find(const Key& key) const
    {
        auto it = entries_.find(key);
        return it == entries_.end() ? nullptr : &it->second;
    }

    std::size_t writes() const { return writes_; }

private:
    std::map<Key, Value> entries_;
    std::size_t writes_ = 0;
};

// Lambdas at namespace scope: one returns a value and keeps its body, one does not.
auto by_length = [](const std::string& a, const std::string& b) {
    return a.size() < b.size();
};
auto tally = [](std::map<std::string, int>& counts, const std::string& word) {
    ++counts[word];
    counts[""] += 1;
};

} // namespace

extern "C" int demo_entry(void)
{
    Registry<std::string, int> registry;
    registry.put("a", 1);
    std::vector<int> values{3, 1, 2};
    // A comparator returns a value: the lambda keeps its body.
    std::sort(values.begin(), values.end(), [](int a, int b) {
        return a > b;
    });
    // Nothing returned: the lambda's body collapses.
    std::for_each(values.begin(), values.end(), [&registry](int v) {
        registry.put(std::to_string(v), v);
        (void)registry.writes();
    });
    std::vector<std::string> words{"bb", "a"};
    std::sort(words.begin(), words.end(), by_length);
    std::map<std::string, int> counts;
    tally(counts, words.front());
    return static_cast<int>(average(values)) + square(2);
}
