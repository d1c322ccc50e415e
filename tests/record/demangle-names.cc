// tests/record/demangle-names.cc: a program of the standard library's
// names (std::regex, std::map, std::sort, std::function, a template
// operator<<, lambdas in templates and in const member functions), whose
// every symbol perf probe -F names as the symbolizer must
// (tests/record/demangle.sh); built, never run.
#include <iostream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>
#include <functional>
#include <memory>
#include <algorithm>
template <typename T> struct Box { T v; template <typename U> auto get(U u) const -> decltype(v + u) { return v + u; } bool operator<(const Box &o) const { return v < o.v; } };
template <typename T> std::ostream &operator<<(std::ostream &os, const Box<T> &b) { return os << b.v; }
namespace { struct Local { virtual ~Local() {} virtual int f(int x) { return x * 2; } }; struct D : Local { int f(int x) override { return x + 1; } }; }
template <typename F> auto apply(F f) { return [f](int x) { return f(x) + 1; }; }
int main(int argc, char **argv) {
	std::map<std::string, std::vector<Box<double>>> m;
	std::regex re("a+b*");
	std::ostringstream os;
	for (int i = 0; i < argc; i++) { m[argv[i]].push_back({i * 1.0}); os << Box<int>{i} << std::regex_match(argv[i], re); }
	std::unique_ptr<Local> p(new D);
	auto g = apply([&](int x) { return p->f(x); });
	std::vector<Box<long>> v{{3}, {1}, {2}}; std::sort(v.begin(), v.end());
	std::function<int(int)> h = g;
	std::cout << os.str() << h(argc) << v[0].get(1.5) << m.size() << std::endl;
}
