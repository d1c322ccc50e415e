// tests/record/demangle.cc: C++ functions of every kind of name perf
// demangles (tests/record/demangle.sh): namespaces, an overload (two
// functions of one name without parameters), a template, an operator, a
// lambda, an anonymous namespace, static functions gcc clones at -O2
// (.constprop, .isra) and a .cold part, each sampled.
#include <cstdlib>
#include <functional>

static volatile unsigned long sink;

namespace outer {
namespace inner {
struct Vec {
	unsigned long v;
	__attribute__((noinline)) Vec operator+(const Vec &o) const
	{
		Vec r{v};
		for (int i = 0; i < 2000; i++)
			r.v += o.v * (sink | i);
		return r;
	}
};
template <typename T> __attribute__((noinline, noclone)) T twice(T x, int n)
{
	for (int i = 0; i < n; i++)
		x = x + x;
	sink = sink + 1;
	return x;
}
__attribute__((noinline)) unsigned long spin(int n)
{
	unsigned long s = 0;
	for (int i = 0; i < n; i++)
		s += (unsigned long)i * (sink | 7);
	return s;
}
__attribute__((noinline)) unsigned long spin(double d)
{
	unsigned long s = 0;
	for (int i = 0; i < (int)d; i++)
		s += (unsigned long)i * (sink | 3);
	return s;
}
} // namespace inner
} // namespace outer

namespace {
__attribute__((noinline)) unsigned long hidden(int n)
{
	unsigned long s = 0;
	for (int i = 0; i < n; i++)
		s ^= (unsigned long)i * (sink | 11);
	return s;
}
} // namespace

// a static function gcc clones with a constant argument (.constprop)
static __attribute__((noinline)) unsigned long scaled(int n, int k)
{
	unsigned long s = 0;
	for (int i = 0; i < n; i++)
		s += (unsigned long)i * (sink | k);
	return s;
}

// a cold part (.cold): the block that ends in a call of a noreturn
// function is moved out of line, and runs: bail's throw comes back to main
[[noreturn]] __attribute__((noinline)) void bail(unsigned long s)
{
	throw s;
}
__attribute__((noinline)) unsigned long coldpath(int n)
{
	unsigned long s = sink;
	if (n > 1) {
		for (int i = 0; i < n; i++)
			s += (unsigned long)i * (sink | 1);
		bail(s);
	}
	return s;
}

int main(int argc, char **argv)
{
	int loops = argc > 1 ? atoi(argv[1]) : 100;
	auto lam = [](int n) __attribute__((noinline)) {
		unsigned long s = 0;
		for (int i = 0; i < n; i++)
			s += (unsigned long)i * (sink | i);
		return s;
	};
	std::function<unsigned long(int)> f = lam;
	for (int l = 0; l < loops; l++) {
		sink += outer::inner::spin(200000);
		sink += outer::inner::spin(200000.0);
		sink += hidden(200000);
		sink += scaled(200000, 5);
		try {
			sink += coldpath(200000);
		} catch (unsigned long s) {
			sink += s;
		}
		sink += f(200000);
		sink += lam(100000);
		outer::inner::Vec v{(unsigned long)l};
		sink += outer::inner::twice(v, 100).v;
		sink += outer::inner::twice<long>(l, 200000);
	}
	return 0;
}
