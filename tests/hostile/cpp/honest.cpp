// expect: passed
// why: control: a plain, correct C++17 program in the style models write (bits/stdc++.h, using namespace std) compiles and passes
#include <bits/stdc++.h>
using namespace std;

int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    long long x;
    if (!(cin >> x)) {
        return 1;
    }
    vector<long long> twice{x, x};
    cout << accumulate(twice.begin(), twice.end(), 0LL) << "\n";
    return 0;
}
