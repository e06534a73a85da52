#include <algorithm>
#include <map>
#include <numeric>
#include <string>
#include <vector>
namespace {
constexpr int square(int x)
{
    return x * x;
}
static_assert(square(3) == 9, "evaluated at compile time");
auto total(const std::vector<int>& values)
{
    int sum = 0;
    for (int v : values)
        sum += v;
    return sum;
}
auto average(const std::vector<int>& values) -> double
{
    if (values.empty())
        return 0.0;
    return static_cast<double>(total(values)) / values.size();
}
template <typename Key, typename Value>
class Registry {
public:
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
auto by_length = [](const std::string& a, const std::string& b) {
    return a.size() < b.size();
};
auto tally = [](std::map<std::string, int>& counts, const std::string& word) {
    ++counts[word];
    counts[""] += 1;
};
}
extern "C" int demo_entry(void)
{
    Registry<std::string, int> registry;
    registry.put("a", 1);
    std::vector<int> values{3, 1, 2};
    std::sort(values.begin(), values.end(), [](int a, int b) {
        return a > b;
    });
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
