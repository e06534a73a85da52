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
auto average(const std::vector<int>& values) -> double;
template <typename Key, typename Value>
class Registry {
public:
    void put(const Key& key, const Value& value);
    const Value* find(const Key& key) const;
    std::size_t writes() const;
private:
    std::map<Key, Value> entries_;
    std::size_t writes_ = 0;
};
auto by_length = [](const std::string& a, const std::string& b) {
    return a.size() < b.size();
};
auto tally = [](std::map<std::string, int>& counts, const std::string& word) { /* ... */ };
}
extern "C" int demo_entry(void);
