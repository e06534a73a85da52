#include <vector>
namespace ns {
/// Doc for Widget.
template <typename T>
class Widget {
public:
    Widget() = default;
    int size() const { return n_; }
    int big() const;
private:
    int n_ = 0;
};
auto raw = R"delim(// not a comment

/* nor this */)delim";
int f();
}
