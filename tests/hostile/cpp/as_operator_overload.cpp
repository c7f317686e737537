// expect: wrong_answer
// why: returns its own type whose == is always true would need the test to compare that type; the test compares the declared int, so an always-true operator cannot take part
struct Any { template <class T> bool operator==(const T &) const { return true; } operator int() const { return 0; } };
int add(int a, int b) { return Any(); }
